package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/httpapi"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/lockfile"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

const token = "0123456789abcdef0123456789abcdef-test-token"

// files is the demo module plus two same-named functions (an ambiguous name).
func files() map[string]string {
	out := map[string]string{
		"dup/a/a.go": "package a\n\n// Dup is one of two.\nfunc Dup() {}\n",
		"dup/b/b.go": "package b\n\n// Dup is the other.\nfunc Dup() {}\n",
	}
	for k, v := range testenv.Demo {
		out[k] = v
	}
	return out
}

// start serves a real service for a temp repository through httptest.
func start(t *testing.T, tok string, opts service.Options) (*httptest.Server, *service.Service) {
	t.Helper()
	testenv.Isolate(t)
	root := testenv.Repo(t, files())
	svc := testenv.Open(t, root, opts)
	return newServer(t, httpapi.New(svc, httpapi.Options{Token: tok, Version: "test"})), svc
}

type reply struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func do(t *testing.T, ts *httptest.Server, method, path, body string, header map[string]string) reply {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header, raw: string(b)}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(b, &r.body); err != nil {
			t.Fatalf("%s %s: body is not JSON: %v\n%s", method, path, err, b)
		}
	}
	return r
}

func auth() map[string]string { return map[string]string{"Authorization": "Bearer " + token} }

func errCode(r reply) any {
	e, _ := r.body["error"].(map[string]any)
	return e["code"]
}

// wholeError says whether the reply's error object has every field of the
// contract (DESIGN §6a), as a tool's envelope does: refusals before any tool
// runs (401, 403, 413) carry the same object.
func wholeError(r reply) bool {
	e, _ := r.body["error"].(map[string]any)
	num, _ := e["code_num"].(float64)
	_, retry := e["retryable"].(bool)
	_, details := e["details"].(map[string]any)
	_, fixes := e["fixes"].([]any)
	msg, _ := e["message"].(string)
	return num > 0 && retry && details && fixes && msg != ""
}

func TestAuth(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	root := svc.Paths().Root

	r := do(t, ts, "GET", "/status", "", nil)
	if r.status != 401 || !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") || errCode(r) != "UNAUTHORIZED" || !wholeError(r) {
		t.Errorf("no token: %d %v %v", r.status, r.header, r.body)
	}
	if got := r.header.Get("X-Cairn-Repo"); got != root {
		t.Errorf("401: X-Cairn-Repo = %q, want %q", got, root)
	}
	r = do(t, ts, "GET", "/status", "", map[string]string{"Authorization": "Bearer wrong"})
	if r.status != 401 {
		t.Errorf("wrong token: %d", r.status)
	}
	r = do(t, ts, "POST", "/api/v1/tools/search", `{"query":"NewServer"}`, map[string]string{"Authorization": token})
	if r.status != 401 {
		t.Errorf("token without Bearer: %d", r.status)
	}
	r = do(t, ts, "GET", "/status", "", auth())
	if r.status != 200 || r.header.Get("X-Cairn-Repo") != root {
		t.Errorf("right token: %d %v", r.status, r.header)
	}
	if data := r.body["data"].(map[string]any); data["repo"] != root {
		t.Errorf("status data = %v", data)
	}
	r = do(t, ts, "GET", "/health", "", nil)
	if r.status != 200 || r.body["ok"] != true || r.header.Get("X-Cairn-Repo") != root {
		t.Errorf("/health without token: %d %v", r.status, r.body)
	}
	r = do(t, ts, "POST", "/mcp", `{}`, nil)
	if r.status != 401 {
		t.Errorf("/mcp without token: %d", r.status)
	}
}

