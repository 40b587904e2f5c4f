package langutil_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/javascript"
	"github.com/cairnhq/cairn/internal/lang/langutil"
	"github.com/cairnhq/cairn/internal/lang/rust"
	"github.com/cairnhq/cairn/internal/lang/typescript"
)

// TestChildHelpers checks the early-stopping child lookups against the View's
// own, on every node of every fixture file.
func TestChildHelpers(t *testing.T) {
	var archives []string
	for _, dir := range []string{"../typescript/testdata", "../javascript/testdata", "../rust/testdata"} {
		m, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
		archives = append(archives, m...)
	}
	if len(archives) == 0 {
		t.Fatal("no fixtures")
	}
	fields := []string{"name", "value", "body", "source", "left", "right", "function", "arguments", "alias", "key", "declarator", "type"}
	kinds := []string{"identifier", "import_clause", "statement_block", "string", "accessibility_modifier", "field_identifier", "type_identifier"}
	checked := 0
	for _, base := range []*lang.Language{typescript.TypeScript, typescript.TSX, javascript.Language, rust.Language} {
		l := *base // a copy: its own compiled state and a checking Refine
		l.Refine = func(v *lang.View, f *lang.Facts) {
			for n := 0; n < v.Len(); n++ {
				checked++
				if got, want := langutil.Children(v, n), v.Children(n); !slices.Equal(got, want) {
					t.Errorf("%s node %d (%s): children %v, want %v", l.Name, n, v.Kind(n), got, want)
				}
				for _, fl := range fields {
					if got, want := langutil.Child(v, n, fl), v.Child(n, fl); got != want {
						t.Errorf("%s node %d (%s): child %s = %d, want %d", l.Name, n, v.Kind(n), fl, got, want)
					}
				}
				for _, k := range kinds {
					if got, want := langutil.ChildOfKind(v, n, k), v.ChildOfKind(n, k); got != want {
						t.Errorf("%s node %d (%s): child of kind %s = %d, want %d", l.Name, n, v.Kind(n), k, got, want)
					}
				}
			}
		}
		x := lang.NewExtractor()
		for _, a := range archives {
			data, err := os.ReadFile(a)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range txtar.Parse(data).Files {
				if lang.ForPath(f.Name) != base {
					continue
				}
				if _, err := x.Extract(&l, f.Data); err != nil {
					t.Fatal(err)
				}
			}
		}
		x.Close()
	}
	if checked == 0 {
		t.Fatal("no nodes checked")
	}
}
