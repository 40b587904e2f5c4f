package service_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

// The operations campaign kills a child process at a random moment of an
// index build, an incremental reindex, a SCIP import, a rename applied by
// refactor_rename and a workspace_apply. After the next open, the files of
// a write are all old or all new, and every answer of a fixed set of
// queries equals, byte for byte, the answer of a clean index of the same
// tree built in a new state directory.

// opsPackages and opsFiles size the generated part of the repository: big
// enough that a full index takes a while, so that kills land inside it.
const (
	opsPackages = 3
	opsFiles    = 16
)

// opsRepo is the semantic fixture (a Go module with its SCIP index) plus
// generated packages that call into each other.
func opsRepo(t *testing.T) map[string]string {
	t.Helper()
	files := testenv.SemanticFiles(t, "fixture")
	for p := range opsPackages {
		for f := range opsFiles {
			files[fmt.Sprintf("gen/p%d/f%02d.go", p, f)] = genFile(p, f, 0)
		}
	}
	return files
}

// genFile is generated file f of package p in its version v: functions
// that call the previous file's and the previous package's.
func genFile(p, f, v int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package p%d\n\n", p)
	if p > 0 {
		fmt.Fprintf(&b, "import \"example.com/fix/gen/p%d\"\n\n", p-1)
	}
	for i := range 6 {
		fmt.Fprintf(&b, "// Fn%02d%d is generated (version %d).\nfunc Fn%02d%d(x int) int {\n", f, i, v, f, i)
		if f > 0 {
			fmt.Fprintf(&b, "\tx += Fn%02d%d(x - 1)\n", f-1, i)
		}
		if p > 0 {
			fmt.Fprintf(&b, "\tx += p%d.Fn%02d%d(x)\n", p-1, f, i)
		}
		fmt.Fprintf(&b, "\treturn x * %d\n}\n\n", v+i+1)
	}
	fmt.Fprintf(&b, "// Holder%02d holds a value.\ntype Holder%02d struct{ Value int }\n", f, f)
	return b.String()
}

// opsQueries are the calls whose answers must equal a clean index's.
var opsQueries = []probe{
	{"search", map[string]any{"query": "return x", "limit": 40}},
	{"search", map[string]any{"query": "Fn0", "mode": "symbol", "limit": 40}},
	{"search", map[string]any{"query": "Holder01", "mode": "definitions"}},
	{"refs_find", map[string]any{"symbol": "a.Store.Get", "limit": 100}},
	{"refs_find", map[string]any{"symbol": "p1.Fn052", "limit": 100}},
	{"graph_callers", map[string]any{"symbol": "p0.Fn031", "depth": 2}},
	{"symbol_get", map[string]any{"symbol": "a.Store"}},
	{"list_files", map[string]any{"path": "gen", "depth": 3}},
	{"impact_analyze", map[string]any{"symbol": "p0.Fn001"}},
}

// answers runs opsQueries through a service: the answer and data of each,
// as asked reads them.
func answers(t *testing.T, paths config.Paths, cfg config.Config) []string {
	t.Helper()
	s := mustOpen(t, paths, cfg, service.Options{})
	defer s.Close()
	out, envs := asked(t, s, opsQueries)
	for i, env := range envs {
		if env.Error != nil {
			t.Fatalf("%s %v: %s %s", opsQueries[i].tool, opsQueries[i].args, env.Error.Code, env.Error.Message)
		}
	}
	return out
}

// cleanAnswers indexes the tree from nothing in a new state directory (and
// imports scip there when it is not empty) and answers opsQueries.
func cleanAnswers(t *testing.T, root, scip string, cfg config.Config) []string {
	t.Helper()
	paths, err := config.Locate(context.Background(), root, filepath.Join(t.TempDir(), "clean"))
	if err != nil {
		t.Fatal(err)
	}
	if scip != "" {
		s := mustOpen(t, paths, cfg, service.Options{})
		answer(t, call(t, s, "index_ensure", map[string]any{"scip": scip, "wait": true}))
		s.Close()
	}
	return answers(t, paths, cfg)
}

// runJobAfter runs a child and kills it after delay (never when delay is
// negative); killed reports whether it died of the kill.
func runJobAfter(t *testing.T, job childJob, delay time.Duration) (out childOut, killed bool, took time.Duration) {
	t.Helper()
	spec, _ := json.Marshal(job)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+string(spec))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if delay >= 0 {
		timer := time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
		defer timer.Stop()
	}
	err := cmd.Wait()
	took = time.Since(start)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return out, true, took
		}
	}
	if err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("child output %q: %v", stdout.String(), err)
	}
	return out, false, took
}

// opsCampaign is one operation's campaign: prepare readies the tree and
// state for one run and returns the child's call and the files a write
// would change (path -> content before and after; "" for missing).
type opsCampaign struct {
	name    string
	scip    string // the .scip file the campaign imports, if any
	prepare func(t *testing.T, rng *rand.Rand, paths config.Paths, cfg config.Config, iter int) (tool string, args any, before, after map[string]string)
}

