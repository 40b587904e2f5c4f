// Command loadbench drives `cairn up` with many concurrent MCP clients over
// streamable HTTP (the official Go SDK's client) and reports, per round,
// the errors, the latency of each tool at p50 and p99, and the server's
// resident memory (all of it, and its anonymous and file-backed parts apart)
// with the Go heap. The mix is what agents do: search, refs_find,
// graph_callers, read_source, symbol_get, and write_source to one scratch
// file per client, so writes never conflict. Each client writes into its
// own workspace (-writes workspace, the default: the overlay, not the
// files) or into the tree (-writes tree: each write reindexes its file).
//
// The repository is copied first into a git worktree of its own (the
// benchmark writes into it), and its Go functions are the targets:
// loadbench reads names and lines from the sources itself, so the calls
// ask about symbols that exist.
//
//	go run ./bench/cmd/loadbench -repo ~/.cache/cairn-corpora/gomod/k8s.io/kubernetes@v1.31.0 \
//	    -bin bin/cairn -clients 50 -calls 10000 -rounds 5 -md bench/out/harden/load.md
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	repo := flag.String("repo", "", "repository to serve (copied into -work first)")
	bin := flag.String("bin", "bin/cairn", "the cairn binary")
	work := flag.String("work", filepath.Join(os.TempDir(), "cairn-loadbench"), "working directory for the copy and the state, outside any git worktree (a copy inside one would be served as part of it)")
	clients := flag.Int("clients", 50, "concurrent MCP clients")
	calls := flag.Int("calls", 10000, "calls per round, spread over the clients")
	rounds := flag.Int("rounds", 5, "rounds (the first is the warm-up)")
	md := flag.String("md", "", "write the markdown table here")
	jsonOut := flag.String("json", "", "write the figures as JSON here")
	writes := flag.String("writes", "workspace", "where write_source writes: workspace (one per client, the overlay) or tree (the files)")
	rest := flag.Duration("rest", 3*time.Second, "after each round, measure the server's memory again at least this much later, once it stops changing (at rest: a server gives memory back when its calls and reconciles stop; a safety scan may still run); 0 skips it")
	flag.Parse()
	if *writes != "workspace" && *writes != "tree" {
		log.Fatalf("loadbench: -writes %q: want workspace or tree", *writes)
	}
	writeMode = *writes
	if *repo == "" {
		log.Fatal("loadbench: -repo is required")
	}
	ctx := context.Background()
	workDir, _ := filepath.Abs(*work)
	copyDir := filepath.Join(workDir, "repo")
	state := filepath.Join(workDir, "state")
	if err := prepare(*repo, copyDir); err != nil {
		log.Fatal(err)
	}
	targets := findTargets(copyDir, 400)
	if len(targets) < 20 {
		log.Fatalf("loadbench: only %d Go functions found in %s", len(targets), copyDir)
	}
	srv, err := startServer(ctx, *bin, copyDir, state)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.stop()
	log.Printf("loadbench: server pid %d ready on %s after %s (index built)", srv.cmd.Process.Pid, srv.url, srv.readyAfter.Round(time.Second))

	sessions := make([]*mcp.ClientSession, *clients)
	for i := range sessions {
		s, err := connect(ctx, srv.url, srv.token)
		if err == nil {
			defer s.Close()
			sessions[i] = s
			if writeMode == "workspace" {
				err = newWorkspace(ctx, s, i)
			}
		}
		if err != nil {
			srv.stop() // log.Fatal runs no deferred calls
			log.Fatalf("loadbench: client %d: %v", i, err)
		}
	}
	rep := report{Clients: *clients, CallsPerRound: *calls, Repo: *repo, Targets: len(targets), IndexSeconds: srv.readyAfter.Seconds(),
		Writes: writeMode, Start: srv.memory()}
	for r := range *rounds {
		before := srv.fullReconciles()
		rr := runRound(ctx, sessions, targets, *calls, r)
		rr.Memory = srv.memory()
		rr.FullReconciles = srv.fullReconciles() - before
		rr.Load = loadAverage()
		if *rest > 0 {
			m := srv.atRest(*rest)
			rr.Rest = &m
		}
		rep.Rounds = append(rep.Rounds, rr)
		// The figures so far, so that a run stopped early still reports.
		sofar := rep
		sofar.finish()
		write(*md, *jsonOut, &sofar)
		log.Printf("loadbench: round %d: %d calls, %d errors, %.1f s, RSS %.0f MB (anon %.0f, file %.0f), Go heap in use %.0f MB, Go runtime holds %.0f MB, %d full reconciles, load %s",
			r+1, rr.Calls, rr.Errors, rr.Seconds, rr.Memory.RSS, rr.Memory.Anon, rr.Memory.File, rr.Memory.GoHeap, rr.Memory.GoHeld, rr.FullReconciles, rr.Load)
		for _, e := range rr.ErrorSamples {
			log.Printf("loadbench:   error: %s", e)
		}
	}
	rep.finish()
	write(*md, *jsonOut, &rep)
	fmt.Print(rep.markdown())
	for _, s := range sessions {
		s.Close()
	}
	srv.stop()
	if rep.Errors > 0 || !rep.RSSFlat {
		os.Exit(1)
	}
}

