package httpapi_test

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/httpapi"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

// wsServer serves a repository with its state in stateDir (a second call on
// the same directories is the server after a restart).
func wsServer(t *testing.T, root, stateDir string) (*httptest.Server, *service.Service) {
	t.Helper()
	cfg, err := config.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	svc := testenv.OpenIn(t, root, stateDir, cfg, service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	return newServer(t, httpapi.New(svc, httpapi.Options{Token: token, Version: "test"})), svc
}

type wsClient struct {
	t  *testing.T
	ts *httptest.Server
}

func (c wsClient) call(tool string, args map[string]any) reply {
	c.t.Helper()
	b, _ := json.Marshal(args)
	return do(c.t, c.ts, "POST", "/api/v1/tools/"+tool, string(b), auth())
}

// ok calls a tool that must succeed and returns its data.
func (c wsClient) ok(tool string, args map[string]any) map[string]any {
	c.t.Helper()
	r := c.call(tool, args)
	if r.status != 200 {
		c.t.Fatalf("%s %v: %d %v", tool, args, r.status, r.body["error"])
	}
	d, _ := r.body["data"].(map[string]any)
	return d
}

// text reads a whole file through a view (nil: committed).
func (c wsClient) text(path string, view map[string]any) string {
	c.t.Helper()
	args := map[string]any{"path": path}
	for k, v := range view {
		args[k] = v
	}
	d := c.ok("read_source", args)
	var lines []string
	for _, l := range d["lines"].([]any) {
		lines = append(lines, l.(map[string]any)["text"].(string))
	}
	return strings.Join(lines, "\n")
}

// with is a view's arguments with more arguments (key, value, ...).
func with(view map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range view {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func hitCount(d map[string]any) int {
	hits, _ := d["results"].([]any)
	return len(hits)
}

func meta(r reply) map[string]any { m, _ := r.body["meta"].(map[string]any); return m }

const serverPath = "server/server.go"

// Two agents edit the same file differently in two workspaces: each sees
// only its own edit (read_source, lexical and symbol search, symbol cards,
// references), the committed view and the disk see neither; applying one
// lands it, the other's apply then conflicts; the overlays survive a
// restart of the server.
func TestWorkspacesIsolateAgents(t *testing.T) {
	testenv.Isolate(t)
	root := testenv.Repo(t, files())
	stateDir := filepath.Join(t.TempDir(), "state")
	ts, svc := wsServer(t, root, stateDir)
	c := wsClient{t, ts}
	onDisk := func() string {
		b, err := os.ReadFile(filepath.Join(root, serverPath))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	original := onDisk()

	for _, id := range []string{"agent-a", "agent-b"} {
		if d := c.ok("workspace_create", map[string]any{"workspace_id": id}); d["created"] != true {
			t.Fatalf("create %s: %v", id, d)
		}
	}
	if d := c.ok("workspace_create", map[string]any{"workspace_id": "agent-a"}); d["created"] == true {
		t.Errorf("creating an existing workspace again made a new one: %v", d)
	}
	sum := c.ok("read_source", map[string]any{"path": serverPath})["file_sha256"]
	edit := func(id, fn string) {
		t.Helper()
		r := c.call("write_source", map[string]any{"workspace_id": id, "edits": []map[string]any{{
			"path": serverPath, "action": "update", "expected_sha256": sum,
			"spans": []map[string]any{{"start_line": 8, "expected": "// NewServer makes a Server listening on addr.",
				"new_text": "// " + fn + " is " + id + "'s.\nfunc " + fn + "() {}\n\n// NewServer makes a Server listening on addr (" + id + ")."}}}}})
		if r.status != 200 {
			t.Fatalf("write into %s: %d %v", id, r.status, r.body["error"])
		}
		files, _ := r.body["data"].(map[string]any)["files"].([]any)
		if len(files) != 1 || files[0].(map[string]any)["lines_added"].(float64) != 4 {
			t.Errorf("write into %s: delta %v", id, r.body["data"])
		}
		if m := meta(r); m["workspace_id"] != id || m["consistency"] != "workspace" {
			t.Errorf("write into %s: meta %v", id, m)
		}
	}
	edit("agent-a", "AlphaOnly")
	edit("agent-b", "BetaOnly")
	// agent-a also calls its function from main.go: a use site in an overlay file
	mainSum := c.ok("read_source", map[string]any{"path": "main.go"})["file_sha256"]
	c.ok("write_source", map[string]any{"workspace_id": "agent-a", "edits": []map[string]any{{
		"path": "main.go", "action": "update", "expected_sha256": mainSum,
		"spans": []map[string]any{{"start_line": 8, "expected": "\ts.Start()", "new_text": "\ts.Start()\n\tserver.AlphaOnly()"}}}}})
	if onDisk() != original {
		t.Fatalf("a workspace write changed the file on disk")
	}

	a := map[string]any{"workspace_id": "agent-a"}
	b := map[string]any{"workspace_id": "agent-b", "consistency": "workspace"}
	views := []struct {
		name       string
		view       map[string]any
		sees, not  []string
		consistent string
	}{
		{"agent-a", a, []string{"AlphaOnly"}, []string{"BetaOnly"}, "workspace"},
		{"agent-b", b, []string{"BetaOnly"}, []string{"AlphaOnly"}, "workspace"},
		{"committed", nil, nil, []string{"AlphaOnly", "BetaOnly"}, "committed"},
	}
	for _, v := range views {
		text := c.text(serverPath, v.view)
		for _, name := range v.sees {
			if !strings.Contains(text, "func "+name+"()") {
				t.Errorf("%s: read_source does not show %s:\n%s", v.name, name, text)
			}
			if n := hitCount(c.ok("search", with(v.view, "query", "func "+name))); n != 1 {
				t.Errorf("%s: lexical search for %s: %d hits, want 1", v.name, name, n)
			}
			d := c.ok("search", with(v.view, "query", name, "mode", "symbol"))
			if n := hitCount(d); n != 1 {
				t.Errorf("%s: symbol search for %s: %d hits, want 1", v.name, name, n)
			}
			card := c.call("symbol_get", with(v.view, "symbol", "server."+name))
			if card.status != 200 || card.body["data"].(map[string]any)["qualified_name"] != "example.com/demo/server."+name {
				t.Errorf("%s: symbol_get server.%s: %d %v", v.name, name, card.status, card.body["error"])
			}
		}
		for _, name := range v.not {
			if strings.Contains(text, name) {
				t.Errorf("%s: read_source shows %s", v.name, name)
			}
			if n := hitCount(c.ok("search", with(v.view, "query", name))); n != 0 {
				t.Errorf("%s: lexical search for %s: %d hits, want 0", v.name, name, n)
			}
			if n := hitCount(c.ok("search", with(v.view, "query", name, "mode", "symbol"))); n != 0 {
				t.Errorf("%s: symbol search for %s: %d hits, want 0", v.name, name, n)
			}
			if r := c.call("symbol_get", with(v.view, "symbol", "server."+name)); r.status != 404 {
				t.Errorf("%s: symbol_get server.%s: %d, want 404", v.name, name, r.status)
			}
		}
		r := c.call("symbol_get", with(v.view, "symbol", "server.NewServer"))
		doc, _ := r.body["data"].(map[string]any)["doc"].(string)
		if m := meta(r); m["consistency"] != v.consistent {
			t.Errorf("%s: meta.consistency %v, want %s", v.name, m["consistency"], v.consistent)
		}
		if want := "(" + v.name + ")"; v.name != "committed" && !strings.Contains(doc, want) || v.name == "committed" && strings.Contains(doc, "(agent") {
			t.Errorf("%s: NewServer's doc %q", v.name, doc)
		}
	}

	// references: agent-a's new function is called from main.go in its overlay
	refs := c.call("refs_find", with(a, "symbol", "server.AlphaOnly"))
	if refs.status != 200 {
		t.Fatalf("refs_find in agent-a: %d %v", refs.status, refs.body["error"])
	}
	var sites []string
	for _, l := range refs.body["data"].(map[string]any)["locations"].([]any) {
		l := l.(map[string]any)
		sites = append(sites, l["path"].(string)+":"+l["kind"].(string))
	}
	if strings.Join(sites, " ") != "server/server.go:definition main.go:call" && strings.Join(sites, " ") != "main.go:call server/server.go:definition" {
		t.Errorf("refs of AlphaOnly in agent-a: %v", sites)
	}
	if approx, _ := meta(refs)["approximations"].([]any); len(approx) == 0 {
		t.Errorf("refs_find through an overlay states no approximation: %v", meta(refs))
	}
	// go to definition from the call in the overlay's main.go
	at := c.call("symbol_get", with(a, "at", map[string]any{"path": "main.go", "line": 9, "col": 9}))
	if at.status != 200 || at.body["data"].(map[string]any)["qualified_name"] != "example.com/demo/server.AlphaOnly" {
		t.Errorf("symbol_get at main.go:9:9 in agent-a: %d %v %v", at.status, at.body["error"], at.body["answer"])
	}
	if r := c.call("symbol_get", map[string]any{"at": map[string]any{"path": "main.go", "line": 9, "col": 9}}); r.status == 200 {
		t.Errorf("symbol_get at main.go:9:9 committed found %v", r.body["answer"])
	}
	// NewServer's call in main.go is still found from the overlay's main.go
	refs = c.call("refs_find", with(a, "symbol", "server.NewServer"))
	if n := len(refs.body["data"].(map[string]any)["locations"].([]any)); n != 2 {
		t.Errorf("refs of NewServer in agent-a: %d locations, want 2: %v", n, refs.body["data"])
	}

	// the list shows both, neither stale yet
	list := c.ok("workspace_list", nil)
	if ws := list["workspaces"].([]any); len(ws) != 2 {
		t.Fatalf("workspace_list: %v", list)
	}

	// agent-a lands its work; agent-b's apply now conflicts and writes nothing
	applied := c.call("workspace_apply", map[string]any{"workspace_id": "agent-a"})
	if applied.status != 200 {
		t.Fatalf("apply agent-a: %d %v", applied.status, applied.body["error"])
	}
	landed := onDisk()
	if !strings.Contains(landed, "func AlphaOnly()") || strings.Contains(landed, "BetaOnly") {
		t.Fatalf("after applying agent-a the file holds:\n%s", landed)
	}
	if ws := applied.body["data"].(map[string]any)["workspace"].(map[string]any); len(ws["files"].([]any)) != 0 {
		t.Errorf("agent-a's overlay is not empty after apply: %v", ws)
	}
	if n := hitCount(c.ok("search", map[string]any{"query": "AlphaOnly", "mode": "symbol"})); n != 1 {
		t.Errorf("committed symbol search after apply: %d hits", n)
	}
	conflict := c.call("workspace_apply", map[string]any{"workspace_id": "agent-b"})
	if conflict.status != 409 || errCode(conflict) != "CONFLICT" {
		t.Fatalf("apply agent-b after agent-a: %d %v", conflict.status, conflict.body["error"])
	}
	if onDisk() != landed {
		t.Fatalf("a refused apply changed the file")
	}

	// a restart keeps agent-b's overlay, and says its file changed underneath
	svc.Close()
	ts.Close()
	ts, _ = wsServer(t, root, stateDir)
	c = wsClient{t, ts}
	list = c.ok("workspace_list", nil)
	ws := list["workspaces"].([]any)
	if len(ws) != 2 {
		t.Fatalf("after restart: %v", list)
	}
	bws := ws[1].(map[string]any)
	if bws["workspace_id"] != "agent-b" || len(bws["files"].([]any)) != 1 || len(bws["changed_underneath"].([]any)) != 1 {
		t.Errorf("agent-b after restart: %v", bws)
	}
	if text := c.text(serverPath, b); !strings.Contains(text, "func BetaOnly()") || strings.Contains(text, "AlphaOnly") {
		t.Errorf("agent-b's view after restart:\n%s", text)
	}
	if text := c.text(serverPath, nil); !strings.Contains(text, "AlphaOnly") {
		t.Errorf("committed view after restart:\n%s", text)
	}
	// reset drops the overlay; delete removes the workspace
	if d := c.ok("workspace_reset", map[string]any{"workspace_id": "agent-b"}); d["previous_revision"].(float64) != 1 {
		t.Errorf("reset: %v", d)
	}
	if text := c.text(serverPath, b); !strings.Contains(text, "AlphaOnly") {
		t.Errorf("agent-b after reset does not see the tree:\n%s", text)
	}
	if d := c.ok("workspace_delete", map[string]any{"workspace_id": "agent-b"}); d["deleted"] != true {
		t.Errorf("delete: %v", d)
	}
	if d := c.ok("workspace_delete", map[string]any{"workspace_id": "agent-b"}); d["deleted"] != false {
		t.Errorf("delete again: %v", d)
	}
}

// Ephemeral reads take the request's own files; bad consistency arguments
// are refused with their codes.
func TestWorkspaceViewsRefuseBadInput(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	c := wsClient{t, ts}

	virtual := map[string]any{"path": "server/extra.go", "content": "package server\n\n// Ephemeral exists for one request.\nfunc Ephemeral() {}\n"}
	d := c.ok("search", map[string]any{"query": "Ephemeral", "mode": "symbol", "virtual_files": []any{virtual}})
	if hitCount(d) != 1 {
		t.Errorf("symbol search with a virtual file: %v", d)
	}
	r := c.call("read_source", map[string]any{"path": "server/extra.go", "consistency": "ephemeral", "virtual_files": []any{virtual}})
	if r.status != 200 || meta(r)["consistency"] != "ephemeral" {
		t.Errorf("read of a virtual file: %d %v %v", r.status, r.body["error"], meta(r))
	}
	if r := c.call("read_source", map[string]any{"path": "server/extra.go"}); r.status != 404 {
		t.Errorf("the virtual file outlived its request: %d", r.status)
	}

	for _, tc := range []struct {
		name   string
		tool   string
		args   map[string]any
		status int
		code   string
	}{
		{"unknown workspace", "read_source", map[string]any{"path": "main.go", "workspace_id": "nobody"}, 404, "NOT_FOUND"},
		{"unknown workspace write", "write_source", map[string]any{"workspace_id": "nobody", "edits": []any{map[string]any{"path": "x.go", "action": "create", "content": "package x\n"}}}, 404, "NOT_FOUND"},
		{"unknown workspace apply", "workspace_apply", map[string]any{"workspace_id": "nobody"}, 404, "NOT_FOUND"},
		{"malformed workspace id", "workspace_create", map[string]any{"workspace_id": "../up"}, 400, "INVALID_ARGUMENT"},
		{"workspace without id", "search", map[string]any{"query": "x", "consistency": "workspace"}, 400, "INVALID_ARGUMENT"},
		{"unknown mode", "search", map[string]any{"query": "x", "consistency": "latest"}, 400, "INVALID_ARGUMENT"},
		{"committed with files", "search", map[string]any{"query": "x", "consistency": "committed", "virtual_files": []any{virtual}}, 400, "INVALID_ARGUMENT"},
		{"virtual file outside", "read_source", map[string]any{"path": "main.go", "virtual_files": []any{map[string]any{"path": "../escape.go", "content": "x"}}}, 403, "PATH_OUTSIDE_REPO"},
		{"virtual secret", "search", map[string]any{"query": "K", "virtual_files": []any{map[string]any{"path": ".env", "content": "K=v\n"}}}, 403, "PATH_REFUSED"},
		{"virtual git", "search", map[string]any{"query": "K", "virtual_files": []any{map[string]any{"path": ".git/config", "content": "x"}}}, 403, "PATH_REFUSED"},
		{"tool without views", "hotspots", map[string]any{"consistency": "workspace", "workspace_id": "w"}, 400, "INVALID_ARGUMENT"},
	} {
		r := c.call(tc.tool, tc.args)
		if r.status != tc.status || errCode(r) != tc.code {
			t.Errorf("%s: %d %v, want %d %s", tc.name, r.status, r.body["error"], tc.status, tc.code)
		}
	}
}

// A rename applied into a workspace edits its overlay: the files and the
// committed view keep the old name, the workspace sees the new one at its
// definition and its call, and its references link the two.
func TestRefactorIntoWorkspace(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	c := wsClient{t, ts}
	c.ok("workspace_create", map[string]any{"workspace_id": "renamer"})
	r := c.call("refactor_rename", map[string]any{"symbol": "server.NewServer", "new_name": "NewSrv", "apply": true, "verify": "none", "workspace_id": "renamer"})
	if r.status != 200 {
		t.Fatalf("rename into a workspace: %d %v", r.status, r.body["error"])
	}
	if m := meta(r); m["workspace_id"] != "renamer" {
		t.Errorf("rename meta: %v", m)
	}
	ws := map[string]any{"workspace_id": "renamer"}
	if text := c.text("main.go", ws); !strings.Contains(text, "server.NewSrv(") {
		t.Errorf("main.go in the workspace:\n%s", text)
	}
	if text := c.text("main.go", nil); !strings.Contains(text, "server.NewServer(") {
		t.Errorf("main.go committed:\n%s", text)
	}
	if r := c.call("symbol_get", map[string]any{"symbol": "server.NewServer", "workspace_id": "renamer"}); r.status != 404 {
		t.Errorf("the old name in the workspace: %d", r.status)
	}
	refs := c.ok("refs_find", map[string]any{"symbol": "server.NewSrv", "workspace_id": "renamer"})
	var sites []string
	for _, l := range refs["locations"].([]any) {
		l := l.(map[string]any)
		sites = append(sites, l["path"].(string)+":"+l["kind"].(string)+":"+l["tier"].(string))
	}
	// the tier the index gives the same call on the tree (an import-qualified call)
	if len(sites) != 2 || !strings.Contains(strings.Join(sites, " "), "main.go:call:strong") {
		t.Errorf("refs of NewSrv in the workspace: %v", sites)
	}
	// the call graph reads the overlay too: the renamed function's caller
	// is main's call in the workspace, and the committed tree has no NewSrv
	callers := c.ok("graph_callers", map[string]any{"symbol": "server.NewSrv", "workspace_id": "renamer", "depth": 1})
	var callerFiles []string
	for _, n := range callers["nodes"].([]any) {
		n := n.(map[string]any)
		if n["depth"].(float64) == 1 {
			callerFiles = append(callerFiles, n["location"].(map[string]any)["path"].(string))
		}
	}
	if len(callerFiles) != 1 || callerFiles[0] != "main.go" {
		t.Errorf("callers of NewSrv in the workspace: %v", callerFiles)
	}
	if r := c.call("graph_callers", map[string]any{"symbol": "server.NewSrv"}); r.status != 404 {
		t.Errorf("callers of NewSrv committed: %d", r.status)
	}
	if r := c.call("refactor_rename", map[string]any{"symbol": "server.NewServer", "new_name": "NewSrv", "apply": true, "verify": "build", "workspace_id": "renamer"}); r.status != 400 {
		t.Errorf("verify build into a workspace: %d %v", r.status, r.body["error"])
	}
	// applying lands both files at once
	c.ok("workspace_apply", map[string]any{"workspace_id": "renamer"})
	if text := c.text("main.go", nil); !strings.Contains(text, "server.NewSrv(") {
		t.Errorf("main.go after apply:\n%s", text)
	}
}
