package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

// TestAnswerCache: a server answers a read call repeated on an unchanged
// repository from its answer cache, with the same answer, and counts it in
// /metrics and on the dashboard; an edit, a change of HEAD and a reindex
// each make the next call compute its answer again, and that answer is the
// new one. Not-found answers go to the negative cache; calls through an
// overlay are never cached.
func TestAnswerCache(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	h := auth()
	call := func(tool, args string) reply {
		t.Helper()
		r := do(t, ts, "POST", "/api/v1/tools/"+tool, args, h)
		if r.body == nil {
			t.Fatalf("%s: %d %s", tool, r.status, r.raw)
		}
		return r
	}
	// A hit says so in timing_ms ("cache" instead of "run").
	hit := func(r reply) bool {
		timing := r.body["meta"].(map[string]any)["timing_ms"].(map[string]any)
		_, cached := timing["cache"]
		_, ran := timing["run"]
		if cached == ran {
			t.Fatalf("timing_ms %v has both or neither of cache and run", timing)
		}
		return cached
	}
	// same compares two envelopes but for what varies per call.
	same := func(a, b reply) string {
		strip := func(r reply) map[string]any {
			out := map[string]any{}
			for k, v := range r.body {
				if k != "meta" {
					out[k] = v
				}
			}
			meta := r.body["meta"].(map[string]any)
			out["tokens"], out["tokens_saved"] = meta["tokens"], meta["tokens_saved"]
			return out
		}
		return cmp.Diff(strip(a), strip(b))
	}
	card := `{"symbol": "server.NewServer"}`
	want := map[string][2]int{} // cache -> hits, misses seen

	first := call("symbol_get", card)
	if hit(first) {
		t.Fatal("the first call was a hit")
	}
	// The same call, its arguments in another order and with a deadline
	// (which does not change a complete answer): hits, same answer.
	for _, args := range []string{card, `{"timeout_ms": 5000, "symbol": "server.NewServer"}`} {
		again := call("symbol_get", args)
		if !hit(again) {
			t.Fatalf("symbol_get %s on an unchanged repository was computed again", args)
		}
		if d := same(first, again); d != "" {
			t.Errorf("the cached answer differs (-computed +cached):\n%s", d)
		}
		if a, b := rawData(t, first), rawData(t, again); a != b {
			t.Errorf("the cached data differ from the computed:\n%s\n%s", a, b)
		}
	}
	// Data with HTML characters are sent as computed, unescaped.
	html := `{"query": "return &Server{", "mode": "lexical"}`
	computed, cached := call("search", html), call("search", html)
	if hit(computed) || !hit(cached) {
		t.Fatalf("search twice: hit %v then %v: %s", hit(computed), hit(cached), computed.raw)
	}
	if a, b := rawData(t, computed), rawData(t, cached); a != b || !strings.Contains(a, "&Server") {
		t.Errorf("the cached data differ from the computed, or miss the line found:\n%s\n%s", a, b)
	}
	want["query"] = [2]int{3, 2}

	// Not found: the negative cache.
	for i, missing := range []bool{false, true} {
		r := call("symbol_get", `{"symbol": "server.NoSuchThing"}`)
		if code := r.body["error"].(map[string]any)["code"]; code != "NOT_FOUND" || hit(r) != missing {
			t.Fatalf("call %d of a missing name: %v, hit %v", i, code, hit(r))
		}
	}
	want["negative"] = [2]int{1, 1}

	// An edit: the next call computes the new card.
	if r := call("write_source", `{"edits": [{"path": "server/server.go", "action": "update", "spans": [{"start_line": 64, "expected": "// NewServer makes a Server listening on addr.", "new_text": "// NewServer builds a Server listening on addr."}]}]}`); r.status != 200 {
		t.Fatalf("write_source: %d %s", r.status, r.raw)
	}
	edited := call("symbol_get", card)
	if hit(edited) || !strings.Contains(edited.raw, "builds a Server") {
		t.Fatalf("after an edit: hit %v, answer %s", hit(edited), edited.raw)
	}
	if !hit(call("symbol_get", card)) {
		t.Fatal("the card of the edited tree was not kept")
	}
	// The name that was missing is still missing, in a new state: computed.
	if r := call("symbol_get", `{"symbol": "server.NoSuchThing"}`); hit(r) {
		t.Fatal("a negative answer of the old state was served after an edit")
	}
	want["query"] = [2]int{4, 3}
	want["negative"] = [2]int{1, 2}

	// A commit changes HEAD (the tree's content stays).
	root := svc.Paths().Root
	testenv.Git(t, root, "commit", "-qam", "reword")
	committed := call("symbol_get", card)
	if hit(committed) {
		t.Fatal("after a commit the card was served from the cache")
	}
	if first.body["provenance"].(map[string]any)["head"] == committed.body["provenance"].(map[string]any)["head"] {
		t.Fatal("the commit did not change the head the answer reports")
	}
	// A reindex.
	if r := call("index_ensure", `{"full": true}`); r.status != 200 {
		t.Fatalf("index_ensure: %d %s", r.status, r.raw)
	}
	if hit(call("symbol_get", card)) {
		t.Fatal("after a full reindex the card was served from the cache")
	}
	want["query"] = [2]int{4, 5}

	// Views: map_repo twice.
	if hit(call("map_repo", `{}`)) || !hit(call("map_repo", `{}`)) {
		t.Fatal("map_repo: want a miss then a hit")
	}
	want["view"] = [2]int{1, 1}

	// Through an overlay: never cached.
	eph := `{"symbol": "server.NewServer", "consistency": "ephemeral", "virtual_files": [{"path": "server/extra.go", "content": "package server\n"}]}`
	for range 2 {
		if hit(call("symbol_get", eph)) {
			t.Fatal("a call through an overlay was served from the cache")
		}
	}

	fams := scrape(t, do(t, ts, "GET", "/metrics", "", h))
	shown := dashboardCaches(t, ts)
	for cache, w := range want {
		hits := sum(fams, "cairn_cache_requests_total", map[string]string{"cache": cache, "result": "hit"})
		misses := sum(fams, "cairn_cache_requests_total", map[string]string{"cache": cache, "result": "miss"})
		if hits != float64(w[0]) || misses != float64(w[1]) {
			t.Errorf("/metrics %s cache: %v hits, %v misses; want %v", cache, hits, misses, w)
		}
		if c := shown[cache]; c == nil || c["hits"] != hits || c["misses"] != misses {
			t.Errorf("%s cache on the dashboard: %v", cache, c)
		}
	}
}

