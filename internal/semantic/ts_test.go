package semantic_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/testenv"
)

// openTSRepo makes a git repository of testdata/tsfixture (a small
// TypeScript project) and imports testdata/tsfixture.scip, which
// scip-typescript produced from it (testdata/gen-ts.sh).
func openTSRepo(t *testing.T) *env {
	t.Helper()
	testenv.Isolate(t)
	files := map[string]string{}
	root := filepath.Join("testdata", "tsfixture")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{root: testenv.Repo(t, files), state: filepath.Join(t.TempDir(), "state")}
	e.open(t)
	t.Cleanup(func() { e.close() })
	b, err := os.ReadFile(filepath.Join("testdata", "tsfixture.scip"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "tsfixture.scip")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	os.Chtimes(p, later, later)
	st, err := semantic.Import(context.Background(), e.ix, semantic.ImportOptions{Path: p, Key: "scip:tsfixture", Source: p})
	if err != nil {
		t.Fatal(err)
	}
	if st.Usable != 2 {
		t.Fatalf("usable documents %d, want 2 (%+v)", st.Usable, st)
	}
	return e
}

// scip-typescript records new Action(...) as a use of Action's constructor,
// not of the class; the class's references still include it (its name is
// written there, and a rename of the class must change it), but not the
// constructor's declaration or a subclass's super(...).
func TestClassRefsIncludeConstructorCalls(t *testing.T) {
	e := openTSRepo(t)
	res := refs(t, e, "src/action.ts#Action", query.RefsParams{})
	if res.Semantic.State != "used" {
		t.Fatalf("semantic layer %+v", res.Semantic)
	}
	got := locs(res, "precise")
	want := []string{
		pos(t, e.root, "src/action.ts", "Action {", 0, 0),   // the declaration
		pos(t, e.root, "src/action.ts", "Action {", 1, 0),   // extends Action
		pos(t, e.root, "src/use.ts", "Action }", 0, 0),      // the import
		pos(t, e.root, "src/use.ts", "Action {", 0, 0),      // the result type
		pos(t, e.root, "src/use.ts", "Action(\"x\")", 0, 0), // new Action("x")
	}
	sort.Strings(want)
	if !equal(got, want) {
		t.Errorf("precise references of Action %v, want %v", got, want)
	}
}
