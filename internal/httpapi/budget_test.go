package httpapi_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cairnhq/cairn/internal/httpapi"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// bulky is a repository whose answers are large: a function called from
// 1,200 places, a struct of 300 fields, a function that calls 400 others,
// 300 HTTP routes and a 100,000-character line.
func bulky() map[string]string {
	files := map[string]string{"go.mod": "module example.com/bulky\n\ngo 1.22\n"}
	var hub strings.Builder
	// numbered writes n lines of a format numbered 0 to n-1.
	numbered := func(n int, format string) {
		for i := range n {
			fmt.Fprintf(&hub, format, i)
		}
	}
	hub.WriteString("package hub\n\nimport \"net/http\"\n\n// Hub is called from everywhere.\nfunc Hub() {}\n\n// Wide has many fields.\ntype Wide struct {\n")
	numbered(300, "\tFieldWithAFairlyLongDescriptiveName%03d int\n")
	hub.WriteString("}\n\n// Fan calls many functions.\nfunc Fan() {\n")
	numbered(400, "\tcalledFunctionWithALongName%03d()\n")
	hub.WriteString("}\n\n")
	numbered(400, "func calledFunctionWithALongName%03d() {}\n")
	hub.WriteString("\n// Routes registers many routes.\nfunc Routes(mux *http.ServeMux) {\n")
	numbered(300, "\tmux.HandleFunc(\"/api/v1/resources/collection-%03d/items\", nil)\n")
	hub.WriteString("}\n")
	files["hub/hub.go"] = hub.String()
	for f := range 60 {
		var b strings.Builder
		fmt.Fprintf(&b, "package callers\n\nimport \"example.com/bulky/hub\"\n\nfunc Caller%02d() {\n", f)
		for range 20 {
			b.WriteString("\thub.Hub()\n")
		}
		b.WriteString("}\n")
		files[fmt.Sprintf("callers/c%02d.go", f)] = b.String()
	}
	files["long/long.go"] = "package long\n\nvar Long = \"" + strings.Repeat("x", 100_000) + "\"\n"
	// Spec cards: one with a long body, linked from Hub, and 400 more.
	files[".cairn/cards/hub.card.md"] = "---\nkey: hub\nsummary: The hub every caller goes through\nstatus: implemented\n---\n" +
		strings.Repeat("The hub answers every caller in the order of arrival. ", 1000) + "\n"
	files["hub/hub.go"] = strings.Replace(files["hub/hub.go"], "// Hub is called from everywhere.\n", "// Hub is called from everywhere.\n// @see hub\n", 1)
	for i := range 400 {
		files[fmt.Sprintf(".cairn/cards/collections/c%03d.card.md", i)] = fmt.Sprintf("---\nkey: collections/c%03d\nsummary: Resource collection %03d, served under /api/v1/resources with paging\nstatus: accepted\n---\nThe collection lists its items.\n", i, i)
	}
	return files
}

// budgetCalls has arguments for every tool that takes max_chars, chosen so
// that its answer on the bulky repository is large.
var budgetCalls = map[string]string{
	"affected_tests": `{"files": ["hub/hub.go"]}`,
	"architecture":   `{"depth": 3}`,
	"card_get":       `{"key": "hub"}`,
	"card_list":      `{"limit": 500}`,
	"card_search":    `{"query": "collection", "limit": 500}`,
	"card_unlinked":  `{"limit": 500}`,
	"graph_callees":  `{"symbol": "hub.Fan"}`,
	"graph_callers":  `{"symbol": "hub.Hub", "limit_per_level": 100}`,
	"git_blame":      `{"path": "long/long.go"}`,
	"git_diff":       `{"base": "HEAD"}`,
	"git_history":    `{"path": "long/long.go"}`,
	"git_log":        `{}`,
	"git_show":       `{}`,
	"hotspots":       `{"since": "2000-01-01"}`,
	"impact_analyze": `{"symbol": "hub.Hub"}`,
	"importers":      `{"target": "hub", "limit": 1000}`,
	"lint_check":     `{"paths": ["long/long.go"]}`,
	"test_discover":  `{}`,
	"index_ensure":   `{}`,
	"list_files":     `{"path": "callers", "limit": 1000}`,
	"map_repo":       `{}`,
	"read_source":    `{"path": "long/long.go"}`,
	"refs_find":      `{"symbol": "hub.Hub", "limit": 500}`,
	"search":         `{"query": "hub.Hub()", "limit": 100}`,
	"semantic_diff":  `{}`,
	"status":         `{}`,
	"surfaces_list":  `{"kind": "endpoints", "limit": 100}`,
	"symbol_get":     `{"symbol": "hub.Wide", "limit": 100}`,
	"trace_feature":  `{"symbol": "hub.Fan", "limit": 500}`,
	"type_hierarchy": `{"symbol": "hub.Wide"}`,
}

