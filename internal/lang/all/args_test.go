package all_test

import (
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
)

// TestCallArgs checks that each call counts the arguments it passes
// (Ref.Args, 1 + their number), which tells overloads apart.
func TestCallArgs(t *testing.T) {
	cases := []struct {
		file, src string
		want      map[string]uint16 // called name -> Args
	}{
		{"A.java", "class A { void f() { g(); h(1, 2); new B(3); x.k(\"a\", 1, 2); } }",
			map[string]uint16{"g": 1, "h": 3, "B": 2, "k": 4}},
		{"A.cs", "class A { void F() { G(); H(1, b: 2); new B(3); new C { X = 1 }; } }",
			map[string]uint16{"G": 1, "H": 3, "B": 2, "C": 1}},
		{"a.kt", "fun f() { g(); h(1, 2); p.run(1) { }; q.each { } }",
			map[string]uint16{"g": 1, "h": 3, "run": 3, "each": 2}},
		{"a.cpp", "void f() { g(); h(1, 2); auto p = new B(3); }",
			map[string]uint16{"g": 1, "h": 3, "B": 2}},
		{"a.go", "package a\nfunc f() { g(); h(1, 2); k(xs...) }",
			map[string]uint16{"g": 1, "h": 3, "k": 0}},
	}
	x := lang.NewExtractor()
	defer x.Close()
	for _, c := range cases {
		l := lang.ForPath(c.file)
		facts, err := x.Extract(l, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]uint16{}
		for _, r := range facts.Refs {
			if r.Role == lang.RoleCall {
				got[facts.Names[r.Name]] = r.Args
			}
		}
		for name, want := range c.want {
			if g, ok := got[name]; !ok || g != want {
				t.Errorf("%s: call of %s has Args %d (found: %v), want %d", c.file, name, g, ok, want)
			}
		}
	}
}
