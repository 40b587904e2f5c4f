package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

// tcall makes one tool call and decodes the envelope.
func tcall(t *testing.T, cs *mcp.ClientSession, name string, args any) (map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var env map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &env); err != nil {
		t.Fatal(err)
	}
	return env, res.IsError
}

func metaTask(env map[string]any) (string, map[string]any) {
	meta := env["meta"].(map[string]any)
	id, _ := meta["task_id"].(string)
	counters, _ := meta["task"].(map[string]any)
	return id, counters
}

// taskOps are the ledger's operations of a task, newest first, once the
// ledger has written what it holds.
func taskOps(t *testing.T, svc *service.Service, id string) []ledger.Operation {
	t.Helper()
	l := svc.Monitor().Ledger()
	l.Flush()
	ops, err := l.Operations(context.Background(), ledger.Filter{TaskID: id})
	if err != nil {
		t.Fatal(err)
	}
	return ops
}

func warnings(env map[string]any) string {
	b, _ := json.Marshal(env["provenance"].(map[string]any)["warnings"])
	return string(b)
}

// TestTaskConvergence is the loop of an agent that spins: it writes a fix,
// the same test fails, it writes the same fix again, the same test fails
// again. Both repeats are flagged as no progress, and the budget refuses the
// next mutation. The failing runs are recorded with task_status test_run
// (the client ran the tests itself).
func TestTaskConvergence(t *testing.T) {
	cs, svc := session(t, config.Default(), nil)
	other, _ := session(t, config.Default(), nil)

	env, isErr := tcall(t, cs, "task_open", map[string]any{"max_mutations": 2, "max_test_runs": 5})
	if isErr {
		t.Fatalf("task_open: %v", env["error"])
	}
	id, counters := metaTask(env)
	if !strings.HasPrefix(id, "task_") || counters["max_mutations"] != 2.0 || counters["state"] != "open" {
		t.Fatalf("task_open meta = %v %v", id, counters)
	}
	write := map[string]any{"edits": []any{map[string]any{"path": "server/server.go", "action": "update", "content": "package server\n\nvar fixed = true\n"}}}
	failing := map[string]any{"test_run": map[string]any{"failures": []any{map[string]any{"test": "demo.TestServe", "message": "got false at 0xc000012345, want true (0.01s)"}}}}
	again := map[string]any{"test_run": map[string]any{"failures": []any{map[string]any{"test": "demo.TestServe", "message": "got false at 0xc000099999, want true (0.02s)"}}}}

	steps := []struct {
		tool        string
		args        any
		mutations   float64
		runs        float64
		noProgress  float64
		wantWarning string
	}{
		{"write_source", write, 1, 0, 0, ""},
		{"task_status", failing, 1, 1, 0, ""},
		{"write_source", write, 2, 1, 1, "leaves the files exactly as the previous mutation"},
		{"task_status", again, 2, 2, 2, "the same tests fail with the same messages"},
	}
	for i, s := range steps {
		env, isErr := tcall(t, cs, s.tool, s.args)
		if isErr {
			t.Fatalf("step %d %s: %v", i, s.tool, env["error"])
		}
		gotID, c := metaTask(env)
		if gotID != id || c["mutations"] != s.mutations || c["test_runs"] != s.runs || c["no_progress"] != s.noProgress {
			t.Errorf("step %d %s: meta %s %v, want %v mutations, %v runs, %v no progress", i, s.tool, gotID, c, s.mutations, s.runs, s.noProgress)
		}
		if w := warnings(env); (s.wantWarning == "") != !strings.Contains(w, "no progress") || !strings.Contains(w, s.wantWarning) {
			t.Errorf("step %d %s: warnings %s, want %q", i, s.tool, w, s.wantWarning)
		}
	}

	// The third mutation is over the budget: refused, nothing written.
	refused := map[string]any{"edits": []any{map[string]any{"path": "other.go", "action": "create", "content": "package main\n"}}}
	env, isErr = tcall(t, cs, "write_source", refused)
	e, _ := env["error"].(map[string]any)
	if !isErr || e["code"] != "TASK_BUDGET_EXCEEDED" || e["code_num"] != 7003.0 || e["details"].(map[string]any)["budget"] != "max_mutations" {
		t.Fatalf("third mutation: %v", env["error"])
	}
	if _, c := metaTask(env); c["refused"] != 1.0 || c["mutations"] != 2.0 {
		t.Errorf("after the refusal: %v", c)
	}
	// Reads go on inside the spent task; a dry run is not a mutation.
	if env, isErr := tcall(t, cs, "search", map[string]any{"query": "fixed"}); isErr {
		t.Errorf("search in a spent task: %v", env["error"])
	}
	if env, isErr := tcall(t, cs, "write_source", map[string]any{"edits": refused["edits"], "dry_run": true}); isErr {
		t.Errorf("dry run in a spent task: %v", env["error"])
	}
	// The other connection is in no task.
	if env, _ := tcall(t, other, "status", nil); env["meta"].(map[string]any)["task_id"] != nil {
		t.Errorf("another connection sees the task: %v", env["meta"])
	}

	env, isErr = tcall(t, cs, "task_close", map[string]any{"outcome": "failed"})
	if isErr || env["data"].(map[string]any)["task"].(map[string]any)["state"] != "closed_failed" {
		t.Fatalf("task_close: %v", env)
	}
	if env, _ := tcall(t, cs, "status", nil); env["meta"].(map[string]any)["task_id"] != nil {
		t.Errorf("a call after task_close is still in the task: %v", env["meta"])
	}
	if env, isErr := tcall(t, cs, "write_source", refused); isErr {
		t.Errorf("a write outside any task: %v", env["error"])
	}

	// The ledger has the story.
	ops := taskOps(t, svc, id)
	var story []string
	for i := len(ops) - 1; i >= 0; i-- {
		op := ops[i]
		s := op.Type
		if op.NoProgress != "" {
			s += ":" + op.NoProgress
		}
		if op.LimitTriggered != "" {
			s += ":" + op.LimitTriggered
		}
		story = append(story, s)
	}
	want := "task_open write_source task_status write_source:repeated_mutation task_status:repeated_failure write_source:max_mutations search write_source task_close"
	if got := strings.Join(story, " "); got != want {
		t.Errorf("ledger:\n got %s\nwant %s", got, want)
	}
	if ops[len(ops)-2].MutationFP == "" || ops[len(ops)-2].ChangedPaths[0] != "server/server.go" {
		t.Errorf("the first write's row lacks its fingerprint or paths: %+v", ops[len(ops)-2])
	}
	row, ok, _ := svc.Monitor().Ledger().Task(context.Background(), id)
	if !ok || row.State != ledger.StateFailed || row.LastMutFP == "" || row.LastFailFP == "" {
		t.Errorf("task row = %+v", row)
	}
}