func TestNoAuth(t *testing.T) {
	ts, svc := start(t, "", service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	for _, path := range []string{"/status", "/ready", "/api/v1/tools"} {
		if r := do(t, ts, "GET", path, "", nil); r.status != 200 {
			t.Errorf("--no-auth %s: %d %v", path, r.status, r.body)
		}
	}
	if r := do(t, ts, "POST", "/api/v1/tools/search", `{"query":"NewServer"}`, nil); r.status != 200 {
		t.Errorf("--no-auth search: %d %v", r.status, r.body)
	}
}

func TestLocalOnly(t *testing.T) {
	ts, _ := start(t, token, service.Options{Serve: true})
	u, _ := url.Parse(ts.URL)
	port := u.Port()
	tests := []struct {
		name   string
		header map[string]string
		status int
		code   string
	}{
		{"loopback IP", map[string]string{"Host": "127.0.0.1:" + port}, 200, ""},
		{"localhost", map[string]string{"Host": "localhost:" + port}, 200, ""},
		{"IPv6 loopback", map[string]string{"Host": "[::1]:" + port}, 200, ""},
		{"foreign host", map[string]string{"Host": "attacker.example:" + port}, 403, "FORBIDDEN_HOST"},
		{"another port", map[string]string{"Host": "localhost:1"}, 403, "FORBIDDEN_HOST"},
		{"no port", map[string]string{"Host": "localhost"}, 403, "FORBIDDEN_HOST"},
		{"local origin", map[string]string{"Origin": "http://localhost:5173"}, 200, ""},
		{"local https origin", map[string]string{"Origin": "https://127.0.0.1"}, 200, ""},
		{"foreign origin", map[string]string{"Origin": "http://attacker.example"}, 403, "FORBIDDEN_ORIGIN"},
		{"null origin", map[string]string{"Origin": "null"}, 403, "FORBIDDEN_ORIGIN"},
		{"file origin", map[string]string{"Origin": "file://localhost"}, 403, "FORBIDDEN_ORIGIN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/health", "/status"} {
				h := auth()
				for k, v := range tc.header {
					h[k] = v
				}
				r := do(t, ts, "GET", path, "", h)
				if r.status != tc.status || tc.code != "" && (errCode(r) != tc.code || !wholeError(r)) {
					t.Errorf("%s: %d %v, want %d %s", path, r.status, r.body, tc.status, tc.code)
				}
				if r.header.Get("X-Cairn-Repo") == "" {
					t.Errorf("%s: no X-Cairn-Repo", path)
				}
			}
		})
	}
	// The MCP endpoint is behind the same checks.
	h := auth()
	h["Origin"] = "http://attacker.example"
	h["Content-Type"] = "application/json"
	h["Accept"] = "application/json, text/event-stream"
	if r := do(t, ts, "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, h); r.status != 403 {
		t.Errorf("/mcp with a foreign origin: %d", r.status)
	}
}

func TestReady(t *testing.T) {
	// Without Serve nothing builds the index until a query needs it, so the
	// server is observably not ready first, and says that nothing builds it.
	ts, _ := start(t, token, service.Options{})
	r := do(t, ts, "GET", "/ready", "", auth())
	if r.status != 503 || r.body["ready"] != false || r.body["index_state"] != "stale" || r.body["reason"] == "" {
		t.Fatalf("/ready before the first index: %d %v", r.status, r.body)
	}
	if r := do(t, ts, "GET", "/health", "", nil); r.status != 200 {
		t.Errorf("/health while indexing: %d", r.status)
	}
	if r := do(t, ts, "POST", "/api/v1/tools/search", `{"query":"NewServer"}`, auth()); r.status != 200 {
		t.Fatalf("search: %d %v", r.status, r.body)
	}
	r = do(t, ts, "GET", "/ready", "", auth())
	if r.status != 200 || r.body["ready"] != true {
		t.Errorf("/ready after indexing: %d %v", r.status, r.body)
	}
}

func TestToolCalls(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	tests := []struct {
		name, tool, body string
		status           int
		code             string
	}{
		{"ok", "search", `{"query":"NewServer"}`, 200, ""},
		{"empty body", "status", ``, 200, ""},
		{"symbol card", "symbol_get", `{"symbol":"server.NewServer"}`, 200, ""},
		{"not found", "symbol_get", `{"symbol":"NoSuchSymbol"}`, 404, "NOT_FOUND"},
		{"ambiguous", "symbol_get", `{"symbol":"Dup"}`, 409, "AMBIGUOUS_SYMBOL"},
		{"unknown argument", "search", `{"query":"x","bogus":1}`, 400, "INVALID_ARGUMENT"},
		{"not JSON", "search", `{"query":`, 400, "INVALID_ARGUMENT"},
		{"not an object", "search", `["x"]`, 400, "INVALID_ARGUMENT"},
		{"bad regex", "search", `{"query":"(","regex":true}`, 400, "INVALID_REGEX"},
		{"outside the repo", "read_source", `{"path":"../x.go"}`, 403, "PATH_OUTSIDE_REPO"},
		{"unknown tool", "no_such_tool", `{}`, 400, "INVALID_ARGUMENT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := do(t, ts, "POST", "/api/v1/tools/"+tc.tool, tc.body, auth())
			if r.status != tc.status || errCode(r) != nilIfEmpty(tc.code) {
				t.Errorf("%d %v, want %d %s", r.status, r.body["error"], tc.status, tc.code)
			}
			if _, ok := r.body["provenance"]; !ok {
				t.Errorf("no envelope: %v", r.body)
			}
			if tc.status == 200 && r.body["answer"] == "" {
				t.Errorf("no answer: %v", r.body)
			}
		})
	}
	if r := do(t, ts, "GET", "/api/v1/tools/search", "", auth()); r.status != 405 {
		t.Errorf("GET on a tool: %d", r.status)
	}
}

