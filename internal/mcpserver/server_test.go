package mcpserver_test

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairnhq/cairn/internal/config"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/mcpserver"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// progress records the progress notifications a client session receives.
type progress struct {
	mu  sync.Mutex // guards got: notifications arrive on the session's goroutine
	got []*mcp.ProgressNotificationParams
}

func (p *progress) handle(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p.mu.Lock()
	p.got = append(p.got, req.Params)
	p.mu.Unlock()
}

// call calls a tool with a progress token and returns the notifications
// received once there are at least n of them or wait has passed: the client
// handles notifications apart from the call's result, so the last one may be
// handled after the call returns.
func (p *progress) call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, token string, n int, wait time.Duration) []*mcp.ProgressNotificationParams {
	t.Helper()
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	params.SetProgressToken(token)
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("%s: %v %s", tool, err, mustJSON(t, res))
	}
	deadline := time.Now().Add(wait)
	for {
		p.mu.Lock()
		got := slices.Clone(p.got)
		p.mu.Unlock()
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// session serves a real service for a temp repository over the SDK's
// in-memory transports and returns a connected client session.
func session(t *testing.T, cfg config.Config, copts *mcp.ClientOptions) (*mcp.ClientSession, *service.Service) {
	t.Helper()
	return sessionOn(t, testenv.Demo, cfg, copts)
}

// sessionOn is session on a repository of the given files.
func sessionOn(t *testing.T, files map[string]string, cfg config.Config, copts *mcp.ClientOptions) (*mcp.ClientSession, *service.Service) {
	t.Helper()
	testenv.Isolate(t)
	root := testenv.Repo(t, files)
	svc := testenv.OpenConfig(t, root, cfg, service.Options{Serve: true})
	srv := mcpserver.New(svc, mcpserver.Options{Version: "test"})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "cairn-test", Version: "1"}, copts)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, svc
}

func listTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		out[tl.Name] = tl
	}
	return out
}

