package semantic_test

import (
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/cairnhq/cairn/internal/graph"
)

// callers lists the callers of a symbol on the semantic layer as
// "caller dispatch through" (dispatch and through empty for a direct call).
func callers(t *testing.T, e *env, name string) []string {
	t.Helper()
	ctx := context.Background()
	eng := e.q()
	r, err := eng.Resolve(ctx, name)
	if err != nil {
		t.Fatalf("resolve %s: %v", name, err)
	}
	g, err := graph.CallGraph(ctx, eng, r, graph.Params{Direction: graph.Callers, Depth: 1, LimitPerLevel: 100, MaxPerNode: 100, Layer: "semantic"})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, n := range g.Nodes {
		names[string(n.ID)] = n.QName
	}
	var out []string
	for _, ed := range g.Edges {
		if ed.To == g.Root.ID {
			out = append(out, fmt.Sprintf("%s %s %s", names[string(ed.From)], ed.Dispatch, ed.Through))
		}
	}
	sort.Strings(out)
	return out
}

// A call through an interface method may run the methods implementing it,
// so it is a dispatch caller of each of them; a call of an implementing
// method does not run the interface method, nor another implementation.
func TestSemanticDispatchCallersGoUpOnly(t *testing.T) {
	e := openRepo(t)
	e.importFixture(t, "")
	// b.Use calls s.Get (Store.Get), g.Get (Getter.Get) and c.Get (Cache.Get).
	want := []string{
		"example.com/fix/b.Use  ",
		"example.com/fix/b.Use interface example.com/fix/a.Getter.Get",
	}
	if got := callers(t, e, "a.Store.Get"); !equal(got, want) {
		t.Errorf("callers of Store.Get:\n%q\nwant\n%q", got, want)
	}
	if got, want := callers(t, e, "a.Getter.Get"), []string{"example.com/fix/b.Use  "}; !equal(got, want) {
		t.Errorf("callers of Getter.Get:\n%q\nwant %q", got, want)
	}
}
