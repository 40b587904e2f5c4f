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
