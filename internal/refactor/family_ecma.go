package refactor

import (
	"context"
	"fmt"
	"strings"
	"time"

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

// proveMargin is the part of a request's deadline proveStructural leaves
// for finishing the plan.
const proveMargin = 3 * time.Second

// proveStructural asks the compiler about the members a structural match
// may tie to a TypeScript rename (structuralFamily) when they are the
// plan's only questions: the renamed code is type-checked (tsc over a copy,
// nothing written) and, when it compiles, no type was used as one of them
// through the renamed member, and the questions are dropped; when it does
// not, or cannot be checked, they stay.
func (env *Env) proveStructural(ctx context.Context, p *Plan, structural []Group, from string) ([]Group, error) {
	if len(structural) == 0 || len(p.Groups) > 0 {
		return structural, nil
	}
	if _, ok := toolchain(env.Paths.Root, "typescript"); !ok {
		p.Warnings = append(p.Warnings, fmt.Sprintf("other members have the name of %s (%d) and a structural match may tie them to it; without tsc that was not checked", from, len(structural)))
		return structural, nil
	}
	edits := append([]Edit(nil), p.Edits...)
	sortEdits(edits)
	changes, _, err := env.contents(p, dedupEdits(edits))
	if err != nil {
		return nil, err
	}
	// The check gets the request's time but for a margin in which the plan
	// is finished: past it the questions stay.
	vctx := ctx
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		vctx, cancel = context.WithDeadline(ctx, dl.Add(-proveMargin))
		defer cancel()
	}
	rep := Verify(vctx, VerifyRequest{Root: env.Paths.Root, Changes: changes, BuildOnly: true})
	if vctx.Err() != nil {
		p.Warnings = append(p.Warnings, fmt.Sprintf("type-checking the rename of %s, to learn whether a structural match ties the other members of its name to it, did not finish within the deadline: plan with a larger timeout_ms to have it checked", from))
		return structural, nil
	}
	if !rep.OK {
		if len(rep.Diagnostics) > 0 {
			d := rep.Diagnostics[0]
			p.Warnings = append(p.Warnings, fmt.Sprintf("renamed alone, %s does not compile (%s:%d: %s): a structural match ties other members to it", from, d.Path, d.Line, d.Message))
		}
		return structural, nil
	}
	p.Warnings = append(p.Warnings, fmt.Sprintf("other members have the name of %s (%d): the renamed code compiles without them (tsc), so no structural match ties them to it", from, len(structural)))
	return nil, nil
}
