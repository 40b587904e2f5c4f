package lang_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langtest"
)

// nest writes n levels of open (with the level for %d) around inner, then
// the closers.
func nest(open, inner, closer string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.ReplaceAll(open, "%d", fmt.Sprint(i)))
	}
	b.WriteString(inner)
	b.WriteString(strings.Repeat(closer, n))
	return b.String()
}

// indent writes n levels of an indented block header (Python).
func indent(line, inner string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat("\t", i) + strings.ReplaceAll(line, "%d", fmt.Sprint(i)) + "\n")
	}
	b.WriteString(strings.Repeat("\t", n) + inner + "\n")
	return b.String()
}

// level is how many definitions enclose Defs[i], itself included.
func level(f *lang.Facts, i int32) int {
	n := 0
	for ; i >= 0; i = f.Defs[i].Parent {
		n++
	}
	return n
}

func extract(t *testing.T, path, src string) *lang.Facts {
	t.Helper()
	l := lang.ForFile(path, []byte(src))
	if l == nil {
		t.Fatalf("no language for %s", path)
	}
	return langtest.Extract(t, l, []byte(src))
}

// Definitions nested deeper than MaxNesting are not created in any
// language: the outer ones are, their paths stay short, what the deeper ones
// contain belongs to the innermost one kept, and the facts say the bound was
// reached.
func TestNestingBound(t *testing.T) {
	const n = 3 * lang.MaxNesting
	for _, c := range []struct {
		path, src string
		outer     string // the path of the level-2 definition
	}{
		{"a.ts", nest("function f%d() { ", "g();", "}", n), "f0.f1"},
		{"a.tsx", nest("function f%d() { ", "g();", "}", n), "f0.f1"},
		{"a.js", nest("function f%d() { ", "g();", "}", n), "f0.f1"},
		{"a.py", indent("def f%d():", "g()", n), "f0.f1"},
		{"a.rs", nest("mod m%d { ", "fn g() { h(); }", "}", n), "m0.m1"},
		{"b.rs", nest("fn f%d() { ", "g();", "}", n), "f0.f1"},
		{"a.cpp", nest("namespace n%d { ", "void g() { h(); }", "}", n), "n0.n1"},
		{"a.java", nest("class C%d { ", "void g() { h(); }", "}", n), "C0.C1"},
		{"a.cs", nest("class C%d { ", "void G() { H(); }", "}", n), "C0.C1"},
		{"a.kt", nest("fun f%d() { ", "g()", "}", n), "f0.f1"},
		{"a.rb", nest("module M%d\n", "def g\n  h\nend\n", "end\n", n), "M0.M1"},
		{"a.php", "<?php\n" + nest("function f%d() { ", "g();", "}", n), "f0.f1"},
		{"a.go", "package p\n\ntype T " + nest("struct { F%d ", "int", "}", n) + "\n", "T.F0"},
	} {
		t.Run(c.path, func(t *testing.T) {
			f := extract(t, c.path, c.src)
			if f.Limits&lang.LimitNesting == 0 {
				t.Errorf("Limits = %v, want the nesting bound", f.Limits)
			}
			deepest, outer := 0, false
			for i, d := range f.Defs {
				deepest = max(deepest, level(f, int32(i)))
				outer = outer || d.Path == c.outer
				if len(d.Path) > lang.MaxPath {
					t.Errorf("path of %d bytes", len(d.Path))
				}
			}
			if deepest != lang.MaxNesting || !outer {
				t.Errorf("deepest definition at level %d (want %d), %s found: %v", deepest, lang.MaxNesting, c.outer, outer)
			}
			if len(f.Defs) > 2*lang.MaxNesting+2 {
				t.Errorf("%d definitions", len(f.Defs))
			}
			// the innermost call belongs to a definition at the bound
			last := f.Refs[len(f.Refs)-1]
			if last.Enclosing < 0 || level(f, last.Enclosing) < lang.MaxNesting-1 {
				t.Errorf("innermost reference %s enclosed by a definition at level %d", f.Names[last.Name], level(f, last.Enclosing))
			}
			if f.ParseErrors != 0 {
				t.Errorf("%d parse errors: the fixture is not valid code", f.ParseErrors)
			}
		})
	}
}

// Scopes nested deeper than MaxScopeNesting merge into their ancestor at
// that level; names still bind to the locals of the outer scopes.
func TestScopeNestingBound(t *testing.T) {
	src := "package p\n\nfunc f(x int) { " + strings.Repeat("{ _ = x; ", 2*lang.MaxScopeNesting) + strings.Repeat("}", 2*lang.MaxScopeNesting) + " }\n"
	f := extract(t, "a.go", src)
	if f.Limits&lang.LimitNesting == 0 {
		t.Errorf("Limits = %v, want the nesting bound", f.Limits)
	}
	deepest := 0
	for i := range f.Scopes {
		n := 0
		for s := int32(i); s >= 0; s = f.Scopes[s].Parent {
			n++
		}
		deepest = max(deepest, n)
	}
	if deepest != lang.MaxScopeNesting {
		t.Errorf("deepest scope at level %d, want %d", deepest, lang.MaxScopeNesting)
	}
	bound := 0
	for _, r := range f.Refs {
		if f.Names[r.Name] == "x" && r.BindLocal >= 0 {
			bound++
		}
	}
	if bound != 2*lang.MaxScopeNesting {
		t.Errorf("%d of %d uses of x bind to the parameter", bound, 2*lang.MaxScopeNesting)
	}
}

