package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A corpus record as a run writes it, read back from JSON as the report does.
const runRecord = `{
 "name": "go_med", "index": {"seconds": 6}, "ctags": {"seconds": 1.5, "peak_rss_mb": 20},
 "queries": {"refs": {"n": 640, "p50_ms": 1.5, "p99_ms": 30}, "refs_cpu": {"p50_ms": 1.2, "p99_ms": 9}, "lookups_ambiguous_or_missing": 360},
 "lexical": {"literal": {"p50_ms": 4}, "literal_cpu": {"p50_ms": 3}, "scan_literal": {"p50_ms": 40}, "count_mismatches": []},
 "rg": {"cairn_literal": {"p50_ms": 50}, "rg_same_count_literal": {"p50_ms": 20}, "cairn_regex": {"p50_ms": 60}, "rg_same_count_regex": {"p50_ms": 25}},
 "incremental": {"a.go": {"body_edit": {"p50_ms": 30}}},
 "edit_to_answer": {"a.go": {"p50_ms": 45, "p99_ms": 70, "missed": 0}},
 "impact_after_edit": {"a.go": {"p50_ms": 250}},
 "profiles": {"index": {"what": "cold build", "samples": 5000, "flat": [{"func": "runtime.mallocgc", "ms": 500, "pct": 10}],
   "cum": [{"func": "internal/index.(*Index).Reconcile", "ms": 4000, "pct": 80}]}}
}`

func TestSpeedTargets(t *testing.T) {
	var c Corpus
	if err := json.Unmarshal([]byte(runRecord), &c); err != nil {
		t.Fatal(err)
	}
	got := map[string]target{}
	for _, tg := range speedTargets([]Corpus{c, {Name: "lang_c", Index: Timed{Seconds: 1}}}) {
		got[tg.name+" @ "+tg.corpus] = tg
	}
	want := map[string]bool{ // target -> met
		"full index ≤ 3x ctags @ go_med":                   false, // 6 s against 3 x 1.5 s
		"full index peak RSS ≤ 500 MB @ go_med":            false, // no RSS measured is not a pass
		"CLI query, no server, ≤ rg @ go_med":              false,
		"edit to answer ≤ 50 ms @ go_med a.go":             true,
		"references p50 ≤ 2 ms, p99 ≤ 20 ms @ go_med":      false, // p99 30 ms
		"lexical literal, first page, p50 ≤ 2 ms @ go_med": false,
		"impact after a change ≤ 100 ms @ go_med a.go":     false,
	}
	if len(got) != len(want) {
		t.Errorf("targets = %v, want %d (the language corpus has none)", keysOf(got), len(want))
	}
	for k, met := range want {
		tg, ok := got[k]
		if !ok {
			t.Errorf("missing target %q", k)
			continue
		}
		if tg.met != met {
			t.Errorf("%s: met = %v, want %v (%+v)", k, tg.met, met, tg)
		}
	}
	if r := got["full index ≤ 3x ctags @ go_med"].ratio; r != "4.0x" {
		t.Errorf("index ratio = %q", r)
	}

	var b strings.Builder
	targetsMarkdown(func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }, []Corpus{c})
	md := b.String()
	for _, s := range []string{"| full index ≤ 3x ctags | go_med | 6.00 s | ctags over the same files 1.50 s | 4.0x | **no** | go_med / index |",
		"**go_med / index** — cold build, 5000 ms sampled.", "`internal/index.(*Index).Reconcile` 80%"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %q:\n%s", s, md)
		}
	}
}

func keysOf(m map[string]target) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
