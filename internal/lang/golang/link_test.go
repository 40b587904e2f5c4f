package golang

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/lang"
)

// dirResolver answers ModuleOf and Dir from fixed values; the test calls
// nothing else of the Resolver.
type dirResolver struct {
	lang.Resolver
	module lang.Module
	dirs   map[string][]string
}

func (r dirResolver) ModuleOf(string, string) lang.Module { return r.module }
func (r dirResolver) Dir(dir string) []string             { return r.dirs[dir] }

// A dependency vendored under the module's vendor directory does not lead
// outside the repository; the standard library and other dependencies do.
func TestUnvendored(t *testing.T) {
	r := dirResolver{module: lang.Module{Root: "svc"},
		dirs: map[string][]string{"svc/vendor/example.com/dep": {"svc/vendor/example.com/dep/dep.go"}}}
	b := newBatch(r).(*batch)
	facts := &lang.Facts{Imports: []lang.Import{
		{Source: "fmt"}, {Source: "example.com/dep"}, {Source: "example.com/other"}, {Source: "example.com/dep"},
	}}
	got := b.unvendored(lang.File{Path: "svc/main.go", Lang: "go"}, facts, []bool{true, true, true, false})
	if diff := cmp.Diff([]bool{true, false, true, false}, got); diff != "" {
		t.Errorf("outside (-want +got):\n%s", diff)
	}
}

func TestLiteralArgs(t *testing.T) {
	for args, want := range map[string]bool{
		"":                      true,
		"3":                     true,
		" -2.5e+3, 0x1F, 1_000": true,
		`"a, b", 'c', nil`:      true,
		"`raw \\ \"`, true":     true,
		`"esc \" , x"`:          true,
		"x":                     false,
		"3, x":                  false,
		"1 + x":                 false,
		`"open`:                 false,
		`"a" + s`:               false,
		"func() {}":             false,
		"T{}":                   false,
		"-x":                    false,
	} {
		if got := literalArgs(args); got != want {
			t.Errorf("literalArgs(%q) = %v, want %v", args, got, want)
		}
	}
}

func TestSplitAsserted(t *testing.T) {
	type split struct {
		Typ    string
		Fields []string
		OK     bool
	}
	for x, want := range map[string]split{
		"v.(*T)":                  {"T", nil, true},
		"obj.(*v1.PodList).Items": {"v1.PodList", []string{"Items"}, true},
		"a.b.(T).f.g":             {"T", []string{"f", "g"}, true},
		"v.(List[int]).Items":     {"List[int]", []string{"Items"}, true},
		"v.(type)":                {"", nil, false},
		"v.(*T)[0]":               {"", nil, false},
		"v.(*T).f().g":            {"", nil, false},
		"xs":                      {"", nil, false},
		"v.(interface{ M() }).f":  {"", nil, false},
		"v.(*T).a.b.c.d":          {"", nil, false},
	} {
		typ, fields, ok := splitAsserted(x)
		if diff := cmp.Diff(want, split{typ, fields, ok}); diff != "" {
			t.Errorf("splitAsserted(%q) (-want +got):\n%s", x, diff)
		}
	}
}