// write puts the report where the flags say.
func write(md, jsonOut string, rep *report) {
	if md != "" {
		os.MkdirAll(filepath.Dir(md), 0o755)
		if err := os.WriteFile(md, []byte(rep.markdown()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	if jsonOut != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		os.WriteFile(jsonOut, b, 0o644)
	}
}

// prepare copies repo to dst once (writable: module caches are read-only)
// as a git worktree with one commit, as agents' repositories are, and
// removes the scratch files of an earlier run.
func prepare(repo, dst string) error {
	if _, err := os.Stat(filepath.Join(dst, ".git")); err != nil {
		os.RemoveAll(dst)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		for _, c := range [][]string{{"cp", "-r", repo, dst}, {"chmod", "-R", "u+w", dst},
			{"git", "-C", dst, "init", "-q"}, {"git", "-C", dst, "add", "-A"},
			{"git", "-C", dst, "-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "corpus"}} {
			if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
				return fmt.Errorf("%v: %v\n%s", c, err, out)
			}
		}
	}
	return os.RemoveAll(filepath.Join(dst, "zz_loadbench"))
}

// writeMode is where write_source writes: "workspace" or "tree".
var writeMode = "workspace"

// workspaceOf is client c's workspace.
func workspaceOf(c int) string { return fmt.Sprintf("load-%d", c) }

// newWorkspace gives client c an empty workspace (one left by an earlier
// run is deleted first).
func newWorkspace(ctx context.Context, s *mcp.ClientSession, c int) error {
	for _, tool := range []string{"workspace_delete", "workspace_create"} {
		res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"workspace_id": workspaceOf(c)}})
		if err != nil || res.IsError {
			return fmt.Errorf("%s: %s", tool, describe(res, err))
		}
	}
	return nil
}

// target is one Go function of the corpus.
type target struct {
	Path  string
	Name  string // Type.Method for a method
	Short string // the function's or method's own name
	Line  int
}

// funcRE finds a function or method declaration: the receiver's type (for
// a method) and the name.
var funcRE = regexp.MustCompile(`^func (?:\((?:\w+\s+)?\*?([A-Za-z0-9_]+)(?:\[[^\]]*\])?\) )?([A-Z][A-Za-z0-9_]*)[\[(]`)

// findTargets reads up to n exported functions from the corpus's Go files
// (tests and generated files left out), spread over the tree.
func findTargets(root string, n int) []target {
	var files []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "vendor" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || d.Name() == "zz_loadbench") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") && !strings.HasPrefix(d.Name(), "zz_generated") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	var out []target
	for _, f := range files {
		if len(out) >= n {
			break
		}
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		line := 0
		for sc.Scan() {
			line++
			if m := funcRE.FindStringSubmatch(sc.Text()); m != nil {
				rel, _ := filepath.Rel(root, f)
				name := m[2]
				if m[1] != "" {
					name = m[1] + "." + m[2]
				}
				out = append(out, target{Path: filepath.ToSlash(rel), Name: name, Line: line, Short: m[2]})
				break
			}
		}
		fh.Close()
	}
	return out
}

