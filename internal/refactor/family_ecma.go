package refactor

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// declaredFamily returns the JavaScript or TypeScript types whose members
// named name are one family with the renamed member r, by declared
// relations alone: the root types (r's own type, or the classes and
// interfaces it extends or implements, that declare a member of that name)
// and every type that extends or implements a root, transitively. A method
// of one of them with that name overrides or implements the root's, and
// tsserver renames them together; the compiler needs it too (a subclass
// method left behind would stop overriding). Relations syntax resolved only
// by name (anchored) do not count: such methods stay decisions.
func (env *Env) declaredFamily(ctx context.Context, r *query.Resolved, name string) (map[protocol.SymbolID]bool, error) {
	owners := map[protocol.SymbolID]bool{}
	rows, err := env.Snap.Store().SymbolsByName(ctx, name)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		if row.Parent != 0 {
			owners[protocol.NewSymbolID(row.Parent)] = true
		}
	}
	up, err := graph.Hierarchy(ctx, env.Engine, r, graph.HierarchyParams{Layer: query.LayerSyntactic})
	if err != nil {
		return nil, err
	}
	roots := []query.SymbolRef{up.Type}
	for _, l := range append(append([]graph.TypeLink{}, up.Supertypes...), up.Interfaces...) {
		if declared(l) && owners[l.Symbol.ID] {
			roots = append(roots, *l.Symbol)
		}
	}
	out := map[protocol.SymbolID]bool{}
	for _, root := range roots {
		if out[root.ID] {
			continue
		}
		out[root.ID] = true
		t, err := env.Engine.ResolveID(ctx, root.ID)
		if err != nil {
			return nil, err
		}
		down, err := graph.Hierarchy(ctx, env.Engine, t, graph.HierarchyParams{Layer: query.LayerSyntactic})
		if err != nil {
			return nil, err
		}
		for _, l := range append(append([]graph.TypeLink{}, down.Subtypes...), down.Implementations...) {
			if declared(l) {
				out[l.Symbol.ID] = true
			}
		}
	}
	return out, nil
}

// declared reports whether a type relation is written in the code (extends,
// implements) and resolved to a type of the repository by more than its
// name.
func declared(l graph.TypeLink) bool {
	if l.Symbol == nil || !strings.Contains(l.Source, graph.SourceDeclared) || l.Source == graph.SourceMethodSet {
		return false
	}
	return l.Tier != index.TierAnchored.String() && l.Tier != index.TierUnknown.String()
}
