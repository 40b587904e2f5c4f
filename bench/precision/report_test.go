package precision

import (
	"strings"
	"testing"
)

func TestSplice(t *testing.T) {
	doc := "# Results\n\n## Other\nkept\n"
	once := Splice(doc, "## Precision\nv1\n")
	want := doc + "\n" + beginMarker + "\n## Precision\nv1\n" + endMarker + "\n"
	if once != want {
		t.Fatalf("first splice:\n%s", once)
	}
	twice := Splice(once+"## After\nalso kept\n", "## Precision\nv2\n")
	want = doc + "\n" + beginMarker + "\n## Precision\nv2\n" + endMarker + "\n\n## After\nalso kept\n"
	if twice != want {
		t.Fatalf("second splice:\n%q\nwant\n%q", twice, want)
	}
}

func TestTally(t *testing.T) {
	files := NewFiles(t.TempDir())
	tl := NewTally()
	a, b, c, d := Loc{"a", 1, 1}, Loc{"a", 2, 1}, Loc{"b", 1, 1}, Loc{"b", 2, 1}
	tl.Add("S", Answer{a: "proven", b: "strong", c: "anchored", d: "anchored"}, Truth{a: true, b: true, c: true}, files)
	if p := tl.Precision("strong"); p != 1 {
		t.Errorf("strong precision %v", p)
	}
	if p := tl.Precision("anchored"); p != 0.5 {
		t.Errorf("anchored precision %v", p)
	}
	if r := tl.RecallUpTo("strong"); r < 0.66 || r > 0.67 {
		t.Errorf("recall up to strong %v", r)
	}
	if r := tl.RecallUpTo("anchored"); r != 1 {
		t.Errorf("recall up to anchored %v", r)
	}
	if tl.Exact != 0 || tl.WeakTotal != 1 || tl.FPTotal["anchored"] != 1 {
		t.Errorf("exact %d weak %d fp %v", tl.Exact, tl.WeakTotal, tl.FPTotal)
	}
}

// TestMarkdownKeepsFidelityApart: the semantic layer scored against its
// own SCIP index never appears as a precision row, and the language
// server's start-up is not counted as query time.
func TestMarkdownKeepsFidelityApart(t *testing.T) {
	files := NewFiles(t.TempDir())
	a, b := Loc{"a", 1, 1}, Loc{"a", 2, 1}
	tally := func(ans Answer) *Tally {
		tl := NewTally()
		tl.Add("S", ans, Truth{a: true, b: true}, files)
		return tl
	}
	r := &Result{Name: "go_med", Lang: "go", Oracle: "scip-go", LSP: "/tools/gopls", Sample: 10, LSPSample: 5,
		TimingMS: map[string]int64{"cairn_index": 3000, "cairn_refs_syntactic": 100, "cairn_refs_semantic": 200,
			"lsp_start": 20000, "lsp_first_query": 900, "lsp_warm_queries": 40},
		Tallies: map[string]*Tally{
			"syntactic@scip": tally(Answer{a: "proven"}),
			"semantic@scip":  tally(Answer{a: "precise", b: "precise"}),
			"semantic@lsp":   tally(Answer{a: "precise"}),
		}}
	md := Markdown([]*Result{r})
	precisionTable, rest, _ := strings.Cut(md, "Importer fidelity")
	if strings.Contains(precisionTable, "| go_med | with semantic layer | scip-go |") {
		t.Errorf("the semantic layer is scored as precision against the index it imported:\n%s", precisionTable)
	}
	if !strings.Contains(precisionTable, "| go_med | with semantic layer | gopls |") {
		t.Errorf("no precision row against the language server:\n%s", precisionTable)
	}
	if !strings.Contains(rest, "| go_med | scip-go | 1 | 1 | 2 | 2 | 0 | 0 |") {
		t.Errorf("fidelity row missing:\n%s", rest)
	}
	// 100 ms over 10 symbols; 40 ms over the 4 warm queries; start-up apart.
	if !strings.Contains(rest, "| go_med | 3.0 s | 10.0 ms | 20.0 ms | 20.0 s | 900 ms | 10.0 ms |") {
		t.Errorf("timings row:\n%s", rest)
	}
}

// TestCallsMarkdownDispatchApart: the direct callers' row counts only the
// direct edges, and the dispatch callers get their own table with the
// check of their first call sites.
func TestCallsMarkdownDispatchApart(t *testing.T) {
	files := NewFiles(t.TempDir())
	a, b, c := Loc{"a", 1, 1}, Loc{"a", 2, 1}, Loc{"a", 3, 1}
	direct, dispatch := NewTally(), NewTally()
	direct.Add("S", Answer{a: "strong", b: "proven"}, Truth{a: true, b: true}, files)
	dispatch.Add("S", Answer{c: "strong", a: "strong"}, Truth{c: true}, files)
	r := &Result{Name: "go_med", Lang: "go", Calls: &CallResult{
		Stats:    CallStats{Symbols: 1, WithCallers: 1, SiteStats: SiteStats{Sites: 2}, Dispatch: DispatchStats{Implementing: 1, WithCallers: 1, SiteStats: SiteStats{Sites: 3}}},
		Tallies:  map[string]*Tally{"syntactic@scip": direct, "syntactic-dispatch@scip": dispatch},
		Dispatch: map[string]*DispatchCheck{"syntactic": {Edges: 2, Confirmed: 1}},
		TimingMS: map[string]int64{},
	}}
	var md strings.Builder
	callsMarkdown(&md, []*Result{r})
	for _, row := range []string{
		"| go_med | 1 | 1 | 2 | 0 | 0 | 0 | syntactic layer | 1 | 2 | proven | 1 | 1.000 | 0.500 |",
		"| | | | | | | | | | | strong | 1 | 1.000 | 1.000 |",
		"| go_med | 1 | 1 | 3 | syntactic layer | 0 | 1 | strong | 2 | 0.500 | 1.000 | 2 | 1 | 0 |",
		"**go_med, dispatch callers on the syntactic layer** — not in the index: 1 strong; missed: 0",
	} {
		if !strings.Contains(md.String(), row) {
			t.Errorf("no line %q in:\n%s", row, md.String())
		}
	}
}