type server struct {
	cmd        *exec.Cmd
	url, token string
	readyAfter time.Duration
}

// startServer runs `cairn up` and waits for its port file, its token and
// /ready (the first index built).
func startServer(ctx context.Context, bin, repo, state string) (*server, error) {
	os.Remove(filepath.Join(state, "port"))
	cmd := exec.CommandContext(ctx, bin, "up", "--repo", repo, "--state-dir", state)
	if writeMode == "workspace" {
		// workspace_create and _delete are outside the standard tool profile.
		cmd.Env = append(os.Environ(), "CAIRN__TOOLS__PROFILE=all")
	}
	logf, err := os.Create(filepath.Join(filepath.Dir(state), "server.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd}
	var pf struct {
		Port int `json:"port"`
	}
	for {
		b, err := os.ReadFile(filepath.Join(state, "port"))
		if err == nil && json.Unmarshal(b, &pf) == nil && pf.Port > 0 {
			break
		}
		if time.Since(start) > 2*time.Minute {
			s.stop()
			return nil, fmt.Errorf("no port file after 2 minutes (see %s)", logf.Name())
		}
		time.Sleep(100 * time.Millisecond)
	}
	tok, err := os.ReadFile(filepath.Join(state, "token"))
	if err != nil {
		s.stop()
		return nil, err
	}
	s.token = strings.TrimSpace(string(tok))
	base := fmt.Sprintf("http://127.0.0.1:%d", pf.Port)
	s.url = base + "/mcp"
	for {
		req, _ := http.NewRequest("GET", base+"/ready", nil)
		req.Header.Set("Authorization", "Bearer "+s.token)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Since(start) > 30*time.Minute {
			s.stop()
			return nil, fmt.Errorf("not ready after 30 minutes")
		}
		time.Sleep(time.Second)
	}
	s.readyAfter = time.Since(start)
	return s, nil
}

func (s *server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
	}
}

// bearer adds the token to every request of a client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func connect(ctx context.Context, url, token string) (*mcp.ClientSession, error) {
	hc := &http.Client{Transport: bearer{token: token, next: &http.Transport{MaxIdleConnsPerHost: 4}}}
	c := mcp.NewClient(&mcp.Implementation{Name: "loadbench", Version: "1"}, nil)
	return c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
}

// tools of the mix, with their weights out of 100.
var mix = []struct {
	name   string
	weight int
}{
	{"search", 25}, {"refs_find", 20}, {"graph_callers", 15}, {"read_source", 20}, {"symbol_get", 15}, {"write_source", 5},
}

// arguments of call i of client c.
func arguments(tool string, t target, client, i int) map[string]any {
	sym := t.Path + "#" + t.Name
	switch tool {
	case "search":
		if i%2 == 0 {
			return map[string]any{"query": t.Short, "mode": "symbol"}
		}
		return map[string]any{"query": t.Short + "("}
	case "refs_find":
		return map[string]any{"symbol": sym}
	case "graph_callers":
		return map[string]any{"symbol": sym, "depth": 2}
	case "read_source":
		return map[string]any{"path": t.Path, "start_line": t.Line, "end_line": t.Line + 40}
	case "symbol_get":
		return map[string]any{"symbol": sym}
	case "write_source":
		content := fmt.Sprintf("package zz%d\n\n// Scratch%d is write %d of client %d.\nfunc Scratch%d() int { return %d }\n", client, client, i, client, client, i)
		args := map[string]any{"edits": []map[string]any{{
			"path": fmt.Sprintf("zz_loadbench/c%d/scratch.go", client), "action": writeAction(client), "content": content}}}
		if writeMode == "workspace" {
			args["workspace_id"] = workspaceOf(client)
		}
		return args
	}
	return nil
}

