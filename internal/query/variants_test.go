package query_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/testenv"
)

// TestVariants: a Go function declared once per build is one name with
// variants, the default build's first; init, which a package declares any
// number of times, is not.
func TestVariants(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"go.mod":            "module example.com/app\n\ngo 1.22\n",
		"p/open_windows.go": "package p\n\nfunc open() string { return \"w\" }\n\nfunc init() {}\n",
		"p/open_linux.go":   "package p\n\nfunc open() string { return \"l\" }\n\nfunc init() {}\n",
		"p/open_tagged.go":  "//go:build custom\n\npackage p\n\nfunc open() string { return \"c\" }\n",
		"p/use.go":          "package p\n\nfunc Use() string { return open() }\n",
	}).Engine(t)
	ctx := context.Background()
	r := resolvedIn(t, e, "p.open", "p/open_linux.go") // the default build's
	vs, err := e.VariantsOf(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, string(v.Location.Path)+" "+v.Build)
	}
	want := []string{"p/open_tagged.go custom", "p/open_windows.go windows"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("variants of p.open = %q, want %q", got, want)
	}
	_, err = e.Resolve(ctx, "p.init")
	var ee *errs.Error
	if !errors.As(err, &ee) || ee.Kind != errs.Ambiguous {
		t.Errorf("p.init: %v, want AMBIGUOUS: two inits are two symbols", err)
	}
}

// A C function declared in a header and defined in a source file is one
// function: its name means the definition, which lists the declaration as
// a variant; static functions of one name in two files stay two, and so do
// C++ overloads of one arity, each one with its own definition.
func TestResolveDeclaredApart(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"a.h":      "#ifndef A_H\n#define A_H\nint add(int a, int b);\n#endif\n",
		"a.c":      "#include \"a.h\"\n\nint add(int x, int y) { return x + y; }\n",
		"main.c":   "#include \"a.h\"\n\nint main(void) { return add(1, 2); }\n",
		"x.c":      "static int helper(void) { return 1; }\n",
		"y.c":      "static int helper(void) { return 2; }\n",
		"impl.hpp": "class Impl {\n public:\n  int Get(int k);\n  int Get(const char* k);\n};\n",
		"impl.cc":  "#include \"impl.hpp\"\n\nint Impl::Get(int key) { return key; }\nint Impl::Get(const char *key) { return 0; }\n",
	}).Engine(t)
	ctx := context.Background()
	for name, want := range map[string]string{
		"add":                    "a.c:3 int add(int x, int y)",
		"a.h#add":                "a.h:3 int add(int a, int b)",
		"Impl::Get(int)":         "impl.cc:3 int Impl::Get(int key)",
		"Impl::Get(const char*)": "impl.cc:4 int Impl::Get(const char *key)",
	} {
		r, err := e.Resolve(ctx, name)
		if err != nil {
			t.Errorf("Resolve(%q): %v", name, err)
			continue
		}
		loc := r.Ref().Location
		if got := fmt.Sprintf("%s:%d", loc.Path, loc.Line) + " " + r.Def.Signature; got != want {
			t.Errorf("Resolve(%q) = %s, want %s", name, got, want)
		}
	}
	vs, err := e.VariantsOf(ctx, resolvedIn(t, e, "add", "a.c"))
	if err != nil || len(vs) != 1 || vs[0].Location.Path != "a.h" || vs[0].Label() != "declaration" {
		t.Errorf("variants of add = %+v, %v; want the declaration in a.h", vs, err)
	}
	for _, name := range []string{"helper", "Impl::Get"} {
		if _, err := e.Resolve(ctx, name); !errs.Is(err, errs.Ambiguous) {
			t.Errorf("Resolve(%q) = %v, want AMBIGUOUS", name, err)
		}
	}
}

// A C# partial class is one type declared in parts: its name means the
// part in the file named after it, the others are its variants, and its
// card lists the members of every part. Two classes of one name without
// partial stay two.
func TestResolvePartialTypes(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"Form1.cs":          "namespace App {\n  public partial class Form1 {\n    public void Load() {}\n  }\n}\n",
		"Form1.Designer.cs": "namespace App {\n  partial class Form1 {\n    private void InitializeComponent() {}\n  }\n}\n",
		"A/Dup.cs":          "namespace App {\n  class Dup {}\n}\n",
		"B/Dup.cs":          "namespace App {\n  class Dup {}\n}\n",
	}).Engine(t)
	ctx := context.Background()
	r := resolvedIn(t, e, "Form1", "Form1.cs")
	card, err := e.Card(ctx, r, query.CardLimits{Members: 10, Calls: 1})
	if err != nil {
		t.Fatal(err)
	}
	var members []string
	for _, m := range card.Members {
		members = append(members, m.Name)
	}
	if len(card.Variants) != 1 || card.Variants[0].Location.Path != "Form1.Designer.cs" || card.MembersTotal != 2 ||
		!slices.Equal(members, []string{"Load", "InitializeComponent"}) {
		t.Errorf("card of Form1: variants %+v, members %v of %d; want the designer part and both parts' members", card.Variants, members, card.MembersTotal)
	}
	if _, err := e.Resolve(ctx, "App.Dup"); !errs.Is(err, errs.Ambiguous) {
		t.Errorf("Resolve(App.Dup) = %v, want AMBIGUOUS: neither is partial", err)
	}
}

// resolvedIn resolves name and checks the file that defines what it names.
func resolvedIn(t *testing.T, e *query.Engine, name, path string) *query.Resolved {
	t.Helper()
	r, err := e.Resolve(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	if r.File.Path != path {
		t.Errorf("%s resolves to a symbol in %s, want %s", name, r.File.Path, path)
	}
	return r
}