// TestTaskReadBudget: a task's whole-file budget refuses a read that does
// not fit before any content is returned; reset_budget resets the session
// budget, not the task's.
func TestTaskReadBudget(t *testing.T) {
	cs, _ := session(t, config.Default(), nil)
	if env, isErr := tcall(t, cs, "task_open", map[string]any{"max_read_bytes": 100}); isErr {
		t.Fatal(env["error"])
	}
	env, isErr := tcall(t, cs, "read_file_full", map[string]any{"path": "go.mod", "confirm": true})
	if isErr {
		t.Fatalf("first read: %v", env["error"])
	}
	_, c := metaTask(env)
	if c["read_bytes"].(float64) <= 0 {
		t.Errorf("read not counted: %v", c)
	}
	env, isErr = tcall(t, cs, "read_file_full", map[string]any{"path": "main.go", "confirm": true})
	if e, _ := env["error"].(map[string]any); !isErr || e["code"] != "TASK_BUDGET_EXCEEDED" {
		t.Fatalf("second read: %v", env["error"])
	}
	env, isErr = tcall(t, cs, "reset_budget", nil)
	if isErr || env["data"].(map[string]any)["before"].(map[string]any)["used"].(float64) <= 0 {
		t.Fatalf("reset_budget: %v", env)
	}
	if _, isErr := tcall(t, cs, "read_file_full", map[string]any{"path": "main.go", "confirm": true}); !isErr {
		t.Errorf("reset_budget reset the task's budget")
	}
}

