package semantic_test

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/testenv"
)

// openTSRepo makes a git repository of testdata/tsfixture (a small
// TypeScript project) and imports testdata/tsfixture.scip, which
// scip-typescript produced from it (testdata/gen-ts.sh).
func openTSRepo(t *testing.T) *env {
	t.Helper()
	e := openFixture(t, "tsfixture")
	p := testenv.SemanticIndex(t, "tsfixture")
	st, err := semantic.Import(context.Background(), e.ix, semantic.ImportOptions{Path: p, Key: "scip:tsfixture", Source: p})
	if err != nil {
		t.Fatal(err)
	}
	if st.Usable != 6 {
		t.Fatalf("usable documents %d, want 6 (%+v)", st.Usable, st)
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

// A SCIP index records no JSDoc link ({@link Action}); where the semantic
// layer answers for a file, the links that syntax resolves still count,
// as the TypeScript language service counts them (and a rename changes
// them).
func TestDocLinksBesideTheSemanticLayer(t *testing.T) {
	e := openTSRepo(t)
	for name, want := range map[string]string{
		"src/action.ts#Action": pos(t, e.root, "src/use.ts", "Action}", 0, 0),
		"src/use.ts#make":      pos(t, e.root, "src/use.ts", "make}", 0, 0),
	} {
		res := refs(t, e, name, query.RefsParams{})
		if res.Semantic.State != "used" {
			t.Fatalf("%s: semantic layer %+v", name, res.Semantic)
		}
		found := false
		for _, l := range res.Locations {
			if fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Col) == want {
				found = l.Kind == "doc" && l.Layer == query.LayerSyntactic
			}
		}
		if !found {
			t.Errorf("%s: no doc reference at %s in %+v", name, want, res.Locations)
		}
	}
}