// Lexical paths are cut at MaxPath bytes however long the names they join,
// and definitions whose cut paths are equal keep distinct ordinals.
func TestPathBound(t *testing.T) {
	long := strings.Repeat("A", 3*lang.MaxPath)
	var b strings.Builder
	fmt.Fprintf(&b, "class %s {\n", long)
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "  m%d() {}\n", i)
	}
	b.WriteString("}\n")
	for _, path := range []string{"a.ts", "a.json", "a.md"} {
		src := b.String()
		switch path {
		case "a.json":
			src = fmt.Sprintf(`{"%s": {"a": 1, "b": 2}}`, long)
		case "a.md":
			src = fmt.Sprintf("# %s\n\n## a\n\n## b\n", long)
		}
		f := extract(t, path, src)
		if f.Limits&lang.LimitPath == 0 {
			t.Errorf("%s: Limits = %v, want the path bound", path, f.Limits)
		}
		seen := map[string]bool{}
		for _, d := range f.Defs {
			if len(d.Path) > lang.MaxPath {
				t.Errorf("%s: path of %d bytes", path, len(d.Path))
			}
			key := fmt.Sprintf("%s#%d", d.Path, d.Dup)
			if seen[key] {
				t.Errorf("%s: two definitions are %s", path, key)
			}
			seen[key] = true
		}
		if len(f.Defs) < 3 || f.Defs[0].Name != long {
			t.Errorf("%s: %d definitions, the first named %.10q…", path, len(f.Defs), f.Defs[0].Name)
		}
	}
}

// No fixture of any language reaches a bound: ordinary code is untouched.
func TestFixturesWithinBounds(t *testing.T) {
	for _, file := range langtest.Files(t, "*/testdata/*.txtar") {
		if lang.ForFile(file.Name, file.Data) == nil {
			continue
		}
		if f := extract(t, file.Name, string(file.Data)); f.Limits != 0 {
			t.Errorf("%s %s: Limits %v", file.Archive, file.Name, f.Limits)
		}
	}
}

// The bounds a file reached survive the blob store's encoding.
func TestLimitsEncoded(t *testing.T) {
	f := extract(t, "a.ts", nest("function f%d() { ", "", "}", 2*lang.MaxNesting))
	got, err := lang.Decode(lang.Encode(f))
	if err != nil {
		t.Fatal(err)
	}
	if got.Limits != lang.LimitNesting {
		t.Errorf("decoded Limits %v, want %v", got.Limits, lang.LimitNesting)
	}
}

// RemoveDefs points whatever pointed at a removed definition to its nearest
// kept ancestor: parents, enclosing definitions of references, dynamic sites
// and surfaces.
func TestRemoveDefs(t *testing.T) {
	f := &lang.Facts{
		Defs: []lang.Def{
			{Name: "a", Path: "a", Parent: -1},
			{Name: "b", Path: "a.b", Parent: 0},
			{Name: "c", Path: "a.b.c", Parent: 1},
			{Name: "d", Path: "a.b.c.d", Parent: 2},
			{Name: "e", Path: "e", Parent: -1},
		},
		Refs:     []lang.Ref{{Enclosing: 3, BindDef: 2}, {Enclosing: 4, BindDef: 4}},
		TypeRels: []lang.TypeRel{{Def: 2}, {Def: 4}},
		Dynamic:  []lang.DynamicSite{{Enclosing: 3}},
		Surfaces: []lang.Surface{{Def: 2}, {Def: 4}},
	}
	lang.RemoveDefs(f, []bool{false, true, true, false, false})
	var parents []int32
	for _, d := range f.Defs {
		parents = append(parents, d.Parent)
	}
	if fmt.Sprint(parents) != "[-1 0 -1]" {
		t.Errorf("parents %v, want [-1 0 -1]", parents)
	}
	if r := f.Refs; r[0].Enclosing != 1 || r[0].BindDef != -1 || r[1].Enclosing != 2 || r[1].BindDef != 2 {
		t.Errorf("refs %+v", r)
	}
	if len(f.TypeRels) != 2 || f.TypeRels[0].Def != 0 || f.TypeRels[1].Def != 2 {
		t.Errorf("type relations %+v", f.TypeRels)
	}
	if f.Dynamic[0].Enclosing != 1 || f.Surfaces[0].Def != 0 || f.Surfaces[1].Def != 2 {
		t.Errorf("dynamic %+v, surfaces %+v", f.Dynamic, f.Surfaces)
	}
}