func names(m map[string]*mcp.Tool) []string {
	var out []string
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func registered(want ...string) []string {
	var out []string
	for _, n := range want {
		if tools.Lookup(n) != nil {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// schema decodes a tool's input schema as the client received it.
func schema(t *testing.T, tl *mcp.Tool) map[string]any {
	t.Helper()
	b, err := json.Marshal(tl.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestToolsListStandard(t *testing.T) {
	cs, svc := session(t, config.Default(), nil)
	got := listTools(t, cs)
	var want []string
	for _, tl := range tools.VisibleIn(config.Default().Tools, svc.Paths().Root) {
		want = append(want, tl.Name)
	}
	if diff := cmp.Diff(want, names(got)); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	for _, n := range []string{"search", "status", "symbol_get", "refs_find", "read_source", "list_files", "index_ensure"} {
		if got[n] == nil {
			t.Errorf("standard profile lacks %s", n)
		}
	}
	for n, tl := range got {
		s := schema(t, tl)
		if s["type"] != "object" {
			t.Errorf("%s: schema type %v, want object", n, s["type"])
		}
		if tl.Description == "" || tl.Description != tools.Lookup(n).Summary {
			t.Errorf("%s: description %q is not the tool's summary", n, tl.Description)
		}
		if strings.Contains(mustJSON(t, s), `"null"`) {
			t.Errorf("%s: schema allows null: %s", n, mustJSON(t, s))
		}
	}

	// search: query required, common fields optional, descriptions from tags.
	s := schema(t, got["search"])
	if diff := cmp.Diff([]any{"query"}, s["required"]); diff != "" {
		t.Errorf("search required (-want +got):\n%s", diff)
	}
	props := s["properties"].(map[string]any)
	for _, p := range []string{"query", "mode", "paths", "limit", "cursor", "max_chars", "timeout_ms", "repo_state_mode"} {
		if props[p] == nil {
			t.Errorf("search schema lacks property %s", p)
		}
	}
	paths := props["paths"].(map[string]any)
	if paths["type"] != "array" || !strings.Contains(paths["description"].(string), "glob") {
		t.Errorf("search.paths = %v, want an array with a description", paths)
	}
	if s["additionalProperties"] != false {
		t.Errorf("search schema allows unknown properties: %v", s["additionalProperties"])
	}
}

func TestToolsListProfiles(t *testing.T) {
	tests := []struct {
		name string
		cfg  config.ToolsConfig
		want []string
	}{
		{"minimal", config.ToolsConfig{Profile: "minimal"},
			registered("describe", "status", "search", "symbol_get", "refs_find", "read_source", "map_repo")},
		{"minimal plus and minus", config.ToolsConfig{Profile: "minimal", Enable: []string{"list_files"}, Disable: []string{"refs_find"}},
			registered("describe", "status", "search", "symbol_get", "read_source", "map_repo", "list_files")},
		{"standard without read", config.ToolsConfig{Profile: "standard", Disable: []string{"read"}},
			func() []string {
				var out []string
				for _, tl := range tools.Visible(config.ToolsConfig{Profile: "standard"}) {
					// The demo repository has no .cairn/cards: no cards tools.
					if tl.Group != "read" && tl.Group != "cards" {
						out = append(out, tl.Name)
					}
				}
				return out
			}()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Tools = tc.cfg
			cs, _ := session(t, cfg, nil)
			got := listTools(t, cs)
			if diff := cmp.Diff(tc.want, names(got)); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			if tc.cfg.Profile == "minimal" {
				// The minimal tool list, as sent (compact JSON), stays within
				// 1,200 tokens (characters / 4).
				res, _ := cs.ListTools(context.Background(), nil)
				n := len(mustJSON(t, res)) / 4
				t.Logf("minimal tool list: about %d tokens", n)
				if n > 1200 {
					t.Errorf("minimal tool list is about %d tokens, want <= 1200", n)
				}
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// call invokes a tool and checks that the text content and the structured
// content carry the same envelope; it returns the envelope.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", name, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content[0] is %T, want text", name, res.Content[0])
	}
	var fromText map[string]any
	if err := json.Unmarshal([]byte(text.Text), &fromText); err != nil {
		t.Fatalf("%s: text is not JSON: %v\n%s", name, err, text.Text)
	}
	var structured map[string]any
	if err := json.Unmarshal([]byte(mustJSON(t, res.StructuredContent)), &structured); err != nil {
		t.Fatalf("%s: structured content: %v", name, err)
	}
	if diff := cmp.Diff(fromText, structured); diff != "" {
		t.Errorf("%s: text and structured content differ (-text +structured):\n%s", name, diff)
	}
	return structured, res
}

func TestCallSearch(t *testing.T) {
	cs, svc := session(t, config.Default(), nil)
	testenv.WaitReady(t, svc)
	env, res := call(t, cs, "search", map[string]any{"query": "NewServer"})
	if res.IsError {
		t.Fatalf("search failed: %v", env["error"])
	}
	if !strings.Contains(env["answer"].(string), `"NewServer"`) {
		t.Errorf("answer = %q", env["answer"])
	}
	hits := env["data"].(map[string]any)["results"].([]any)
	var where []string
	for _, h := range hits {
		loc := h.(map[string]any)["location"].(map[string]any)
		where = append(where, loc["path"].(string))
	}
	if diff := cmp.Diff([]string{"server/server.go", "server/server.go", "main.go"}, where); diff != "" {
		t.Errorf("hit files (-want +got):\n%s", diff)
	}
	// fresh and complete: the compact provenance, whose absent fields read
	// as ready and complete
	prov := env["provenance"].(map[string]any)
	if _, full := prov["completeness"]; prov["freshness"] != "fresh" || full {
		t.Errorf("provenance = %v", prov)
	}
	b, _ := json.Marshal(prov)
	var p protocol.Provenance
	if err := json.Unmarshal(b, &p); err != nil || p.IndexState != "ready" || p.Completeness.Score != 1 {
		t.Errorf("provenance read back = %+v (%v)", p, err)
	}
}

func TestCallErrors(t *testing.T) {
	cs, svc := session(t, config.Default(), nil)
	testenv.WaitReady(t, svc)
	tests := []struct {
		tool string
		args map[string]any
		code string
	}{
		{"symbol_get", map[string]any{"symbol": "NoSuchSymbol"}, "NOT_FOUND"},
		{"search", map[string]any{"query": "x", "bogus": true}, "INVALID_ARGUMENT"},
		{"search", map[string]any{"query": "(", "regex": true}, "INVALID_REGEX"},
		{"read_source", map[string]any{"path": "../outside.go"}, "PATH_OUTSIDE_REPO"},
		{"read_source", map[string]any{"path": strings.Repeat("a/", 1<<19)}, "INVALID_ARGUMENT"},
		{"list_files", map[string]any{"path": ".git"}, "PATH_REFUSED"},
		{"list_files", map[string]any{"path": ".git/refs"}, "PATH_REFUSED"},
	}
	for _, tc := range tests {
		env, res := call(t, cs, tc.tool, tc.args)
		if !res.IsError {
			t.Errorf("%s %v: isError false", tc.tool, tc.args)
			continue
		}
		e := env["error"].(map[string]any)
		if e["code"] != tc.code {
			t.Errorf("%s %v: code %v, want %s (%v)", tc.tool, tc.args, e["code"], tc.code, e["message"])
		}
		if env["answer"] != nil || env["data"] != nil {
			t.Errorf("%s: a failed envelope has answer or data", tc.tool)
		}
	}
}

func TestResources(t *testing.T) {
	cs, svc := session(t, config.Default(), nil)
	testenv.WaitReady(t, svc)
	ctx := context.Background()
	rs, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Resources) != 2 || rs.Resources[0].URI != "cairn://architecture" || rs.Resources[1].URI != "cairn://status" ||
		rs.Resources[1].MIMEType != "application/json" {
		t.Errorf("resources = %s", mustJSON(t, rs.Resources))
	}
	rts, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var templates []string
	for _, rt := range rts.ResourceTemplates {
		templates = append(templates, rt.URITemplate)
	}
	sort.Strings(templates)
	if diff := cmp.Diff([]string{"cairn://card/{+key}", "cairn://file/{+path}", "cairn://module/{+id}", "cairn://symbol/{id}"}, templates); diff != "" {
		t.Errorf("templates (-want +got):\n%s", diff)
	}

	read := func(uri string) map[string]any {
		t.Helper()
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		if len(res.Contents) != 1 || res.Contents[0].MIMEType != "application/json" || res.Contents[0].URI != uri {
			t.Fatalf("read %s: contents %s", uri, mustJSON(t, res.Contents))
		}
		var env map[string]any
		if err := json.Unmarshal([]byte(res.Contents[0].Text), &env); err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		return env
	}
	status := read("cairn://status")
	if got := status["data"].(map[string]any)["repo"]; got != svc.Paths().Root {
		t.Errorf("status repo = %v, want %s", got, svc.Paths().Root)
	}
	card := read("cairn://symbol/server.NewServer")
	if got := card["data"].(map[string]any)["qualified_name"]; got != "example.com/demo/server.NewServer" {
		t.Errorf("symbol qualified_name = %v", got)
	}
	card = read("cairn://symbol/server%2Fserver.go%23Server.Start")
	if got := card["data"].(map[string]any)["qualified_name"]; got != "example.com/demo/server.Server.Start" {
		t.Errorf("symbol by path#name: qualified_name = %v", got)
	}
	arch := read("cairn://architecture")
	if nodes := arch["data"].(map[string]any)["nodes"].([]any); len(nodes) == 0 {
		t.Errorf("architecture has no nodes: %s", mustJSON(t, arch))
	}
	mod := read("cairn://module/example.com%2Fdemo")
	if nodes := mod["data"].(map[string]any)["nodes"].([]any); len(nodes) == 0 || nodes[0].(map[string]any)["module"] != "example.com/demo" {
		t.Errorf("module = %s", mustJSON(t, mod))
	}
	file := read("cairn://file/server/server.go")
	data := file["data"].(map[string]any)
	if data["path"] != "server/server.go" || len(data["lines"].([]any)) != 18 {
		t.Errorf("file = %s", mustJSON(t, data))
	}

	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "cairn://symbol/NoSuchSymbol"}); err == nil ||
		!strings.Contains(err.Error(), "NOT_FOUND") {
		t.Errorf("reading a missing symbol: err = %v, want NOT_FOUND", err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "cairn://file/.git/config"}); err == nil {
		t.Errorf("reading .git/config succeeded")
	}
}

func TestProgress(t *testing.T) {
	var rec progress
	cs, svc := session(t, config.Default(), &mcp.ClientOptions{ProgressNotificationHandler: rec.handle})
	testenv.WaitReady(t, svc)
	got := rec.call(t, cs, "index_ensure", map[string]any{"full": true}, "tok-1", 1, 5*time.Second)
	if len(got) == 0 {
		t.Fatal("no progress notifications")
	}
	last := -1.0
	for _, p := range got {
		if p.ProgressToken != "tok-1" {
			t.Errorf("progress token %v", p.ProgressToken)
		}
		if p.Progress <= last {
			t.Errorf("progress does not increase: %v after %v", p.Progress, last)
		}
		last = p.Progress
	}
}