// TestOneShotCallsInServerTotals: the repository's savings a server shows
// (status, dashboard) count the one-shot CLI calls other processes record
// in the ledger while it runs, once each.
func TestOneShotCallsInServerTotals(t *testing.T) {
	ts, svc := start(t, token, service.Options{Serve: true})
	h := auth()
	repoTotals := func() (calls, saved float64) {
		t.Helper()
		r := do(t, ts, "GET", "/api/v1/dashboard", "", h)
		s := r.body["savings"].(map[string]any)["repository"].(map[string]any)
		return s["calls"].(float64), s["tokens_saved"].(float64)
	}
	calls0, saved0 := repoTotals()
	// What a CLI command run beside the server records.
	env := &protocol.Envelope{Meta: protocol.Meta{RequestID: "req_x", Tokens: 100, TokensSaved: 900}}
	for range 2 {
		if err := obs.RecordOneShot(context.Background(), svc.Paths().StateDir, "search", env, time.Now(), false); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 2 { // read twice: counted once
		calls, saved := repoTotals()
		if calls != calls0+2 || saved != saved0+1800 {
			t.Errorf("read %d: repository totals %v calls, %v saved; want %v, %v", i, calls, saved, calls0+2, saved0+1800)
		}
	}
}

// rawData is the data of a reply as sent.
func rawData(t *testing.T, r reply) string {
	t.Helper()
	var env map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.raw), &env); err != nil {
		t.Fatal(err)
	}
	return string(env["data"])
}