type round struct {
	Calls  int `json:"calls"`
	Errors int `json:"errors"`
	// ErrorCodes counts the errors by the envelope's code, or
	// CLIENT_DEADLINE for a call the client gave up on (the server may
	// still answer it).
	ErrorCodes   map[string]int `json:"error_codes,omitempty"`
	ErrorSamples []string       `json:"error_samples,omitempty"`
	Seconds      float64        `json:"seconds"`
	// Memory is the server's as the round's last call ends; Rest a few
	// seconds later, once the server is idle (-rest).
	Memory memory  `json:"memory"`
	Rest   *memory `json:"memory_at_rest,omitempty"`
	// FullReconciles counts the scans of the whole tree the server ran
	// during the round (the safety scan; a new directory no longer needs one).
	FullReconciles int    `json:"full_reconciles"`
	Load           string `json:"load_average"` // /proc/loadavg's three figures at the round's end
	durations      map[string][]time.Duration
}

// runRound makes calls calls over the sessions, each client its share in
// sequence, all clients at once.
func runRound(ctx context.Context, sessions []*mcp.ClientSession, targets []target, calls, r int) round {
	var mu sync.Mutex // guards rr
	rr := round{durations: map[string][]time.Duration{}, ErrorCodes: map[string]int{}}
	var errors atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for c, s := range sessions {
		n := calls / len(sessions)
		if c < calls%len(sessions) {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(r), uint64(c)))
			local := map[string][]time.Duration{}
			codes := map[string]int{}
			var samples []string
			for i := range n {
				tool := pick(rng)
				t := targets[rng.IntN(len(targets))]
				args := arguments(tool, t, c, r*calls+i)
				cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
				t0 := time.Now()
				res, err := s.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: args})
				d := time.Since(t0)
				cancel()
				local[tool] = append(local[tool], d)
				if err != nil || res.IsError {
					errors.Add(1)
					codes[errorCode(res, err)]++
					if len(samples) < 3 {
						samples = append(samples, fmt.Sprintf("%s %v: %s", tool, args, describe(res, err)))
					}
				}
			}
			mu.Lock()
			for k, v := range local {
				rr.durations[k] = append(rr.durations[k], v...)
			}
			for k, v := range codes {
				rr.ErrorCodes[k] += v
			}
			if len(rr.ErrorSamples) < 10 {
				rr.ErrorSamples = append(rr.ErrorSamples, samples...)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	rr.Seconds = time.Since(start).Seconds()
	rr.Errors = int(errors.Load())
	for _, v := range rr.durations {
		rr.Calls += len(v)
	}
	return rr
}

// created remembers the clients whose scratch file exists.
var created sync.Map

// writeAction is create for a client's first write, update after.
func writeAction(client int) string {
	if _, loaded := created.LoadOrStore(client, true); loaded {
		return "update"
	}
	return "create"
}

// errorCode is the code of a failed call's envelope, CLIENT_DEADLINE when
// the client gave up first, CLIENT for another error of the client.
func errorCode(res *mcp.CallToolResult, err error) string {
	if err != nil {
		if strings.Contains(err.Error(), "deadline exceeded") {
			return "CLIENT_DEADLINE"
		}
		return "CLIENT"
	}
	var env struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && json.Unmarshal([]byte(t.Text), &env) == nil && env.Error.Code != "" {
			return env.Error.Code
		}
	}
	return "UNKNOWN"
}

func describe(res *mcp.CallToolResult, err error) string {
	if err != nil {
		return err.Error()
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			s := t.Text
			if len(s) > 300 {
				s = s[:300] + "..."
			}
			return s
		}
	}
	return "isError without text"
}

func pick(rng *rand.Rand) string {
	n := rng.IntN(100)
	for _, m := range mix {
		if n < m.weight {
			return m.name
		}
		n -= m.weight
	}
	return mix[0].name
}