// TestTaskCountsEveryMutation: each tool that writes the tree spends the
// task's mutation budget and leaves its delta in the ledger — write_source,
// edit_undo, refactor_apply and a refactor planner asked to apply at once —
// while planning, inspecting and dry runs spend nothing.
func TestTaskCountsEveryMutation(t *testing.T) {
	cs, svc := session(t, config.Default(), nil)
	env, isErr := tcall(t, cs, "task_open", map[string]any{"max_mutations": 4})
	if isErr {
		t.Fatalf("task_open: %v", env["error"])
	}
	id, _ := metaTask(env)
	verifyNone := map[string]any{"verify": "none"}
	plan := func(symbol, newName string, apply bool) map[string]any {
		args := map[string]any{"symbol": symbol, "new_name": newName, "verify": "none"}
		if apply {
			args["apply"] = true
		}
		env, isErr := tcall(t, cs, "refactor_rename", args)
		if isErr {
			t.Fatalf("refactor_rename %s: %v", newName, env["error"])
		}
		return env
	}
	steps := []struct {
		tool      string
		args      func() map[string]any
		mutations float64
	}{
		{"write_source", func() map[string]any {
			return map[string]any{"edits": []any{map[string]any{"path": "notes.txt", "action": "create", "content": "one\n"}}}
		}, 1},
		{"edit_undo", func() map[string]any { return map[string]any{} }, 2},
		{"refactor_apply", func() map[string]any {
			p := plan("server.NewServer", "Make", false) // a plan alone writes nothing
			if _, c := metaTask(p); c["mutations"] != 2.0 {
				t.Errorf("refactor_rename without apply counted: %v", c)
			}
			args := map[string]any{"refactor_id": p["data"].(map[string]any)["refactor_id"], "dry_run": true}
			for k, v := range verifyNone {
				args[k] = v
			}
			if env, isErr := tcall(t, cs, "refactor_apply", args); isErr {
				t.Fatalf("dry run: %v", env["error"])
			} else if _, c := metaTask(env); c["mutations"] != 2.0 {
				t.Errorf("a dry run of refactor_apply counted: %v", c)
			}
			delete(args, "dry_run")
			return args
		}, 3},
	}
	for i, s := range steps {
		env, isErr := tcall(t, cs, s.tool, s.args())
		if isErr {
			t.Fatalf("step %d %s: %v", i, s.tool, env["error"])
		}
		if _, c := metaTask(env); c["mutations"] != s.mutations {
			t.Errorf("step %d %s: %v mutations, want %v", i, s.tool, c["mutations"], s.mutations)
		}
	}
	if _, c := metaTask(plan("server.Make", "Build", true)); c["mutations"] != 4.0 {
		t.Errorf("refactor_rename apply: true: %v mutations, want 4", c["mutations"])
	}
	env, isErr = tcall(t, cs, "edit_undo", map[string]any{})
	if e, _ := env["error"].(map[string]any); !isErr || e["code"] != "TASK_BUDGET_EXCEEDED" {
		t.Fatalf("a fifth mutation: %v", env["error"])
	}

	ops := taskOps(t, svc, id)
	changed := map[string][]string{}
	for _, op := range ops {
		if op.MutationFP != "" {
			changed[op.Type] = append(changed[op.Type], strings.Join(op.ChangedPaths, ","))
		}
	}
	want := map[string][]string{
		"write_source":    {"notes.txt"},
		"edit_undo":       {"notes.txt"},
		"refactor_apply":  {"main.go,server/server.go"},
		"refactor_rename": {"main.go,server/server.go"},
	}
	for tool, paths := range want {
		if got := changed[tool]; strings.Join(got, " ") != strings.Join(paths, " ") {
			t.Errorf("ledger rows of %s with a delta: %q, want %q", tool, got, paths)
		}
	}
}

