package query_test

import (
	"context"
	"testing"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/testenv"
)

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
		if got := string(loc.Path) + ":" + itoa(loc.Line) + " " + r.Def.Signature; got != want {
			t.Errorf("Resolve(%q) = %s, want %s", name, got, want)
		}
	}
	r, err := e.Resolve(ctx, "add")
	if err != nil {
		t.Fatal(err)
	}
	vs, err := e.VariantsOf(ctx, r)
	if err != nil || len(vs) != 1 || vs[0].Location.Path != "a.h" {
		t.Errorf("variants of add = %+v, %v; want the prototype in a.h", vs, err)
	}
	for _, name := range []string{"helper", "Impl::Get"} {
		if _, err := e.Resolve(ctx, name); !errs.Is(err, errs.Ambiguous) {
			t.Errorf("Resolve(%q) = %v, want AMBIGUOUS", name, err)
		}
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