// TestCrashDuringOperations is the operations campaign. CAIRN_CRASH_KILLS
// sets the kills per operation (default 2; make harden runs hundreds).
func TestCrashDuringOperations(t *testing.T) {
	kills := killCount("CAIRN_CRASH_OPS_KILLS", 2)
	for _, c := range opsCampaigns(t) {
		t.Run(c.name, func(t *testing.T) { runOpsCampaign(t, c, kills) })
	}
}

func runOpsCampaign(t *testing.T, c opsCampaign, kills int) {
	paths, cfg := newRepo(t, opsRepo(t))
	scip := c.scip
	// The first index (not killed): the state every campaign starts from.
	answers(t, paths, cfg)
	rng := rand.New(rand.NewSource(int64(len(c.name)) * 7919))
	outcomes := map[string]int{}
	var runs []time.Duration // how long the runs that finished took
	clean := map[string][]string{}
	for iter := 0; outcomes["killed"] < kills; iter++ {
		if iter > 10*kills+10 {
			t.Fatalf("only %d kills in %d runs", outcomes["killed"], iter)
		}
		tool, args, before, after := c.prepare(t, rng, paths, cfg, iter)
		raw, _ := json.Marshal(args)
		delay := time.Duration(-1)
		took := median(runs)
		if took > 0 && iter%4 != 3 { // now and then one that finishes, to learn the time
			delay = time.Duration(rng.Int63n(int64(took)))
		}
		out, killed, d := runJobAfter(t, childJob{Root: paths.Root, StateDir: paths.StateDir, Mode: "call", Tool: tool, Args: raw}, delay)
		switch {
		case killed:
			outcomes["killed"]++
		case out.Code != "":
			t.Fatalf("run %d: %s failed with %s", iter, tool, out.Code)
		default:
			outcomes["finished"]++
			runs = append(runs, d)
		}
		// The next open recovers what the kill left.
		if s, err := service.Open(context.Background(), paths, cfg, service.Options{}); err != nil {
			t.Fatalf("run %d: open after the kill: %v", iter, err)
		} else {
			s.Close()
		}
		// The files of a write: all old or all new.
		if len(after) > 0 {
			names := make([]string, 0, len(after))
			for p := range after {
				names = append(names, p)
			}
			sort.Strings(names)
			got := files(t, paths.Root, names)
			switch {
			case equal(got, after):
				outcomes["new"]++
			case equal(got, before):
				outcomes["old"]++
			default:
				t.Fatalf("run %d (killed %v after %v): mixed state\n got %q\nold %q\nnew %q", iter, killed, delay, got, before, after)
			}
		}
		// Every answer as a clean index of the tree gives it, with the
		// semantic layer or (a killed first import) without.
		got := answers(t, paths, cfg)
		key := treeKey(t, paths.Root)
		if clean[key] == nil {
			clean[key] = cleanAnswers(t, paths.Root, "", cfg)
			if scip != "" {
				clean[key+" scip"] = cleanAnswers(t, paths.Root, scip, cfg)
			}
		}
		if !sameAnswers(got, clean[key]) && !(scip != "" && sameAnswers(got, clean[key+" scip"])) {
			diff := firstDiff(got, clean[key])
			if scip != "" {
				diff += "\nwith the semantic layer:\n" + firstDiff(got, clean[key+" scip"])
			}
			t.Fatalf("run %d (killed %v after %v of %v): answers differ from a clean index:\n%s", iter, killed, delay, took, diff)
		}
	}
	t.Logf("%s: %v (median finished run %v)", c.name, outcomes, median(runs).Round(time.Millisecond))
	// A writer killed before its journal took its place leaves the
	// journal's temporary file; recovery removes it once it is old enough
	// not to belong to a live writer.
	temps, _ := filepath.Glob(filepath.Join(paths.StateDir, "mutate", "journal", "*.json.tmp"))
	for _, p := range temps {
		old := time.Now().Add(-time.Hour)
		os.Chtimes(p, old, old)
	}
	if s, err := service.Open(context.Background(), paths, cfg, service.Options{}); err == nil {
		s.Close()
	}
	checkNoLeftovers(t, paths)
}

// median is the middle of ds (0 for none): kills are drawn below it, so
// that a slow run on a loaded machine does not push most of them past the
// end of the operation.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func sameAnswers(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

func firstDiff(got, want []string) string {
	for i := range got {
		if i < len(want) && got[i] != want[i] {
			return fmt.Sprintf(" got %s\nwant %s", got[i], want[i])
		}
	}
	return fmt.Sprintf("%d answers, want %d", len(got), len(want))
}

// treeKey names the tree's content: the hash of every file's path and
// content (git's view of the work tree).
func treeKey(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s %s\n", p, shaOf(string(data)))
		}
		return nil
	})
	return shaOf(b.String())
}

