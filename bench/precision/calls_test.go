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
	if diff := cmp.Diff(CallStats{WithCallers: 1, Refs: 6, Sites: 4, TopLevel: 1, Declarations: 1}, st); diff != "" {
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