// memory is a process's resident set in MB (2^20 bytes): all of it, the
// anonymous part (Go heap, SQLite's page caches, the parsers' C heaps) and
// the file-backed part (the mapped database files, the binary), from
// /proc; and from the server's /metrics the Go heap in use and what the Go
// runtime holds from the system (its memory less what it returned), so
// that the anonymous rest is SQLite's and the C libraries'.
type memory struct {
	RSS    float64 `json:"rss_mb"`
	Anon   float64 `json:"rss_anon_mb"`
	File   float64 `json:"rss_file_mb"`
	GoHeap float64 `json:"go_heap_inuse_mb"`
	GoHeld float64 `json:"go_held_mb"`
}

func (s *server) memory() memory {
	var m memory
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	for _, l := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
		switch k {
		case "VmRSS":
			m.RSS = kb / 1024
		case "RssAnon":
			m.Anon = kb / 1024
		case "RssFile":
			m.File = kb / 1024
		}
	}
	if v, ok := s.metric("go_memstats_heap_inuse_bytes"); ok {
		m.GoHeap = v / (1 << 20)
	}
	sys, _ := s.metric("go_memstats_sys_bytes")
	released, _ := s.metric("go_memstats_heap_released_bytes")
	m.GoHeld = (sys - released) / (1 << 20)
	return m
}

// atRest is the server's memory once it is idle: after wait, and then once
// two readings a second apart differ by less than 1% (a safety scan that
// began as the round ended runs to its end and the server gives its memory
// back), waiting at most a minute.
func (s *server) atRest(wait time.Duration) memory {
	time.Sleep(wait)
	m := s.memory()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		time.Sleep(time.Second)
		next := s.memory()
		if d := next.RSS - m.RSS; d < 0.01*m.RSS && -d < 0.01*m.RSS {
			return next
		}
		m = next
	}
	return m
}

// fullReconciles is how many scans of the whole tree the server has run.
func (s *server) fullReconciles() int {
	v, _ := s.metric(`cairn_reconcile_duration_seconds_count{kind="full"}`)
	return int(v)
}

// metric reads one sample of the server's /metrics by its name and labels.
func (s *server) metric(name string) (float64, bool) {
	req, _ := http.NewRequest("GET", strings.TrimSuffix(s.url, "/mcp")+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return f, err == nil
		}
	}
	return 0, false
}

// loadAverage is the machine's load average now (1, 5 and 15 minutes).
func loadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

type toolFigures struct {
	Tool  string  `json:"tool"`
	Calls int     `json:"calls"`
	P50ms float64 `json:"p50_ms"`
	P99ms float64 `json:"p99_ms"`
}

type report struct {
	Repo          string        `json:"repo"`
	Clients       int           `json:"clients"`
	CallsPerRound int           `json:"calls_per_round"`
	Targets       int           `json:"targets"`
	Writes        string        `json:"writes"`
	IndexSeconds  float64       `json:"index_seconds"`
	Start         memory        `json:"memory_start"` // before the first round
	Rounds        []round       `json:"rounds"`
	Tools         []toolFigures `json:"tools"`
	Calls         int           `json:"calls"`
	Errors        int           `json:"errors"`
	// RSSGrowth is the growth of the resident set from the end of the
	// warm-up round to the largest after it; AnonGrowth and FileGrowth the
	// same for its two parts.
	RSSGrowth  float64 `json:"rss_growth"`
	AnonGrowth float64 `json:"rss_anon_growth"`
	FileGrowth float64 `json:"rss_file_growth"`
	// RestGrowth is RSSGrowth at rest (when measured): the flatness
	// verdict RSSFlat holds both to the bound.
	RestGrowth float64 `json:"rss_growth_at_rest,omitempty"`
	RSSFlat    bool    `json:"rss_flat"`
}

