package service_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/tools"
)

// The crash test runs writes in child processes (this test binary, re-run
// with childEnv set) that kill themselves with SIGKILL at a chosen step of
// the write protocol (mutate's crash hook), and checks that the next open
// of the repository leaves every batch all old or all new, and that the
// tools then read the right content.

// childEnv holds the child's job, as JSON.
const childEnv = "CAIRN_TEST_WRITE_CHILD"

// childJob is what a child process does.
type childJob struct {
	Root, StateDir string
	// Mode: "engine" writes through the mutation engine, "tool" through a
	// service and the write_source tool, "recover" only recovers, "call"
	// runs Tool with Args through a service.
	Mode  string
	Edits []mutate.FileEdit
	Tool  string          `json:",omitempty"`
	Args  json.RawMessage `json:",omitempty"`
}

// childOut is what a child that was not killed reports.
type childOut struct {
	Points int64  `json:"points"` // crash points passed
	Code   string `json:"code,omitempty"`
}

func TestMain(m *testing.M) {
	if job := os.Getenv(childEnv); job != "" {
		os.Exit(runChild(job))
	}
	os.Exit(m.Run())
}

func runChild(spec string) int {
	var job childJob
	if err := json.Unmarshal([]byte(spec), &job); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx := context.Background()
	paths := config.Paths{Root: job.Root, StateDir: job.StateDir}
	eng := mutate.New(mutate.Options{Paths: paths})
	var err error
	switch job.Mode {
	case "engine":
		_, err = eng.Write(ctx, mutate.Request{Edits: job.Edits})
	case "recover":
		_, err = eng.Recover(ctx)
	case "serve":
		// An owner that serves until it is killed: it says "ready" on
		// stdout once its first index is built.
		p, lerr := config.Locate(ctx, job.Root, job.StateDir)
		if lerr != nil {
			fmt.Fprintln(os.Stderr, lerr)
			return 2
		}
		s, oerr := service.Open(ctx, p, config.Default(), service.Options{Serve: true})
		if oerr != nil || !s.Owner() {
			fmt.Fprintln(os.Stderr, "cannot own the index:", oerr)
			return 2
		}
		for ok, _ := s.Ready(); !ok; ok, _ = s.Ready() {
			time.Sleep(10 * time.Millisecond)
		}
		fmt.Println("ready")
		select {}
	case "tool", "call":
		p, lerr := config.Locate(ctx, job.Root, job.StateDir)
		if lerr != nil {
			fmt.Fprintln(os.Stderr, lerr)
			return 2
		}
		s, oerr := service.Open(ctx, p, config.Default(), service.Options{})
		if oerr != nil {
			fmt.Fprintln(os.Stderr, oerr)
			return 2
		}
		tool, raw := job.Tool, job.Args
		if job.Mode == "tool" {
			tool = "write_source"
			raw, _ = json.Marshal(tools.WriteIn{Edits: job.Edits})
		}
		env := tools.Invoke(ctx, s.Env(), tool, raw)
		s.Close()
		if env.Error != nil {
			err = &errs.Error{Kind: kindOf(env.Error.Code), Msg: env.Error.Message}
		}
	}
	out := childOut{Points: mutate.CrashPoints()}
	if err != nil {
		out.Code = errs.KindOf(err).Code()
	}
	json.NewEncoder(os.Stdout).Encode(out)
	return 0
}

// killCount is the number of kills a crash campaign makes: the positive
// number in the environment variable name (make harden raises it), else def.
func killCount(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

func kindOf(code string) errs.Kind {
	for k := errs.Internal; k <= errs.TooLarge; k++ {
		if k.Code() == code {
			return k
		}
	}
	return errs.Internal
}

// runJob runs a child; killed reports whether it died of SIGKILL.
func runJob(t *testing.T, job childJob, killAt int) (out childOut, killed bool) {
	t.Helper()
	spec, _ := json.Marshal(job)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(spec), mutate.KillAtEnv+"="+strconv.Itoa(killAt))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return out, true
		}
	}
	if err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("child output %q: %v", stdout.String(), err)
	}
	return out, false
}

func shaOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// files reads the given repo paths ("" stands for a missing file: no
// content here is empty).
func files(t *testing.T, root string, paths []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(root, p))
		switch {
		case err == nil:
			out[p] = string(data)
		case errors.Is(err, os.ErrNotExist):
			out[p] = ""
		default:
			t.Fatal(err)
		}
	}
	return out
}

