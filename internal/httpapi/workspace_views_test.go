package httpapi_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

const auditGo = `package audit

import (
	"os"

	"example.com/demo/server"
)

// Record starts a server for the audit log.
func Record() *server.Server {
	return server.NewServer(os.Getenv("AUDIT_ADDR"))
}
`

const auditTestGo = `package audit

import "testing"

func TestRecord(t *testing.T) { Record() }
`

const mainA = `package main

import (
	"example.com/demo/audit"
	"example.com/demo/server"
)

// main starts the demo server.
func main() {
	s := server.NewServer(":8080")
	s.Start()
	audit.Record()
}
`

const mainB = `package main

import "example.com/demo/server"

// main starts the demo server.
func main() {
	s := server.NewServer(":8080")
	s.Start()
	spare()
}

// spare is agent-b's.
func spare() { server.NewServer(":9090") }
`

// mentions reports whether a tool's data mentions s anywhere.
func mentions(d map[string]any, s string) bool {
	b, _ := json.Marshal(d)
	return strings.Contains(string(b), s)
}

// Every read tool answers through a workspace: agent-a adds a package
// (a function, its test and a configuration key) and calls it from main;
// agent-b edits main differently. Each sees its own changes in the
// call graph, impact, trace, files, map, importers, architecture, surfaces,
// semantic diff and affected tests; the committed view sees neither, and
// what the change engine caches per epoch never mixes with an overlay's
// answers, in either order.
func TestEveryReadToolReadsThroughWorkspaces(t *testing.T) {
	testenv.Isolate(t)
	root := testenv.Repo(t, files())
	ts, svc := wsServer(t, root, filepath.Join(t.TempDir(), "state"))
	c := wsClient{t, ts}
	for _, id := range []string{"agent-a", "agent-b"} {
		c.ok("workspace_create", map[string]any{"workspace_id": id})
	}
	mainSum := c.ok("read_source", map[string]any{"path": "main.go"})["file_sha256"]
	c.ok("write_source", map[string]any{"workspace_id": "agent-a", "edits": []map[string]any{
		{"path": "audit/audit.go", "action": "create", "content": auditGo},
		{"path": "audit/audit_test.go", "action": "create", "content": auditTestGo},
		{"path": "main.go", "action": "update", "expected_sha256": mainSum, "content": mainA}}})
	c.ok("write_source", map[string]any{"workspace_id": "agent-b", "edits": []map[string]any{
		{"path": "main.go", "action": "update", "expected_sha256": mainSum, "content": mainB}}})

	a := map[string]any{"workspace_id": "agent-a"}
	b := map[string]any{"workspace_id": "agent-b", "consistency": "workspace"}
	// each check: a tool's call, what agent-a's view mentions and the
	// others do not
	checks := []struct {
		tool string
		args []any
		want string
	}{
		{"graph_callees", []any{"symbol", "example.com/demo.main", "depth", 2}, "example.com/demo/audit.Record"},
		{"graph_callers", []any{"symbol", "server.NewServer", "depth", 1}, "audit/audit.go"},
		{"trace_feature", []any{"symbol", "example.com/demo.main"}, "example.com/demo/audit.Record"},
		{"impact_analyze", []any{"symbol", "server.NewServer"}, "audit/audit.go"},
		{"list_files", []any{"depth", 3}, "audit/audit.go"},
		{"map_repo", []any{"include", []string{"structure"}, "depth", 3}, "audit"},
		{"architecture", []any{"depth", 2}, "audit"},
		{"importers", []any{"target", "server"}, "audit/audit.go"},
		{"surfaces_list", []any{"kind", "config_keys"}, "AUDIT_ADDR"},
		{"semantic_diff", nil, "audit/audit.go"},
		{"affected_tests", []any{"files", []string{"server/server.go"}}, "audit/audit_test.go"},
		{"type_hierarchy", []any{"symbol", "server.Server"}, ""},
	}
	run := func(name string, view map[string]any, tool string, args []any) (map[string]any, reply) {
		t.Helper()
		r := c.call(tool, with(view, args...))
		if r.status != 200 {
			t.Fatalf("%s: %s: %d %v", name, tool, r.status, r.body["error"])
		}
		if m := meta(r); view != nil && (m["consistency"] != "workspace" || m["workspace_id"] != view["workspace_id"]) {
			t.Errorf("%s: %s: meta %v", name, tool, m)
		}
		d, _ := r.body["data"].(map[string]any)
		return d, r
	}
	check := func(round string) {
		t.Helper()
		for _, ck := range checks {
			da, _ := run(round+" agent-a", a, ck.tool, ck.args)
			db, _ := run(round+" agent-b", b, ck.tool, ck.args)
			dc, _ := run(round+" committed", nil, ck.tool, ck.args)
			if ck.want == "" {
				continue
			}
			if !mentions(da, ck.want) {
				t.Errorf("%s: %s in agent-a does not mention %s: %v", round, ck.tool, ck.want, da)
			}
			if mentions(db, ck.want) || mentions(dc, ck.want) {
				t.Errorf("%s: %s mentions %s outside agent-a:\nagent-b %v\ncommitted %v", round, ck.tool, ck.want, db, dc)
			}
		}
	}
	check("first") // the overlay's answers come before anything is cached
	check("again") // now the caches hold the committed views

	// agent-b's own edit: its new function calls NewServer
	d, _ := run("agent-b", b, "graph_callees", []any{"symbol", "example.com/demo.spare", "depth", 1})
	if !mentions(d, "example.com/demo/server.NewServer") {
		t.Errorf("callees of spare in agent-b: %v", d)
	}
	for _, view := range []map[string]any{a, nil} {
		if r := c.call("graph_callees", with(view, "symbol", "example.com/demo.spare")); r.status != 404 {
			t.Errorf("spare outside agent-b (%v): %d", view, r.status)
		}
	}
	// a whole file through the overlay, and a file only the overlay has
	full := c.ok("read_file_full", with(a, "path", "audit/audit.go", "confirm", true))
	if full["content"] != auditGo {
		t.Errorf("read_file_full in agent-a: %v", full)
	}
	if r := c.call("read_file_full", map[string]any{"path": "audit/audit.go"}); r.status != 404 {
		t.Errorf("read_file_full committed: %d", r.status)
	}
	// importers of the new package: main.go, in agent-a alone
	imp := c.ok("importers", with(a, "target", "audit"))
	if !mentions(imp, `"main.go"`) {
		t.Errorf("importers of audit in agent-a: %v", imp)
	}
	if r := c.call("importers", map[string]any{"target": "audit"}); r.status == 200 && mentions(r.body["data"].(map[string]any), "main.go") {
		t.Errorf("importers of audit committed: %v", r.body["data"])
	}

	// the change engine's per-epoch views were built for the committed
	// calls only: every overlay call built its own
	for _, st := range svc.Env().Changes.Stats() {
		if st.Misses > 1 {
			t.Errorf("%s: %d misses on one epoch: an overlay's view went into the cache", st.Name, st.Misses)
		}
	}

	// the tools that cannot read through an overlay say why
	for _, tool := range []string{"hotspots", "git_status", "card_list", "test_discover", "status"} {
		r := c.call(tool, map[string]any{"consistency": "workspace", "workspace_id": "agent-a"})
		if r.status != 400 || errCode(r) != "INVALID_ARGUMENT" {
			t.Errorf("%s through a workspace: %d %v", tool, r.status, r.body["error"])
		}
	}
	// and every read tool takes the consistency arguments
	for _, tl := range tools.All() {
		if tl.Group == "read" && tl.Name != "hotspots" && !strings.HasPrefix(tl.Consistency(), "committed (default), workspace") {
			t.Errorf("read tool %s does not answer through workspaces: %s", tl.Name, tl.Consistency())
		}
	}
}
