package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/testenv"
)

// opsRepo is the demo module with enough code that searching it saves an
// agent real reading.
func opsRepo() map[string]string {
	out := map[string]string{}
	for k, v := range testenv.Demo {
		out[k] = v
	}
	for i := 0; i < 6; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package routes\n\n")
		for j := 0; j < 60; j++ {
			fmt.Fprintf(&b, "// Handler%d_%d serves one Route of the Config.\nfunc Handler%d_%d(cfg Config) Route {\n\treturn Route{Path: \"/r/%d/%d\"}\n}\n\n", i, j, i, j, i, j)
		}
		out[fmt.Sprintf("routes/r%d.go", i)] = b.String()
	}
	out["routes/types.go"] = "package routes\n\n// Config configures routes.\ntype Config struct{ Base string }\n\n// Route is one route.\ntype Route struct{ Path string }\n"
	return out
}

// chromium finds Debian's Chromium, which `make e2e-deps` installs.
func chromium(t *testing.T) {
	t.Helper()
	node(t)
	path := os.Getenv("CAIRN_CHROMIUM")
	if path == "" {
		path = "/usr/bin/chromium"
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s is missing: the dashboard test needs Debian's chromium (`make e2e-deps` installs it; CAIRN_SKIP_NODE=1 skips the node tests)", path)
	}
}

// startUpIn is startUp with the state dir chosen by the caller (a restart
// reuses it).
func startUpIn(t *testing.T, bin, repo, stateDir string) *upServer {
	t.Helper()
	return startUpEnv(t, bin, repo, stateDir, nil)
}

// startUpEnv is startUpIn with env added to the server's environment.
func startUpEnv(t *testing.T, bin, repo, stateDir string, env []string) *upServer {
	t.Helper()
	os.Remove(filepath.Join(stateDir, "port"))
	cmd := exec.Command(bin, "up", "--repo", repo, "--state-dir", stateDir)
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		if t.Failed() {
			t.Logf("cairn up output:\n%s", out.String())
		}
	})
	s := &upServer{cmd: cmd}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var pf portFile
		b, err := os.ReadFile(filepath.Join(stateDir, "port"))
		if err == nil && json.Unmarshal(b, &pf) == nil && pf.Port > 0 && pf.PID == cmd.Process.Pid {
			s.port = pf.Port
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("cairn up wrote no port file in 30s:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	tok, err := os.ReadFile(filepath.Join(stateDir, "token"))
	if err != nil {
		t.Fatal(err)
	}
	s.token = strings.TrimSpace(string(tok))
	return s
}

func (s *upServer) base() string { return fmt.Sprintf("http://127.0.0.1:%d", s.port) }

// rest calls a tool over REST and decodes the envelope.
func (s *upServer) rest(t *testing.T, tool, args, task string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.base()+"/api/v1/tools/"+tool, strings.NewReader(args))
	req.Header.Set("Authorization", "Bearer "+s.token)
	if task != "" {
		req.Header.Set("X-Cairn-Task", task)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	defer resp.Body.Close()
	var env map[string]any
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("%s: %v\n%s", tool, err, b)
	}
	return resp.StatusCode, env
}

func (s *upServer) get(t *testing.T, path string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", s.base()+path, nil)
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func runNode(t *testing.T, env []string, args ...string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\nstdout:\n%s\nstderr:\n%s", args[0], err, stdout.String(), stderr.String())
	}
	var seen map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &seen); err != nil || seen["ok"] != true {
		t.Fatalf("node %s: %v\n%s\n%s", args[0], err, stdout.String(), stderr.String())
	}
	return seen
}

func parseMetrics(t *testing.T, text string) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v", err)
	}
	return fams
}

// counter sums a counter family's samples whose labels pass keep.
func counter(fams map[string]*dto.MetricFamily, name string, keep func(labels map[string]string) bool) float64 {
	total := 0.0
	if f := fams[name]; f != nil {
		for _, m := range f.Metric {
			labels := map[string]string{}
			for _, l := range m.Label {
				labels[l.GetName()] = l.GetValue()
			}
			if keep == nil || keep(labels) {
				total += m.GetCounter().GetValue()
			}
		}
	}
	return total
}