// TestMaxCharsEveryTool: every tool that takes max_chars answers within it,
// counted in characters of the body (the canonical envelope, which is also
// what MCP sends as the text of content[0]), and says what it cut.
func TestMaxCharsEveryTool(t *testing.T) {
	testenv.Isolate(t)
	root := testenv.Repo(t, bulky())
	svc := testenv.Open(t, root, service.Options{})
	api := httpapi.New(svc, httpapi.Options{Version: "test"})
	ts := newServer(t, api)
	for _, tool := range tools.All() {
		if _, ok := tool.In.FieldByName("MaxChars"); !ok {
			continue
		}
		args, ok := budgetCalls[tool.Name]
		if !ok {
			t.Errorf("%s takes max_chars but has no call in budgetCalls: add one", tool.Name)
			continue
		}
		for _, budget := range []int{0, 2500} {
			body := args
			if budget > 0 {
				body = strings.TrimSuffix(args, "}")
				if body != "{" {
					body += ", "
				}
				body += fmt.Sprintf(`"max_chars": %d}`, budget)
			}
			raw, r := post(t, ts, tool.Name, body)
			if r.status != 200 {
				t.Errorf("%s %s: status %d: %v", tool.Name, body, r.status, r.body["error"])
				continue
			}
			want := budget
			if want == 0 {
				want = tools.CharsBudget.Default
			}
			if n := utf8.RuneCountInString(strings.TrimSpace(raw)); n > want {
				t.Errorf("%s %s: %d characters, over %d", tool.Name, body, n, want)
			}
			// A field cut in several rounds has one truncation entry.
			seen := map[string]bool{}
			cuts, _ := r.body["provenance"].(map[string]any)["truncations"].([]any) // absent: none (compact provenance)
			for _, x := range cuts {
				f := x.(map[string]any)["field"].(string)
				if seen[f] {
					t.Errorf("%s %s: field %s has two truncation entries", tool.Name, body, f)
				}
				seen[f] = true
			}
		}
	}
}

// TestMaxCharsCuts: what a cut looks like. A long line is shortened, not
// dropped; a cut page of references continues exactly after its last
// location, so paging with a small budget still lists every reference once.
func TestMaxCharsCuts(t *testing.T) {
	testenv.Isolate(t)
	root := testenv.Repo(t, bulky())
	svc := testenv.Open(t, root, service.Options{})
	ts := newServer(t, httpapi.New(svc, httpapi.Options{Version: "test"}))

	_, r := post(t, ts, "read_source", `{"path": "long/long.go", "start_line": 3, "end_line": 3}`)
	data := r.body["data"].(map[string]any)
	lines := data["lines"].([]any)
	if len(lines) != 1 {
		t.Fatalf("read_source of the long line: %d lines, want 1", len(lines))
	}
	if text := lines[0].(map[string]any)["text"].(string); !strings.HasPrefix(text, "var Long = \"xxx") || !strings.HasSuffix(text, "…") {
		t.Errorf("the long line should be shortened with an ellipsis, got %.40q…", text)
	}
	if !hasTruncation(r, "lines[0].text", "max_chars") {
		t.Errorf("no truncation entry for the shortened line: %v", r.body["provenance"])
	}

	seen := map[string]bool{}
	total, pages := 0, 0
	cursor := ""
	for {
		args := `{"symbol": "hub.Hub", "limit": 500, "max_chars": 8000`
		if cursor != "" {
			args += `, "cursor": "` + cursor + `"`
		}
		_, r := post(t, ts, "refs_find", args+"}")
		if r.status != 200 {
			t.Fatalf("refs_find page %d: %d %v", pages, r.status, r.body["error"])
		}
		pages++
		data := r.body["data"].(map[string]any)
		total = int(data["summary"].(map[string]any)["total"].(float64))
		for _, l := range data["locations"].([]any) {
			loc := l.(map[string]any)
			key := fmt.Sprintf("%v:%v:%v", loc["path"], loc["line"], loc["col"])
			if seen[key] {
				t.Fatalf("page %d repeats %s", pages, key)
			}
			seen[key] = true
		}
		cursor = ""
		for _, tr := range truncations(r) {
			if tr["field"] == "locations" && tr["cursor"] != nil {
				cursor = tr["cursor"].(string)
			}
		}
		if cursor == "" || pages > 100 {
			break
		}
	}
	if total < 1200 || len(seen) != total {
		t.Errorf("paging with max_chars 8000 listed %d of %d references (want at least 1200) in %d pages", len(seen), total, pages)
	}
	if pages < 3 {
		t.Errorf("%d pages: the budget should have cut the pages of 500", pages)
	}
}

