package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/tools"
)

// scrape reads /metrics with the Prometheus text-format parser.
func scrape(t *testing.T, r reply) map[string]*dto.MetricFamily {
	t.Helper()
	if r.status != http.StatusOK || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %d %s", r.status, r.header.Get("Content-Type"))
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(r.raw))
	if err != nil {
		t.Fatalf("/metrics does not parse: %v\n%s", err, r.raw)
	}
	return fams
}

// sum adds the samples of a family whose labels include want.
func sum(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	total := 0.0
	f := fams[name]
	if f == nil {
		return -1
	}
next:
	for _, m := range f.Metric {
		for k, v := range want {
			found := false
			for _, l := range m.Label {
				found = found || l.GetName() == k && l.GetValue() == v
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			total += m.Counter.GetValue()
		case m.Gauge != nil:
			total += m.Gauge.GetValue()
		case m.Histogram != nil:
			total += float64(m.Histogram.GetSampleCount())
		}
	}
	return total
}

func TestOpsOverREST(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	h := auth()
	r := do(t, ts, "POST", "/api/v1/tools/task_open", `{"max_mutations": 1}`, h)
	if r.status != 200 {
		t.Fatalf("task_open: %d %s", r.status, r.raw)
	}
	id := r.body["meta"].(map[string]any)["task_id"].(string)
	if !strings.Contains(r.raw, "X-Cairn-Task") {
		t.Errorf("task_open over REST does not say how to name the task: %s", r.raw)
	}
	// A REST call is in the task only when it names it.
	if r := do(t, ts, "POST", "/api/v1/tools/status", `{}`, h); r.body["meta"].(map[string]any)["task_id"] != nil {
		t.Errorf("a REST call without the header is in a task: %v", r.body["meta"])
	}
	inTask := map[string]string{"Authorization": "Bearer " + token, "X-Cairn-Task": id}
	do(t, ts, "POST", "/api/v1/tools/search", `{"query": "x", "mode": "definitions"}`, inTask)
	for i := 0; i < 3; i++ {
		r := do(t, ts, "POST", "/api/v1/tools/search", `{"query": "NewServer"}`, inTask)
		if r.status != 200 || r.body["meta"].(map[string]any)["task_id"] != id {
			t.Fatalf("search in the task: %d %v", r.status, r.body["meta"])
		}
	}
	body := `{"edits": [{"path": "notes.txt", "action": "create", "content": "x\n"}]}`
	if r := do(t, ts, "POST", "/api/v1/tools/write_source", body, inTask); r.status != 200 {
		t.Fatalf("first write: %d %s", r.status, r.raw)
	}
	r = do(t, ts, "POST", "/api/v1/tools/write_source", `{"edits": [{"path": "more.txt", "action": "create", "content": "y\n"}]}`, inTask)
	if r.status != http.StatusConflict || errCode(r) != "TASK_BUDGET_EXCEEDED" {
		t.Fatalf("second write: %d %s", r.status, r.raw)
	}
	if r := do(t, ts, "POST", "/api/v1/tools/search", `{"query": "x"}`, map[string]string{"Authorization": "Bearer " + token, "X-Cairn-Task": "task_nope"}); r.status != 404 {
		t.Errorf("an unknown task: %d %s", r.status, r.raw)
	}

	// The metrics parse and count what happened.
	fams := scrape(t, do(t, ts, "GET", "/metrics", "", h))
	checks := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"cairn_tool_calls_total", map[string]string{"tool": "search", "outcome": "ok"}, 4},
		{"cairn_tool_calls_total", map[string]string{"tool": "write_source", "outcome": "TASK_BUDGET_EXCEEDED"}, 1},
		{"cairn_tool_calls_total", map[string]string{"tool": "search", "outcome": "NOT_FOUND"}, 1},
		{"cairn_tool_duration_seconds", map[string]string{"tool": "search"}, 5},
		{"cairn_task_budget_refusals_total", map[string]string{"budget": "max_mutations"}, 1},
		{"cairn_tasks_open", nil, 1},
		{"cairn_tasks_opened_total", nil, 1},
		{"cairn_task_mutations_total", nil, 1},
		{"cairn_task_budget_used_ratio", map[string]string{"budget": "max_mutations"}, 1},
		{"cairn_index_state", map[string]string{"state": "ready"}, 1},
	}
	for _, c := range checks {
		if got := sum(fams, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	for _, name := range []string{"cairn_index_epoch", "cairn_index_epoch_lag", "cairn_reconcile_duration_seconds", "cairn_tokens_saved_total",
		"go_memstats_heap_alloc_bytes", "process_resident_memory_bytes"} {
		if fams[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}

	// The dashboard's data agrees with the metrics.
	d := do(t, ts, "GET", "/api/v1/dashboard?task="+id, "", h).body
	calls := d["totals"].(map[string]any)["calls"].(float64)
	if want := sum(fams, "cairn_tool_calls_total", nil); calls != want {
		t.Errorf("dashboard calls %v, metrics %v", calls, want)
	}
	if saved := d["totals"].(map[string]any)["tokens_saved"].(float64); saved != sum(fams, "cairn_tokens_saved_total", nil) {
		t.Errorf("dashboard tokens saved %v, metrics %v", saved, sum(fams, "cairn_tokens_saved_total", nil))
	}
	if ops := d["operations"].([]any); d["matched"] != 7.0 || len(ops) != 7 { // task_open, 4 searches, 2 writes
		t.Errorf("operations of the task: matched %v, %d listed", d["matched"], len(ops))
	}
	if st := d["status"].(map[string]any); st["repo"] == nil {
		t.Errorf("dashboard without status: %v", d["status"])
	}
	if d := do(t, ts, "GET", "/api/v1/dashboard?outcome=error", "", h).body; d["matched"] != 2.0 {
		t.Errorf("errors matched %v, want 2", d["matched"])
	}
	_ = svc

	// The page is public (no data in it); its data is not.
	if r := do(t, ts, "GET", "/dashboard/", "", nil); r.status != 200 || !strings.Contains(r.raw, "<title>Cairn dashboard</title>") {
		t.Errorf("dashboard page: %d", r.status)
	}
	if r := do(t, ts, "GET", "/dashboard/app.js", "", nil); r.status != 200 {
		t.Errorf("dashboard script: %d", r.status)
	}
	for _, p := range []string{"/api/v1/dashboard", "/metrics", "/api/v1/openapi.json"} {
		if r := do(t, ts, "GET", p, "", nil); r.status != http.StatusUnauthorized {
			t.Errorf("%s without the token: %d", p, r.status)
		}
	}

	// The OpenAPI document has every tool.
	doc := do(t, ts, "GET", "/api/v1/openapi.json", "", h).body
	paths := doc["paths"].(map[string]any)
	if doc["openapi"] != "3.1.0" {
		t.Errorf("openapi = %v", doc["openapi"])
	}
	for _, tl := range tools.All() {
		if paths["/api/v1/tools/"+tl.Name] == nil {
			t.Errorf("OpenAPI lacks %s", tl.Name)
		}
	}
}

// dashboardCaches are the caches the dashboard's data shows, by name.
func dashboardCaches(t *testing.T, ts *httptest.Server) map[string]map[string]any {
	t.Helper()
	dash := do(t, ts, "GET", "/api/v1/dashboard", "", auth())
	shown := map[string]map[string]any{}
	for _, c := range dash.body["caches"].([]any) {
		c := c.(map[string]any)
		shown[c["cache"].(string)] = c
	}
	return shown
}

// TestCacheHitRates: the views impact analysis builds once per index
// version are counted in /metrics and on the dashboard's data — the first
// call of an epoch misses, the next ones hit, a write starts a new epoch.
// A new file builds the views again; an edit of a file updates them.
func TestCacheHitRates(t *testing.T) {
	ts, _ := start(t, token, service.Options{Serve: true})
	h := auth()
	impact := func() {
		t.Helper()
		if r := do(t, ts, "POST", "/api/v1/tools/impact_analyze", `{"symbol": "server.NewServer"}`, h); r.status != 200 {
			t.Fatalf("impact_analyze: %d %s", r.status, r.raw)
		}
	}
	for range 3 {
		impact()
	}
	if r := do(t, ts, "POST", "/api/v1/tools/write_source",
		`{"edits": [{"path": "extra.go", "action": "create", "content": "package main\n\nvar extra = 1\n"}]}`, h); r.status != 200 {
		t.Fatalf("write_source: %d %s", r.status, r.raw)
	}
	impact()
	if r := do(t, ts, "POST", "/api/v1/tools/write_source",
		`{"edits": [{"path": "extra.go", "action": "update", "content": "package main\n\nvar extra = 2\n"}]}`, h); r.status != 200 {
		t.Fatalf("write_source: %d %s", r.status, r.raw)
	}
	impact()

	fams := scrape(t, do(t, ts, "GET", "/metrics", "", h))
	shown := dashboardCaches(t, ts)
	for _, cache := range []string{"reverse_imports", "reverse_refs"} {
		hits := sum(fams, "cairn_cache_requests_total", map[string]string{"cache": cache, "result": "hit"})
		misses := sum(fams, "cairn_cache_requests_total", map[string]string{"cache": cache, "result": "miss"})
		ratio := sum(fams, "cairn_cache_hit_ratio", map[string]string{"cache": cache})
		// A call may ask for a view more than once; only the first
		// request of each epoch builds it.
		updates := sum(fams, "cairn_cache_updates_total", map[string]string{"cache": cache})
		if misses != 3 || hits < 3 || ratio != hits/(hits+misses) || updates != 1 {
			t.Errorf("%s: %v hits, %v misses (%v updates), hit ratio %v; want 3 misses (one per epoch, the edit's an update) and the rest hits",
				cache, hits, misses, updates, ratio)
		}
		if c := shown[cache]; c == nil || c["hits"] != hits || c["misses"] != misses || c["hit_ratio"] != ratio || c["updates"] != updates {
			t.Errorf("%s on the dashboard: %v, /metrics %v hits %v misses %v updates", cache, c, hits, misses, updates)
		}
	}
}