// TestDashboard loads the dashboard in a real browser while a scripted
// client makes calls, filters the operations by the client's task, takes a
// screenshot, and checks that the numbers the page settles on are the
// numbers /metrics reports.
func TestDashboard(t *testing.T) {
	chromium(t)
	bin := cairn(t)
	testenv.Isolate(t)
	repo := testenv.Repo(t, opsRepo())
	s := startUpIn(t, bin, repo, filepath.Join(t.TempDir(), "state"))
	shots := t.TempDir()
	if dir := os.Getenv("CAIRN_DASHBOARD_SHOTS"); dir != "" {
		shots = dir // keep the screenshot to look at
	}
	seen := runNode(t, nil, "dashboard.mjs", s.base(), s.token, shots)
	if errs := seen["page_errors"].([]any); len(errs) > 0 {
		t.Errorf("the page threw: %v", errs)
	}
	if st, err := os.Stat(filepath.Join(shots, "dashboard.png")); err != nil || st.Size() < 10000 {
		t.Errorf("screenshot: %v", err)
	}
	if !strings.Contains(seen["url"].(string), "task="+seen["task"].(string)) {
		t.Errorf("the filter is not in the page's address: %v", seen["url"])
	}
	fams := parseMetrics(t, seen["metrics"].(string))
	shown := seen["shown"].(map[string]any)
	calls := counter(fams, "cairn_tool_calls_total", nil)
	errors := counter(fams, "cairn_tool_calls_total", func(l map[string]string) bool { return l["outcome"] != "ok" })
	want := map[string]float64{
		"calls":  calls,
		"errors": errors,
		"tokens": counter(fams, "cairn_tokens_returned_total", nil),
		"saved":  counter(fams, "cairn_tokens_saved_total", nil),
	}
	for k, v := range want {
		if shown[k] != v {
			t.Errorf("the dashboard shows %s = %v, /metrics says %v", k, shown[k], v)
		}
	}
	if calls != seen["calls"] || errors != 3 || want["saved"] <= 0 {
		t.Errorf("metrics: %v calls (client made %v), %v errors, %v tokens saved", calls, seen["calls"], errors, want["saved"])
	}
	for tool, v := range shown["tools"].(map[string]any) {
		got := v.(map[string]any)
		m := counter(fams, "cairn_tool_calls_total", func(l map[string]string) bool { return l["tool"] == tool })
		if got["calls"] != m {
			t.Errorf("%s: the dashboard shows %v calls, /metrics %v", tool, got["calls"], m)
		}
	}
	caches := shown["caches"].(map[string]any)
	for _, cache := range []string{"reverse_imports", "reverse_refs"} {
		got, _ := caches[cache].(map[string]any)
		hits := counter(fams, "cairn_cache_requests_total", func(l map[string]string) bool { return l["cache"] == cache && l["result"] == "hit" })
		misses := counter(fams, "cairn_cache_requests_total", func(l map[string]string) bool { return l["cache"] == cache && l["result"] == "miss" })
		if got == nil || got["hits"] != hits || got["misses"] != misses || misses < 1 || hits < 1 {
			t.Errorf("cache %s: the dashboard shows %v, /metrics %v hits and %v misses", cache, got, hits, misses)
		}
	}
	if shown["index_state"] != "ready" || shown["task_mutations"] != "1/5" {
		t.Errorf("index %v, task mutations %v", shown["index_state"], shown["task_mutations"])
	}
}

