package lang_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/lang"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/lang/langtest"
)

// Querying a tree band by band finds exactly the captures of one pass: every
// match starts in one band and finishes wherever it needs to. Bands of one
// and two levels cut every fixture of every language into many passes.
func TestQueryBandsFindEveryCapture(t *testing.T) {
	files := 0
	for _, f := range langtest.Files(t, "*/testdata/*.txtar") {
		l := lang.ForFile(f.Name, f.Data)
		if l == nil || l.Grammar == nil {
			continue
		}
		files++
		want, err := lang.QueryCaptures(l, f.Data, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, band := range []uint32{1, 2, 5} {
			got, err := lang.QueryCaptures(l, f.Data, band)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s %s, bands of %d (-one pass +bands):\n%s", f.Archive, f.Name, band, diff)
			}
		}
	}
	if files < 50 {
		t.Errorf("only %d fixture files have a grammar", files)
	}
}

// A deep tree gives the same captures in bands of the size the extractor
// uses as in one pass.
func TestQueryBandsDeepTree(t *testing.T) {
	src := "function f(x) { " + strings.Repeat("if (x) { g(x); } else ", 600) + "{ } }\n"
	l := lang.ForPath("deep.ts")
	want, err := lang.QueryCaptures(l, []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := lang.QueryCaptures(l, []byte(src), 256)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 1800 {
		t.Fatalf("%d captures: the fixture does not exercise the query", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-one pass +bands):\n%s", diff)
	}
}