// A path of a megabyte, given to every tool that takes a path, is refused at
// once with INVALID_ARGUMENT; the bound is a safety net, not a timing.
func TestLongPaths(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	long := strings.Repeat("a/", 1<<19) + "x.go"
	q, _ := json.Marshal(long)
	tests := []struct{ tool, body string }{
		{"read_source", `{"path":` + string(q) + `}`},
		{"read_file_full", `{"path":` + string(q) + `}`},
		{"list_files", `{"path":` + string(q) + `}`},
		{"list_files", `{"glob":` + string(q) + `}`},
		{"impact_analyze", `{"path":` + string(q) + `}`},
		{"symbol_get", `{"at":{"path":` + string(q) + `,"line":1,"col":1}}`},
		{"refs_find", `{"at":{"path":` + string(q) + `,"line":1,"col":1}}`},
		{"affected_tests", `{"files":[` + string(q) + `]}`},
		{"semantic_diff", `{"paths":[` + string(q) + `]}`},
		{"search", `{"query":"x","paths":[` + string(q) + `]}`},
		{"surfaces_list", `{"kind":"endpoints","paths":[` + string(q) + `]}`},
		{"read_source", `{"path":"server/` + strings.Repeat("n", 256) + `.go"}`},
	}
	for _, tc := range tests {
		start := time.Now()
		r := do(t, ts, "POST", "/api/v1/tools/"+tc.tool, tc.body, auth())
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s took %s", tc.tool, d)
		}
		if r.status != 400 || errCode(r) != "INVALID_ARGUMENT" {
			t.Errorf("%s: %d %v, want 400 INVALID_ARGUMENT", tc.tool, r.status, r.body["error"])
		}
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func TestStatusTable(t *testing.T) {
	want := map[errs.Kind]int{errs.Internal: 500, errs.InvalidArgument: 400, errs.NotFound: 404, errs.Ambiguous: 409,
		errs.Conflict: 409, errs.IndexUnavailable: 503, errs.Timeout: 504, errs.OutsideRepo: 403, errs.Refused: 403}
	for k := errs.Kind(0); k.Code() != ""; k++ {
		got := httpapi.StatusOf(k.Code())
		if w, ok := want[k]; ok && got != w {
			t.Errorf("%s: %d, want %d", k.Code(), got, w)
		}
		if got == 500 && k != errs.Internal {
			t.Errorf("%s has no status of its own", k.Code())
		}
	}
	if httpapi.StatusOf("SOMETHING_NEW") != 500 {
		t.Errorf("unknown codes are not 500")
	}
}

func TestListTools(t *testing.T) {
	ts, _ := start(t, token, service.Options{Serve: true})
	r := do(t, ts, "GET", "/api/v1/tools", "", auth())
	if r.status != 200 {
		t.Fatalf("%d %v", r.status, r.body)
	}
	list := r.body["tools"].([]any)
	if len(list) != len(tools.All()) {
		t.Errorf("%d tools listed, %d registered", len(list), len(tools.All()))
	}
	for _, x := range list {
		tl := x.(map[string]any)
		s := tl["input_schema"].(map[string]any)
		// The repository has no .cairn/cards: the cards group is off for MCP;
		// the workspace group is not in the standard profile.
		wantMCP := tl["group"] != "cards" && tl["group"] != "workspace"
		if s["type"] != "object" || tl["description"] == "" || tl["mcp"] != wantMCP {
			t.Errorf("%v", tl)
		}
	}
}

// bearer adds the token to every request of the MCP client.
type bearer struct{ next http.RoundTripper }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+token)
	return b.next.RoundTrip(r)
}