func opsCampaigns(t *testing.T) []opsCampaign {
	scip := testenv.SemanticIndex(t, "fixture") // one file, imported again and again under one key
	return []opsCampaign{
		{name: "full_index", prepare: func(*testing.T, *rand.Rand, config.Paths, config.Config, int) (string, any, map[string]string, map[string]string) {
			return "index_ensure", map[string]any{"full": true}, nil, nil
		}},
		{name: "incremental", prepare: prepareIncremental},
		{name: "scip_import", scip: scip, prepare: func(t *testing.T, _ *rand.Rand, _ config.Paths, _ config.Config, _ int) (string, any, map[string]string, map[string]string) {
			return "index_ensure", map[string]any{"scip": scip, "wait": true}, nil, nil
		}},
		{name: "rename", prepare: prepareRename},
		{name: "workspace_apply", prepare: prepareWorkspaceApply},
	}
}

// prepareIncremental changes the tree behind the index: some files get a
// new version, one is deleted, one is added.
func prepareIncremental(t *testing.T, rng *rand.Rand, paths config.Paths, _ config.Config, iter int) (string, any, map[string]string, map[string]string) {
	for range 1 + rng.Intn(6) {
		p, f := rng.Intn(opsPackages), rng.Intn(opsFiles)
		testenv.WriteFile(t, paths.Root, fmt.Sprintf("gen/p%d/f%02d.go", p, f), genFile(p, f, iter+1))
	}
	os.Remove(filepath.Join(paths.Root, fmt.Sprintf("gen/p2/extra%d.go", iter-1)))
	testenv.WriteFile(t, paths.Root, fmt.Sprintf("gen/p2/extra%d.go", iter), fmt.Sprintf("package p2\n\n// Extra%d is new.\nfunc Extra%d() int { return Fn001(%d) }\n", iter, iter, iter))
	return "index_ensure", map[string]any{}, nil, nil
}

// prepareRename renames a generated type back and forth; the write is the
// files that name it.
func prepareRename(t *testing.T, _ *rand.Rand, paths config.Paths, cfg config.Config, _ int) (string, any, map[string]string, map[string]string) {
	holder := filepath.Join(paths.Root, "gen/p1/f03.go")
	data, err := os.ReadFile(holder)
	if err != nil {
		t.Fatal(err)
	}
	from, to := "Holder03", "Renamed03"
	if !strings.Contains(string(data), "type Holder03 ") {
		from, to = to, from
	}
	// The rename's files: the declaration and a user of it.
	user := "gen/p1/user.go"
	if _, err := os.Stat(filepath.Join(paths.Root, user)); err != nil {
		testenv.WriteFile(t, paths.Root, user, "package p1\n\n// Use uses the holder.\nfunc Use(h Holder03) int { return h.Value }\n")
		answers(t, paths, cfg) // indexed before the rename plans on it
	}
	names := []string{"gen/p1/f03.go", user}
	before := files(t, paths.Root, names)
	// The code's mentions change, and the declaration's doc comment (a Go
	// rename edits it, as gopls does); the user's doc comment keeps its words.
	after := map[string]string{
		names[0]: strings.Replace(before[names[0]], "// "+from+" holds a value.\ntype "+from+" ", "// "+to+" holds a value.\ntype "+to+" ", 1),
		names[1]: strings.Replace(before[names[1]], "h "+from+")", "h "+to+")", 1),
	}
	return "refactor_rename", map[string]any{"symbol": "p1." + from, "new_name": to, "apply": true, "verify": "none"}, before, after
}

// prepareWorkspaceApply writes new versions of some files into a workspace
// overlay; the child lands it.
func prepareWorkspaceApply(t *testing.T, rng *rand.Rand, paths config.Paths, cfg config.Config, iter int) (string, any, map[string]string, map[string]string) {
	s := mustOpen(t, paths, cfg, service.Options{})
	defer s.Close()
	id := fmt.Sprintf("w%d", iter)
	answer(t, call(t, s, "workspace_create", map[string]any{"workspace_id": id}))
	var names []string
	after := map[string]string{}
	for len(names) < 3 {
		pkg, file := rng.Intn(opsPackages), rng.Intn(opsFiles)
		p := fmt.Sprintf("gen/p%d/f%02d.go", pkg, file)
		if _, ok := after[p]; ok {
			continue
		}
		names = append(names, p)
		after[p] = genFile(pkg, file, 100+iter)
	}
	created := fmt.Sprintf("gen/p0/ws%d.go", iter)
	names = append(names, created)
	after[created] = fmt.Sprintf("package p0\n\n// Ws%d came from a workspace.\nfunc Ws%d() int { return Fn000(1) }\n", iter, iter)
	sort.Strings(names)
	before := files(t, paths.Root, names)
	var edits []map[string]any
	for _, p := range names {
		c := after[p]
		if before[p] == "" {
			edits = append(edits, map[string]any{"path": p, "action": "create", "content": c})
		} else {
			edits = append(edits, map[string]any{"path": p, "action": "update", "content": c, "expected_sha256": shaOf(before[p])})
		}
	}
	answer(t, call(t, s, "write_source", map[string]any{"edits": edits, "workspace_id": id}))
	return "workspace_apply", map[string]any{"workspace_id": id}, before, after
}