// TestCountArgumentsAndLongQueries: 0 or a negative count is a mistake, not
// the default; an over-long query or name is refused at once, quoting only
// its start.
func TestCountArgumentsAndLongQueries(t *testing.T) {
	testenv.Isolate(t)
	root := testenv.Repo(t, testenv.Demo)
	svc := testenv.Open(t, root, service.Options{})
	ts := newServer(t, httpapi.New(svc, httpapi.Options{Version: "test"}))
	huge := strings.Repeat("q", 1<<20)
	for _, tc := range []struct{ tool, args string }{
		{"search", `{"query": "Server", "limit": 0}`},
		{"search", `{"query": "Server", "limit": -3}`},
		{"refs_find", `{"symbol": "server.NewServer", "max_chars": 0}`},
		{"graph_callers", `{"symbol": "server.NewServer", "depth": 0}`},
		{"list_files", `{"limit": -1}`},
		{"read_source", `{"path": "main.go", "timeout_ms": 0}`},
		{"search", `{"query": "` + huge + `"}`},
		{"search", `{"query": "` + huge + `", "mode": "symbol"}`},
		{"search", `{"query": "` + huge + `", "mode": "definitions"}`},
		{"symbol_get", `{"symbol": "` + huge + `"}`},
		{"refs_find", `{"symbol": "` + huge + `"}`},
	} {
		raw, r := post(t, ts, tc.tool, tc.args)
		if r.status != 400 || errCode(r) != "INVALID_ARGUMENT" {
			t.Errorf("%s %.60s: status %d %v, want 400 INVALID_ARGUMENT", tc.tool, tc.args, r.status, errCode(r))
		}
		if len(raw) > 4000 {
			t.Errorf("%s %.60s: the error is %d bytes: it echoes the argument", tc.tool, tc.args, len(raw))
		}
	}
}

// newServer serves api through httptest for the rest of the test.
func newServer(t *testing.T, api *httpapi.Server) *httptest.Server {
	ts := httptest.NewServer(api)
	t.Cleanup(func() {
		api.Close()
		ts.Close()
	})
	return ts
}

// post calls a tool over REST and returns the raw body and the reply.
func post(t *testing.T, ts *httptest.Server, tool, args string) (string, reply) {
	t.Helper()
	r := do(t, ts, "POST", "/api/v1/tools/"+tool, args, nil)
	return r.raw, r
}

func hasTruncation(r reply, field, reason string) bool {
	for _, tr := range truncations(r) {
		if tr["field"] == field && tr["reason"] == reason {
			return true
		}
	}
	return false
}

func truncations(r reply) []map[string]any {
	p, _ := r.body["provenance"].(map[string]any)
	list, _ := p["truncations"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, tr := range list {
		out = append(out, tr.(map[string]any))
	}
	return out
}