// planBatch builds a random multi-file batch over the current files:
// updates (whole content or a span), a delete, and a create, sometimes in
// new directories. It returns the edits and the contents they lead to.
func planBatch(rng *rand.Rand, iter int, cur map[string]string) ([]mutate.FileEdit, map[string]string) {
	var existing []string
	for p, c := range cur {
		if c != "" {
			existing = append(existing, p)
		}
	}
	sort.Strings(existing)
	rng.Shuffle(len(existing), func(i, j int) { existing[i], existing[j] = existing[j], existing[i] })
	want := map[string]string{}
	var edits []mutate.FileEdit
	nUpdate := min(2+rng.Intn(3), len(existing)-1)
	for _, p := range existing[:nUpdate] {
		next := fmt.Sprintf("iteration %d of %s\nline two\n", iter, p)
		if rng.Intn(2) == 0 {
			first, _, _ := strings.Cut(cur[p], "\n")
			edits = append(edits, mutate.FileEdit{Path: p, Action: mutate.Update,
				Spans: []mutate.Span{{StartLine: 1, Expected: &first, NewText: fmt.Sprintf("iteration %d of %s", iter, p)}}})
			_, rest, _ := strings.Cut(cur[p], "\n")
			next = fmt.Sprintf("iteration %d of %s\n", iter, p) + rest
		} else {
			edits = append(edits, mutate.FileEdit{Path: p, Action: mutate.Update, Content: &next, ExpectedSHA256: shaOf(cur[p])})
		}
		want[p] = next
	}
	if len(existing) > 4 {
		p := existing[len(existing)-1]
		edits = append(edits, mutate.FileEdit{Path: p, Action: mutate.Delete})
		want[p] = ""
	}
	created := fmt.Sprintf("n%d/f.txt", iter)
	if rng.Intn(2) == 0 {
		created = fmt.Sprintf("c%d.txt", iter)
	}
	content := fmt.Sprintf("created in iteration %d\n", iter)
	edits = append(edits, mutate.FileEdit{Path: created, Action: mutate.Create, Content: &content})
	want[created] = content
	return edits, want
}

// TestCrashAtRandomPoints kills writers at random steps of multi-file
// batches: after the next open, each batch is all old or all new, nothing
// of it is left in the tree, and read_file_full answers what is on disk.
// Four repositories are worked at once. CAIRN_CRASH_KILLS raises the
// number of kills (default 200 in all), CAIRN_CRASH_SEED changes the seed.
func TestCrashAtRandomPoints(t *testing.T) {
	kills := killCount("CAIRN_CRASH_KILLS", 200)
	seed := int64(20240601)
	if n, err := strconv.ParseInt(os.Getenv("CAIRN_CRASH_SEED"), 10, 64); err == nil {
		seed = n
	}
	const workers = 4
	var mu sync.Mutex // guards total and killedAt
	total := map[string]int{}
	killedAt := map[int]int{}
	start := time.Now()
	// Subtests run from goroutines of their own run at once, not limited
	// by -test.parallel (the time goes to processes starting and files
	// syncing, not to the CPU).
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(strconv.Itoa(w), func(t *testing.T) {
				stats, at := crashLoop(t, seed+int64(w), (kills+workers-1)/workers)
				mu.Lock()
				defer mu.Unlock()
				for k, v := range stats {
					total[k] += v
				}
				for k, v := range at {
					killedAt[k] += v
				}
			})
		}()
	}
	wg.Wait()
	points := slices.Sorted(maps.Keys(killedAt))
	var spread []string
	for _, k := range points {
		spread = append(spread, fmt.Sprintf("%d:%d", k, killedAt[k]))
	}
	t.Logf("seed %d, %s: %v; kills per crash point %s", seed, time.Since(start).Round(time.Second), total, strings.Join(spread, " "))
	if !t.Failed() && (total["old"] == 0 || total["new"] == 0) {
		t.Errorf("outcomes %v: both old and new should occur", total)
	}
}