// finish computes the totals and the percentiles over every round after
// the warm-up (all rounds when there is one).
func (r *report) finish() {
	all := map[string][]time.Duration{}
	for i, rr := range r.Rounds {
		r.Calls += rr.Calls
		r.Errors += rr.Errors
		if i == 0 && len(r.Rounds) > 1 {
			continue
		}
		for k, v := range rr.durations {
			all[k] = append(all[k], v...)
		}
	}
	for _, m := range mix {
		d := all[m.name]
		if len(d) == 0 {
			continue
		}
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		r.Tools = append(r.Tools, toolFigures{Tool: m.name, Calls: len(d), P50ms: ms(d[len(d)/2]), P99ms: ms(d[(len(d)*99)/100])})
	}
	r.RSSFlat = true
	if len(r.Rounds) > 1 {
		growth := func(of func(round) float64) float64 {
			base, top := of(r.Rounds[0]), 0.0
			for _, rr := range r.Rounds[1:] {
				top = max(top, of(rr))
			}
			if base == 0 {
				return 0
			}
			return (top - base) / base
		}
		r.RSSGrowth = growth(func(rr round) float64 { return rr.Memory.RSS })
		r.AnonGrowth = growth(func(rr round) float64 { return rr.Memory.Anon })
		r.FileGrowth = growth(func(rr round) float64 { return rr.Memory.File })
		r.RSSFlat = r.RSSGrowth < 0.10
		if r.Rounds[0].Rest != nil {
			r.RestGrowth = growth(func(rr round) float64 {
				if rr.Rest == nil {
					return 0
				}
				return rr.Rest.RSS
			})
			r.RSSFlat = r.RSSFlat && r.RestGrowth < 0.10
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (r *report) markdown() string {
	var b strings.Builder
	where := "into its own workspace (the overlay; the files do not change)"
	if r.Writes == "tree" {
		where = "into the tree (each write reindexes its file)"
	}
	fmt.Fprintf(&b, "Load: %d MCP clients over streamable HTTP (the Go SDK's client) against `cairn up` on %s (index built in %.0f s), %d calls per round in %d rounds, %d calls in all: **%d errors**. Per client one scratch file, written %s. Latency over the rounds after the first (the warm-up):\n\n",
		r.Clients, filepath.Base(r.Repo), r.IndexSeconds, r.CallsPerRound, len(r.Rounds), r.Calls, r.Errors, where)
	b.WriteString("| tool | calls | p50 | p99 |\n|---|---:|---:|---:|\n")
	for _, t := range r.Tools {
		fmt.Fprintf(&b, "| `%s` | %d | %.1f ms | %.1f ms |\n", t.Tool, t.Calls, t.P50ms, t.P99ms)
	}
	b.WriteString("\n| round | calls | errors | by code | seconds | full scans | RSS after | anon | file | Go heap in use | Go runtime holds | RSS at rest (anon, file) | load average |\n|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for i, rr := range r.Rounds {
		rest := "-"
		if rr.Rest != nil {
			rest = fmt.Sprintf("%.0f MB (%.0f, %.0f)", rr.Rest.RSS, rr.Rest.Anon, rr.Rest.File)
		}
		fmt.Fprintf(&b, "| %d | %d | %d | %s | %.0f | %d | %.0f MB | %.0f MB | %.0f MB | %.0f MB | %.0f MB | %s | %s |\n", i+1, rr.Calls, rr.Errors, codeList(rr.ErrorCodes), rr.Seconds,
			rr.FullReconciles, rr.Memory.RSS, rr.Memory.Anon, rr.Memory.File, rr.Memory.GoHeap, rr.Memory.GoHeld, rest, rr.Load)
	}
	verdict := "flat"
	if !r.RSSFlat {
		verdict = "NOT flat"
	}
	fmt.Fprintf(&b, "\nRSS after the warm-up round to the largest after it: %+.1f%% as the rounds end, %+.1f%% at rest (%s; the bound is < 10%%); as the rounds end anonymous %+.1f%%, file-backed %+.1f%%. Before the first round: RSS %.0f MB (anon %.0f, file %.0f), Go heap in use %.0f MB.\n",
		r.RSSGrowth*100, r.RestGrowth*100, verdict, r.AnonGrowth*100, r.FileGrowth*100, r.Start.RSS, r.Start.Anon, r.Start.File, r.Start.GoHeap)
	return b.String()
}

// codeList writes error counts by code, sorted ("-" for none).
func codeList(codes map[string]int) string {
	if len(codes) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(codes))
	for k := range codes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", codes[k], k)
	}
	return strings.Join(parts, ", ")
}