func TestMCPOverHTTP(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	testenv.WaitReady(t, svc)
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "cairn-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{http.DefaultTransport}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil || len(res.Tools) == 0 {
		t.Fatalf("tools/list: %v %v", err, res)
	}
	out, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "NewServer"}})
	if err != nil || out.IsError {
		t.Fatalf("search: %v %v", err, out)
	}
	if text := out.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `"server/server.go"`) {
		t.Errorf("search text = %s", text)
	}

	// Without the token the client cannot connect.
	_, err = mcp.NewClient(&mcp.Implementation{Name: "cairn-test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, nil)
	if err == nil {
		t.Errorf("connected without a token")
	}
}

func TestClaim(t *testing.T) {
	dir := t.TempDir()
	c, err := httpapi.ClaimRepo(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WritePort(4321); err != nil {
		t.Fatal(err)
	}
	pf, err := httpapi.ReadPortFile(dir)
	if err != nil || pf.Port != 4321 || pf.PID != os.Getpid() {
		t.Fatalf("port file %+v %v", pf, err)
	}
	_, err = httpapi.ClaimRepo(dir)
	if !errs.Is(err, errs.Conflict) || errs.Conflict.ExitCode() != 7 ||
		!strings.Contains(err.Error(), "port 4321") || !strings.Contains(err.Error(), "pid ") {
		t.Fatalf("second claim: %v", err)
	}
	c.Release()
	if _, err := os.Stat(filepath.Join(dir, "port")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("port file left after release: %v", err)
	}
	c2, err := httpapi.ClaimRepo(dir)
	if err != nil {
		t.Fatalf("claim after release: %v", err)
	}
	c2.Release()
}

// TestClaimAfterDeath: a lock that its holder lets go of while the claim
// waits (a killed server whose last child has not yet dropped it) is taken,
// not reported as a running server, whether the dead server's port file is
// gone or left behind.
func TestClaimAfterDeath(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	for _, stale := range []bool{false, true} {
		dir := t.TempDir()
		if stale {
			os.WriteFile(filepath.Join(dir, "port"), []byte(fmt.Sprintf(`{"port": 4321, "pid": %d}`, dead.Process.Pid)), 0o600)
		}
		held, _, err := lockfile.TryLock(filepath.Join(dir, "up.lock"))
		if err != nil {
			t.Fatal(err)
		}
		released := make(chan struct{})
		go func() {
			time.Sleep(300 * time.Millisecond)
			held.Unlock()
			close(released)
		}()
		c, err := httpapi.ClaimRepo(dir)
		<-released
		if err != nil {
			t.Fatalf("stale port file %v: claim after the holder let go: %v", stale, err)
		}
		c.Release()
	}
}

func TestToken(t *testing.T) {
	dir := t.TempDir()
	tok, err := httpapi.LoadToken(dir)
	if err != nil || len(tok) < 32 {
		t.Fatalf("token %q %v", tok, err)
	}
	st, err := os.Stat(filepath.Join(dir, "token"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v %v", st.Mode(), err)
	}
	os.Chmod(filepath.Join(dir, "token"), 0o644)
	again, err := httpapi.LoadToken(dir)
	if err != nil || again != tok {
		t.Errorf("token not reused: %q %v", again, err)
	}
	if st, _ := os.Stat(filepath.Join(dir, "token")); st.Mode().Perm() != 0o600 {
		t.Errorf("token mode not tightened: %v", st.Mode())
	}
}

// TestReadyWhileAnotherProcessBuilds: a server that does not own the index
// (another process, e.g. `cairn mcp`, does) becomes ready when that
// process's first build commits.
func TestReadyWhileAnotherProcessBuilds(t *testing.T) {
	testenv.Isolate(t)
	root := testenv.Repo(t, files())
	stateDir := filepath.Join(t.TempDir(), "state")
	owner := testenv.OpenIn(t, root, stateDir, config.Default(), service.Options{})
	reader := testenv.OpenIn(t, root, stateDir, config.Default(), service.Options{Serve: true})
	if reader.Owner() {
		t.Fatal("the second service owns the index")
	}
	ts := newServer(t, httpapi.New(reader, httpapi.Options{Token: token}))
	if r := do(t, ts, "GET", "/ready", "", auth()); r.status != 503 {
		t.Fatalf("/ready before any build: %d %v", r.status, r.body)
	}
	if env := tools.Invoke(context.Background(), owner.Env(), "index_ensure", nil); env.Error != nil {
		t.Fatalf("index_ensure: %v", env.Error)
	}
	if r := do(t, ts, "GET", "/ready", "", auth()); r.status != 200 {
		t.Errorf("/ready after the owner built the index: %d %v", r.status, r.body)
	}
}
