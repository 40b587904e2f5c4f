package precision

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCallPosition(t *testing.T) {
	for _, tc := range []struct {
		line string
		col  int
		want bool
	}{
		{"	x := helper(1)", 7, true},
		{"	defer c.Close ()", 10, true},
		{"	v := Map[int, string](xs, f)", 7, true},
		{"	f := helper", 7, false},
		{"	sort.Slice(xs, less)", 17, false},
		{"	return fn.call(this, x)", 9, false},
		{"  const y = create<Foo<T>>(a);", 13, true},
		{"  this.sub!.unsubscribe();", 14, true},
		{"  cb?.(value);", 3, true},
		{"  if (a < b) { run(); }", 7, false},
		{"", 1, false},
	} {
		if got := CallPosition(tc.line, tc.col); got != tc.want {
			t.Errorf("CallPosition(%q, %d) = %v, want %v", tc.line, tc.col, got, tc.want)
		}
	}
}

// TestCallTruth scores callers on a tiny fixture: a.go defines f and
// calls it from g (twice) and h, uses it as a value in k, and calls it at
// top level.
func TestCallTruth(t *testing.T) {
	dir := t.TempDir()
	src := "package a\n" + // 1
		"func f() {}\n" + // 2
		"func g() { f(); f() }\n" + // 3
		"func h() { _ = f }\n" + // 4
		"func k() {\n\tf ()\n}\n" + // 5-7
		"var v = f()\n" + // 8
		"var o = I{f() {}}\n" // 9: a literal's method, declared where it is named
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	files := NewFiles(dir)
	def := Loc{"a.go", 2, 6}
	o := &SCIPOracle{
		Occs: map[string][]Loc{"f": {def, {"a.go", 3, 12}, {"a.go", 3, 17}, {"a.go", 4, 16}, {"a.go", 6, 2}, {"a.go", 8, 9}, {"a.go", 9, 11}}},
		Defs: map[Loc][]string{def: {"f"}},
		Docs: map[string]bool{"a.go": true},
	}
	// Definitions g (line 3), h (4) and k (5-7); the var on line 8 is left
	// out to stand for a call outside every definition.
	enclosing := func(l Loc) (Loc, bool) {
		switch {
		case l.Line == 3:
			return Loc{"a.go", 3, 6}, true
		case l.Line == 4:
			return Loc{"a.go", 4, 6}, true
		case l.Line >= 5 && l.Line <= 7:
			return Loc{"a.go", 5, 6}, true
		case l.Line == 9:
			return Loc{"a.go", 9, 11}, true
		}
		return Loc{}, false
	}
	var st CallStats
	truth, sites := CallTruth(o, files, "f", enclosing, &st)
	g, k := Loc{"a.go", 3, 6}, Loc{"a.go", 5, 6}
	if diff := cmp.Diff(Truth{g: true, k: true}, truth); diff != "" {
		t.Errorf("truth (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[Loc]Loc{g: {"a.go", 3, 12}, k: {"a.go", 6, 2}}, sites); diff != "" {
		t.Errorf("sites (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(CallStats{WithCallers: 1, SiteStats: SiteStats{Refs: 6, Sites: 4, TopLevel: 1, Declarations: 1}}, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}

	// An answer that finds g (strong), misses k and adds h (proven).
	tl := NewTally()
	h := Loc{"a.go", 4, 6}
	tl.Add("f", Answer{g: "strong", h: "proven"}, truth, files)
	withSite(tl.FN, sites, files)
	if p := tl.Precision("proven"); p != 0 {
		t.Errorf("proven precision %v", p)
	}
	if r := tl.RecallUpTo("strong"); r != 0.5 {
		t.Errorf("recall up to strong %v", r)
	}
	want := []Example{{Symbol: "f", Loc: "a.go:5:6", Line: "func k() {", Site: "a.go:6:2", SiteLine: "f ()"}}
	if diff := cmp.Diff(want, tl.FN); diff != "" {
		t.Errorf("misses (-want +got):\n%s", diff)
	}
}

// TestDispatchTruth draws the dispatch callers on a fixture: T.M
// implements I.M and J.M (J.M itself implements K.M); c calls I.M twice,
// d calls J.M and K.M, e calls T.M directly and U.M, which T.M does not
// implement.
func TestDispatchTruth(t *testing.T) {
	dir := t.TempDir()
	src := "package a\n" + // 1
		"func c(i I) { i.M(); i.M() }\n" + // 2
		"func d(j J, k K) {\n\tj.M()\n\tk.M()\n}\n" + // 3-6
		"func e(t T, u U) { t.M(); u.M() }\n" // 7
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	files := NewFiles(dir)
	o := &SCIPOracle{
		Occs: map[string][]Loc{
			"I.M": {{"a.go", 2, 17}, {"a.go", 2, 24}},
			"J.M": {{"a.go", 4, 4}},
			"K.M": {{"a.go", 5, 4}},
			"T.M": {{"a.go", 7, 22}},
			"U.M": {{"a.go", 7, 29}},
		},
		Defs: map[Loc][]string{},
		Docs: map[string]bool{"a.go": true},
		Impl: map[string][]string{"T.M": {"J.M", "I.M"}, "J.M": {"K.M"}},
	}
	if diff := cmp.Diff([]string{"I.M", "J.M", "K.M"}, o.Implemented("T.M")); diff != "" {
		t.Errorf("implemented (-want +got):\n%s", diff)
	}
	c, d := Loc{"a.go", 2, 6}, Loc{"a.go", 3, 6}
	enclosing := func(l Loc) (Loc, bool) {
		switch {
		case l.Line == 2:
			return c, true
		case l.Line >= 3 && l.Line <= 6:
			return d, true
		case l.Line == 7:
			return Loc{"a.go", 7, 6}, true
		}
		return Loc{}, false
	}
	var st DispatchStats
	truth, sites := DispatchTruth(o, files, "T.M", enclosing, &st)
	if diff := cmp.Diff(Truth{c: true, d: true}, truth); diff != "" {
		t.Errorf("truth (-want +got):\n%s", diff)
	}
	want := map[Loc][]Loc{c: {{"a.go", 2, 17}, {"a.go", 2, 24}}, d: {{"a.go", 4, 4}, {"a.go", 5, 4}}}
	if diff := cmp.Diff(want, sites); diff != "" {
		t.Errorf("sites (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(DispatchStats{Implementing: 1, WithCallers: 1, SiteStats: SiteStats{Refs: 4, Sites: 4}}, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	if truth, _ := DispatchTruth(o, files, "U.M", enclosing, &st); len(truth) != 0 || st.Implementing != 1 {
		t.Errorf("a method related to none: truth %v, implementing %d", truth, st.Implementing)
	}

	// Cairn's dispatch edges: c through I.M, first site line 2 (confirmed);
	// d through K.M, said to be on line 3 (the index has no call there);
	// e through U.M (not a caller through dispatch).
	e := Loc{"a.go", 7, 6}
	ct := callTruth{dispatch: truth, dispatchSites: sites, related: true}
	var check DispatchCheck
	check.add(map[Loc][]int{c: {2}, d: {3}, e: {7}}, ct)
	if diff := cmp.Diff(DispatchCheck{Edges: 3, Confirmed: 1}, check); diff != "" {
		t.Errorf("check (-want +got):\n%s", diff)
	}
	check = DispatchCheck{}
	check.add(map[Loc][]int{e: {7}}, callTruth{})
	if diff := cmp.Diff(DispatchCheck{Edges: 1, Unrelated: 1}, check); diff != "" {
		t.Errorf("check of an unrelated callee (-want +got):\n%s", diff)
	}
	tl := NewTally()
	addCalls(tl, "T.M", Answer{c: "strong", e: "strong"}, truth, firstSites(sites), files)
	if tl.ByTier["strong"].True != 1 || tl.FPTotal["strong"] != 1 || tl.FNTotal != 1 || tl.Exact != 0 {
		t.Errorf("tally: %+v", tl)
	}
	wantFN := []Example{{Symbol: "T.M", Loc: "a.go:3:6", Line: "func d(j J, k K) {", Site: "a.go:4:4", SiteLine: "j.M()"}}
	if diff := cmp.Diff(wantFN, tl.FN); diff != "" {
		t.Errorf("misses (-want +got):\n%s", diff)
	}
}
