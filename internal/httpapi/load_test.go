package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/store"
)

// connectMCP opens an MCP session over streamable HTTP with the test token.
func connectMCP(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "cairn-load", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: bearer{http.DefaultTransport}},
			DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// waitCalls waits until the server has answered n calls of tool (a call
// whose client gave up still finishes on the server), and returns the
// calls by outcome.
func waitCalls(t *testing.T, ts *httptest.Server, tool string, n int) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		fams := scrape(t, do(t, ts, "GET", "/metrics", "", auth()))
		out := map[string]float64{}
		total := 0.0
		if f := fams["cairn_tool_calls_total"]; f != nil {
			for _, m := range f.Metric {
				var name, outcome string
				for _, l := range m.Label {
					switch l.GetName() {
					case "tool":
						name = l.GetValue()
					case "outcome":
						outcome = l.GetValue()
					}
				}
				if name == tool {
					out[outcome] += m.Counter.GetValue()
					total += m.Counter.GetValue()
				}
			}
		}
		if total >= float64(n) || time.Now().After(deadline) {
			return out
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Calls whose clients give up while they wait to read the index are
// counted as CANCELLED, not as failures of the index: with every pooled
// connection of the store held by other requests' snapshots, a call waits
// for one, and its caller's deadline ends the wait. Before, such calls
// ended with INDEX_UNAVAILABLE ("store: begin: context canceled"), and a
// statement that raced the end of its snapshot's transaction with INTERNAL
// ("transaction has already been committed or rolled back"). The metrics
// answer meanwhile: before, a scrape waited for a connection too.
func TestCallsWhoseClientsGiveUpAreCancelled(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	if r := do(t, ts, "POST", "/api/v1/tools/index_ensure", `{}`, auth()); r.status != 200 {
		t.Fatalf("index_ensure: %d %s", r.status, r.raw)
	}
	ctx := context.Background()
	var releases []func()
	for range store.MaxConns {
		_, release, err := svc.Env().Engine.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, release)
	}
	// The metrics answer meanwhile, without waiting for a connection.
	req, _ := http.NewRequest("GET", ts.URL+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		for _, r := range releases {
			r()
		}
		t.Fatalf("/metrics with every connection held: %v", err)
	}
	resp.Body.Close()
	cs := connectMCP(t, ts.URL)
	const gaveUp = 3
	for i := range gaveUp {
		cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		_, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "symbol_get", Arguments: map[string]any{"symbol": "server.NewServer"}})
		cancel()
		if err == nil {
			t.Fatalf("call %d answered with every connection held", i)
		}
	}
	// The calls end on the server when their clients' cancellations reach
	// it, all while every connection is still held.
	got := waitCalls(t, ts, "symbol_get", gaveUp)
	for _, r := range releases {
		r()
	}
	if got["CANCELLED"] != gaveUp {
		t.Errorf("calls whose clients gave up, by outcome: %v; want %d CANCELLED", got, gaveUp)
	}
	// The server answers again once the connections are back.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "symbol_get", Arguments: map[string]any{"symbol": "server.NewServer"}})
	if err != nil || res.IsError {
		t.Fatalf("symbol_get after the connections were released: %v %v", err, res)
	}
}

// Many MCP clients over HTTP at once, while writes create files in new
// directories (each makes the watcher reconcile), index_ensure reconciles,
// and some clients give up on their calls after a few milliseconds: every
// call a client waits for answers without an error, and no call, given up
// or not, ends as a failure of the server (INTERNAL or INDEX_UNAVAILABLE).
func TestConcurrentCallsWhileWritesAndReindexes(t *testing.T) {
	ts, _ := start(t, token, service.Options{Serve: true})
	if r := do(t, ts, "POST", "/api/v1/tools/index_ensure", `{}`, auth()); r.status != 200 {
		t.Fatalf("index_ensure: %d %s", r.status, r.raw)
	}
	const clients, rounds = 8, 6
	reads := []struct {
		tool string
		args map[string]any
	}{
		{"search", map[string]any{"query": "Server", "mode": "symbol"}},
		{"refs_find", map[string]any{"symbol": "server.NewServer"}},
		{"graph_callers", map[string]any{"symbol": "server.Server.Start", "depth": 2}},
		{"read_source", map[string]any{"path": "server/server.go", "start_line": 1, "end_line": 20}},
		{"symbol_get", map[string]any{"symbol": "server.Server"}},
	}
	var mu sync.Mutex // guards failed and calls
	var failed []string
	calls := map[string]int{}
	var wg sync.WaitGroup
	for c := range clients {
		cs := connectMCP(t, ts.URL)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				type step struct {
					tool string
					args map[string]any
				}
				// Each write creates a file in a new directory.
				content := fmt.Sprintf("package r%d\n\n// W%d is write %d.\nfunc W%d() int { return %d }\n", r, c, r, c, r)
				steps := []step{{"write_source", map[string]any{"edits": []map[string]any{{
					"path": fmt.Sprintf("load/c%d/r%d/w.go", c, r), "action": "create", "content": content}}}}}
				for _, rd := range reads {
					steps = append(steps, step{rd.tool, rd.args})
				}
				if c == 0 {
					steps = append(steps, step{"index_ensure", map[string]any{}})
				}
				for i, s := range steps {
					// Client 1 gives up on every other call almost at once.
					timeout := time.Minute
					giveUp := c == 1 && i%2 == 1
					if giveUp {
						timeout = time.Duration(1+i) * time.Millisecond
					}
					cctx, cancel := context.WithTimeout(context.Background(), timeout)
					res, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: s.tool, Arguments: s.args})
					cancel()
					mu.Lock()
					calls[s.tool]++
					if !giveUp && (err != nil || res.IsError) {
						failed = append(failed, fmt.Sprintf("client %d round %d %s: %v %s", c, r, s.tool, err, describeResult(res)))
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, f := range failed {
		t.Error(f)
	}
	for tool, n := range calls {
		got := waitCalls(t, ts, tool, n)
		if got["INTERNAL"] > 0 || got["INDEX_UNAVAILABLE"] > 0 {
			t.Errorf("%s: outcomes %v; none may be INTERNAL or INDEX_UNAVAILABLE", tool, got)
		}
	}
}

func describeResult(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}