// crashLoop writes random batches to a new repository, killing the writer
// at a random crash point, until it has killed kills of them; after each
// it opens the repository and checks it. It returns the outcomes and how
// many kills hit each crash point.
func crashLoop(t *testing.T, seed int64, kills int) (map[string]int, map[int]int) {
	rng := rand.New(rand.NewSource(seed))
	start := map[string]string{}
	for i := range 6 {
		start[fmt.Sprintf("f%d.txt", i)] = fmt.Sprintf("file %d\nline two\n", i)
	}
	for i := range 3 {
		start[fmt.Sprintf("d/g%d.txt", i)] = fmt.Sprintf("nested %d\nline two\n", i)
	}
	paths, cfg := newRepo(t, start)
	cur := map[string]string{}
	for p, c := range start {
		cur[p] = c
	}
	// The crash points of a batch: learned from the writes that finish.
	maxPoints := map[string]int64{"engine": 26, "tool": 26}
	stats := map[string]int{}
	killedAt := map[int]int{}
	for iter := 0; stats["killed"] < kills; iter++ {
		if iter > 4*kills {
			t.Fatalf("only %d kills in %d iterations", stats["killed"], iter)
		}
		edits, want := planBatch(rng, iter, cur)
		mode := "engine"
		if iter%8 == 7 {
			mode = "tool"
		}
		job := childJob{Root: paths.Root, StateDir: paths.StateDir, Mode: mode, Edits: edits}
		k := 1 + rng.Intn(int(maxPoints[mode]))
		out, killed := runJob(t, job, k)
		switch {
		case killed:
			stats["killed"]++
			killedAt[k]++
		case out.Code != "":
			t.Fatalf("iteration %d: the write failed with %s", iter, out.Code)
		default:
			stats["completed"]++
			maxPoints[mode] = max(maxPoints[mode], out.Points)
		}
		if killed && iter%3 == 0 {
			// Recovery dies too, once, part way.
			if _, rk := runJob(t, childJob{Root: paths.Root, StateDir: paths.StateDir, Mode: "recover"}, 1+rng.Intn(4)); rk {
				stats["recovery killed"]++
			}
		}
		// The next open recovers.
		s := mustOpen(t, paths, cfg, service.Options{})
		touched := slices.Sorted(maps.Keys(want))
		got := files(t, paths.Root, touched)
		old := map[string]string{}
		for _, p := range touched {
			old[p] = cur[p]
		}
		switch {
		case equal(got, want):
			stats["new"]++
			for p, c := range want {
				cur[p] = c
			}
		case equal(got, old):
			stats["old"]++
		default:
			s.Close()
			t.Fatalf("iteration %d (mode %s, killed at %d): mixed state\n got %q\nold %q\nnew %q", iter, mode, k, got, old, want)
		}
		// One file of the batch read through the tools (each read first
		// reconciles the whole tree, so reading them all costs more than it
		// adds).
		p := touched[iter%len(touched)]
		checkRead(t, s, p, cur[p])
		s.Close()
	}
	checkNoLeftovers(t, paths)
	return stats, killedAt
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// checkRead reads a file through the tools: its content, or FILE_NOT_FOUND
// for a file that should not exist.
func checkRead(t *testing.T, s *service.Service, p, want string) {
	t.Helper()
	env := call(t, s, "read_file_full", map[string]any{"path": p, "confirm": true})
	if want == "" {
		if env.Error == nil || env.Error.Code != "FILE_NOT_FOUND" {
			t.Fatalf("read %s: want FILE_NOT_FOUND, got %+v", p, env.Error)
		}
		return
	}
	if env.Error != nil {
		t.Fatalf("read %s: %s %s", p, env.Error.Code, env.Error.Message)
	}
	out := env.Data.(*tools.ReadFullOut)
	if out.Content != want || out.FileSHA256 != shaOf(want) {
		t.Fatalf("read %s: %q (sha %s), want %q", p, out.Content, out.FileSHA256, want)
	}
}

// checkNoLeftovers: no temporary file in the tree, no journal in the state.
func checkNoLeftovers(t *testing.T, paths config.Paths) {
	t.Helper()
	filepath.Walk(paths.Root, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasPrefix(info.Name(), ".cairn-") {
			t.Errorf("left in the tree: %s", p)
		}
		return err
	})
	des, _ := os.ReadDir(filepath.Join(paths.StateDir, "mutate", "journal"))
	for _, de := range des {
		t.Errorf("journal left: %s", de.Name())
	}
}

// Two processes write one file at once, each with the hash it read: one
// wins, the other gets CONFLICT.
func TestConcurrentWriterProcesses(t *testing.T) {
	paths, _ := newRepo(t, map[string]string{"a.txt": "base\n"})
	base := shaOf("base\n")
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for i := range 2 {
		content := fmt.Sprintf("writer %d\n", i)
		spec, _ := json.Marshal(childJob{Root: paths.Root, StateDir: paths.StateDir, Mode: "engine",
			Edits: []mutate.FileEdit{{Path: "a.txt", Action: mutate.Update, Content: &content, ExpectedSHA256: base}}})
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+string(spec))
		var b bytes.Buffer
		cmd.Stdout, cmd.Stderr = &b, &b
		cmds, outs = append(cmds, cmd), append(outs, &b)
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	codes := map[string]int{}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("child: %v %s", err, outs[i])
		}
		var out childOut
		if err := json.Unmarshal(outs[i].Bytes(), &out); err != nil {
			t.Fatalf("child output %q", outs[i])
		}
		codes[out.Code]++
	}
	if codes[""] != 1 || codes["CONFLICT"] != 1 {
		t.Fatalf("outcomes %v: want one success and one CONFLICT", codes)
	}
	data, _ := os.ReadFile(filepath.Join(paths.Root, "a.txt"))
	if !strings.HasPrefix(string(data), "writer ") {
		t.Errorf("a.txt holds %q", data)
	}
}