// TestSavingsPerClient: what a connection saved is summed for it, under the
// name it gave in initialize, in status and in /metrics's token counters.
func TestSavingsPerClient(t *testing.T) {
	files := maps.Clone(testenv.Demo)
	var b strings.Builder
	b.WriteString("package server\n")
	for i := range 80 {
		fmt.Fprintf(&b, "\n// Handle%d serves route %d of the Server.\nfunc Handle%d(s *Server) string {\n\treturn s.Addr + \"/r/%d\"\n}\n", i, i, i, i)
	}
	files["server/routes.go"] = b.String()
	cs, svc := sessionOn(t, files, config.Default(), nil)
	saved := 0.0
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"symbol_get", map[string]any{"symbol": "server.Handle40"}},
		{"refs_find", map[string]any{"symbol": "server.Server"}},
		{"search", map[string]any{"query": "Handle7"}},
	} {
		env, isErr := tcall(t, cs, c.tool, c.args)
		if isErr {
			t.Fatalf("%s: %v", c.tool, env["error"])
		}
		saved += env["meta"].(map[string]any)["tokens_saved"].(float64)
	}
	if saved <= 0 {
		t.Fatalf("the calls saved nothing: the test shows nothing")
	}
	env, _ := tcall(t, cs, "status", nil)
	sv := env["data"].(map[string]any)["savings"].(map[string]any)
	clients := sv["clients"].([]any)
	if len(clients) != 1 {
		t.Fatalf("status lists %d clients: %v", len(clients), clients)
	}
	cl := clients[0].(map[string]any)
	if cl["name"] != "cairn-test" || cl["tokens_saved"] != saved || cl["calls"] != 3.0 {
		t.Errorf("status's client = %v, want cairn-test with %v tokens saved over 3 calls", cl, saved)
	}
	if repo := sv["repository"].(map[string]any); repo["tokens_saved"] != saved {
		t.Errorf("repository savings %v, want %v", repo["tokens_saved"], saved)
	}

	fams, err := svc.Monitor().Metrics().Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	byClient := map[string]float64{}
	for _, f := range fams {
		if f.GetName() != "cairn_tokens_saved_total" {
			continue
		}
		for _, m := range f.Metric {
			for _, l := range m.Label {
				if l.GetName() == "client" {
					byClient[l.GetValue()] += m.GetCounter().GetValue()
				}
			}
		}
	}
	if byClient["cairn-test"] != saved || len(byClient) != 1 {
		t.Errorf("cairn_tokens_saved_total by client = %v, want cairn-test: %v", byClient, saved)
	}
}

// TestTaskConvergenceWithTestRun is the spinning loop with the test_run
// tool itself: the same fix written twice and the same test failing after
// each are both flagged as no progress, and the budget refuses the next
// mutation.
func TestTaskConvergenceWithTestRun(t *testing.T) {
	files := map[string]string{
		"go.mod":       "module example.com/conv\n\ngo 1.22\n",
		"calc.go":      "package conv\n\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n",
		"calc_test.go": "package conv\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 2); got != 4 {\n\t\tt.Fatalf(\"Add(2, 2) = %d, want 4\", got)\n\t}\n}\n",
	}
	// The runs use the machine's build cache (the isolated home would
	// start an empty one and build the standard library first).
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := sessionOn(t, files, config.Default(), nil)
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	if env, isErr := tcall(t, cs, "task_open", map[string]any{"max_mutations": 2, "max_test_runs": 5}); isErr {
		t.Fatalf("task_open: %v", env["error"])
	}
	fix := map[string]any{"edits": []any{map[string]any{"path": "calc.go", "action": "update",
		"content": "package conv\n\n// Add adds.\nfunc Add(a, b int) int { return a - b + 1 }\n"}}}
	steps := []struct {
		tool       string
		args       any
		noProgress float64
		warning    string
	}{
		{"write_source", fix, 0, ""},
		{"test_run", map[string]any{}, 0, ""},
		{"write_source", fix, 1, "leaves the files exactly as the previous mutation"},
		{"test_run", map[string]any{}, 2, "the same tests fail with the same messages"},
	}
	for i, s := range steps {
		env, isErr := tcall(t, cs, s.tool, s.args)
		if isErr {
			t.Fatalf("step %d %s: %v", i, s.tool, env["error"])
		}
		if s.tool == "test_run" && env["data"].(map[string]any)["status"] != "failed" {
			t.Fatalf("step %d: the test did not fail: %v", i, env["data"])
		}
		_, c := metaTask(env)
		if c["no_progress"] != s.noProgress {
			t.Errorf("step %d %s: no_progress %v, want %v (%v)", i, s.tool, c["no_progress"], s.noProgress, c)
		}
		if w := warnings(env); (s.warning == "") != !strings.Contains(w, "no progress") || !strings.Contains(w, s.warning) {
			t.Errorf("step %d %s: warnings %s, want %q", i, s.tool, w, s.warning)
		}
	}
	env, isErr := tcall(t, cs, "write_source", fix)
	if e, _ := env["error"].(map[string]any); !isErr || e["code"] != "TASK_BUDGET_EXCEEDED" {
		t.Fatalf("a third mutation: %v", env["error"])
	}
}
