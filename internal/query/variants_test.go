package query_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cairnhq/cairn/internal/errs"
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
	r, err := e.Resolve(ctx, "p.open")
	if err != nil {
		t.Fatal(err)
	}
	if r.File.Path != "p/open_linux.go" {
		t.Errorf("p.open resolves to %s, want the default build's p/open_linux.go", r.File.Path)
	}
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