// TestOpenAPIClient validates the OpenAPI document, generates TypeScript
// types from it, and type-checks and runs a small client that calls search.
func TestOpenAPIClient(t *testing.T) {
	node(t)
	bin := cairn(t)
	testenv.Isolate(t)
	repo := testenv.Repo(t, testenv.Demo)
	s := startUpIn(t, bin, repo, filepath.Join(t.TempDir(), "state"))
	code, doc := s.get(t, "/api/v1/openapi.json")
	if code != 200 {
		t.Fatalf("openapi.json: %d %s", code, doc)
	}
	work := t.TempDir()
	docPath := filepath.Join(work, "openapi.json")
	os.WriteFile(docPath, doc, 0o644)
	// The first search may wait for the first index.
	for i := 0; i < 100; i++ {
		if st, _ := s.rest(t, "search", `{"query": "NewServer"}`, ""); st == 200 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	seen := runNode(t, []string{"CAIRN_URL=" + s.base(), "CAIRN_TOKEN=" + s.token}, "openapi.mjs", docPath, work)
	client := seen["client"].(map[string]any)
	if seen["openapi"] != "3.1.0" || !strings.Contains(fmt.Sprint(client["paths"]), "server/server.go") {
		t.Errorf("openapi.mjs saw %v", seen)
	}
}

// upDemo starts `cairn up` over the demo repository with its state in a
// directory of its own (a restart may reuse it).
func upDemo(t *testing.T) (bin, repo, state string, s *upServer) {
	t.Helper()
	bin = cairn(t)
	testenv.Isolate(t)
	repo = testenv.Repo(t, testenv.Demo)
	state = filepath.Join(t.TempDir(), "state")
	return bin, repo, state, startUpIn(t, bin, repo, state)
}

// TestRestartInterruptsTasks kills a server with an open task (kill -9: no
// shutdown runs) and starts another on the same state: the task is closed
// as interrupted, the ledger passes its integrity check, the index answers.
func TestRestartInterruptsTasks(t *testing.T) {
	bin, repo, state, s := upDemo(t)
	code, env := s.rest(t, "task_open", `{"max_mutations": 3}`, "")
	if code != 200 {
		t.Fatalf("task_open: %d %v", code, env)
	}
	id := env["meta"].(map[string]any)["task_id"].(string)
	if code, env := s.rest(t, "write_source", `{"edits": [{"path": "wip.go", "action": "create", "content": "package main\n\nvar wip = 1\n"}]}`, id); code != 200 {
		t.Fatalf("write: %d %v", code, env)
	}
	if code, _ := s.rest(t, "task_status", `{}`, id); code != 200 {
		t.Fatalf("task_status: %d", code)
	}
	s.cmd.Process.Signal(syscall.SIGKILL)
	s.cmd.Wait()

	if ok, why := ledger.Check(ledger.Path(state)); !ok {
		t.Fatalf("the ledger of the killed server fails its check: %s", why)
	}
	row, found, err := ledger.ReadTask(context.Background(), ledger.Path(state), id)
	if err != nil || !found || row.State != ledger.StateOpen {
		t.Fatalf("before the restart the task is %+v (%v, %v)", row, found, err)
	}

	s2 := startUpIn(t, bin, repo, state)
	code, env = s2.rest(t, "task_status", fmt.Sprintf(`{"task_id": %q}`, id), "")
	if code != 200 {
		t.Fatalf("task_status after restart: %d %v", code, env)
	}
	tk := env["data"].(map[string]any)["task"].(map[string]any)
	if tk["state"] != "closed_interrupted" || tk["counters"].(map[string]any)["mutations"] != 1.0 {
		t.Errorf("after the restart the task is %v", tk)
	}
	if code, env := s2.rest(t, "search", `{"query": "wip"}`, id); code != 404 && code != 409 {
		t.Errorf("a call in the interrupted task: %d %v", code, env["error"])
	}
	var found2 bool
	for i := 0; i < 100 && !found2; i++ {
		code, env := s2.rest(t, "search", `{"query": "wip"}`, "")
		found2 = code == 200 && strings.Contains(fmt.Sprint(env["data"]), "wip.go")
		time.Sleep(50 * time.Millisecond)
	}
	if !found2 {
		t.Errorf("the restarted index does not find the write made before the kill")
	}
	if code, body := s2.get(t, "/ready"); code != 200 {
		t.Errorf("/ready after restart: %d %s", code, body)
	}
	s2.stop()
	if ok, why := ledger.Check(ledger.Path(state)); !ok {
		t.Errorf("the ledger fails its check after a clean stop: %s", why)
	}
}

// TestStatusFollow: `cairn status --follow` prints the status of a running
// server, then each call as the server logs it, with its request id, until
// interrupted.
func TestStatusFollow(t *testing.T) {
	bin, repo, state, s := upDemo(t)
	for i := 0; ; i++ {
		if code, _ := s.get(t, "/ready"); code == 200 {
			break
		} else if i == 300 {
			t.Fatalf("/ready: %d", code)
		}
		time.Sleep(100 * time.Millisecond)
	}

	follow := exec.Command(bin, "status", "--follow", "--repo", repo, "--state-dir", state)
	var out syncBuffer
	follow.Stdout, follow.Stderr = &out, &out
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	defer follow.Process.Kill()
	waitFor := func(what string, ok func(string) bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if ok(out.String()) {
				return
			}
		}
		t.Fatalf("status --follow never printed %s:\n%s", what, out.String())
	}
	waitFor("the status and the log it follows", func(s string) bool {
		return strings.Contains(s, "index:      ready") && strings.Contains(s, "following "+filepath.Join(state, "logs", "cairn.log"))
	})
	code, env := s.rest(t, "search", `{"query": "NewServer"}`, "")
	if code != 200 {
		t.Fatalf("search: %d %v", code, env)
	}
	id := env["meta"].(map[string]any)["request_id"].(string)
	waitFor("the search's log line", func(s string) bool {
		for _, line := range strings.Split(s, "\n") {
			if strings.Contains(line, "INFO") && strings.Contains(line, "tool=search") && strings.Contains(line, "request_id="+id) {
				return true
			}
		}
		return false
	})
	follow.Process.Signal(os.Interrupt)
	waitExit(t, follow, "status --follow after Ctrl+C", &out)
}
