package graph

import (
	"context"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// typeEdge is a resolved relation between types: the type at its other
// end, the relation and its tier.
type typeEdge struct {
	row  store.SymbolRow
	kind index.EdgeKind
	tier index.Tier
	at   store.EdgeRow
}

// relatedMethods calls each for the methods named as method declared on
// the types a walk of relations (next) reaches from a type, the type itself
// left out, nearest first (for a field, the fields of its name); where
// same-named methods are overloads, only
// those taking as many arguments as method can override or implement it.
func (w *walker) relatedMethods(ctx context.Context, from, method store.SymbolRow, next func(typeStep) ([]typeEdge, error),
	each func(store.SymbolRow) error) error {
	return w.walkRelations(from, map[int64]bool{from.ID: true}, next, func(_ typeStep, s typeEdge) (bool, error) {
		own, err := w.directMembers(ctx, s.row)
		if err != nil {
			return false, err
		}
		for _, m := range own {
			if m.Name != method.Name || !SameMember(method, m) {
				continue
			}
			if same, err := w.sameArity(ctx, method, m); err != nil {
				return false, err
			} else if !same {
				continue
			}
			if err := each(m); err != nil {
				return false, err
			}
		}
		return true, nil
	})
}

// sameArity reports whether two same-named methods declare as many
// parameters, in a language whose same-named methods are overloads; true
// elsewhere, or when a parameter list cannot be read.
func (w *walker) sameArity(ctx context.Context, a, b store.SymbolRow) (bool, error) {
	x, err := w.arity(ctx, a)
	if err != nil || !x.Known {
		return true, err
	}
	y, err := w.arity(ctx, b)
	if err != nil || !y.Known {
		return true, err
	}
	return x.SameParameters(y), nil
}

// arity is a method's arity where the language's same-named methods are
// overloads (unknown elsewhere).
func (w *walker) arity(ctx context.Context, row store.SymbolRow) (lang.Arity, error) {
	if a, ok := w.types.arity[row.ID]; ok {
		return a, nil
	}
	var a lang.Arity
	if f, err := w.file(ctx, row.FileID); err != nil {
		return a, err
	} else if f != nil && lang.Of(f.Lang).Overloads {
		r, err := w.e.Load(ctx, row)
		if err != nil {
			return a, err
		}
		if r != nil && r.Def != nil {
			a = lang.ArityOf(r.Def.Signature, row.Name)
		}
	}
	w.types.arity[row.ID] = a
	return a, nil
}

// typeStep is a type a walk of relations reached, depth relations away,
// through via (the qualified name of the type before it; "" at the start).
type typeStep struct {
	row   store.SymbolRow
	via   string
	depth int
}

// walkRelations walks type relations breadth first from a type, at most
// maxSuperDepth relations deep: next lists a type's relations, visit is
// called once per type not in seen (which it is added to) and says whether
// to walk on from it.
func (w *walker) walkRelations(from store.SymbolRow, seen map[int64]bool, next func(typeStep) ([]typeEdge, error),
	visit func(typeStep, typeEdge) (bool, error)) error {
	queue := []typeStep{{from, "", 0}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.depth >= maxSuperDepth {
			continue
		}
		edges, err := next(it)
		if err != nil {
			return err
		}
		for _, ed := range edges {
			if seen[ed.row.ID] {
				continue
			}
			seen[ed.row.ID] = true
			follow, err := visit(it, ed)
			if err != nil {
				return err
			}
			if follow {
				queue = append(queue, typeStep{ed.row, ed.row.QName, it.depth + 1})
			}
		}
	}
	return nil
}

// supertypes lists what a type extends, implements or embeds: the resolved
// relations (edges), and as written those syntax could not resolve.
// withImplements keeps implements relations (for hierarchy answers).
func (w *walker) supertypes(ctx context.Context, t store.SymbolRow, withImplements bool) ([]typeEdge, []string, error) {
	edges, err := w.e.EdgesFrom(ctx, t.FileID, t.ID, index.TypeEdgeKinds...)
	if err != nil {
		return nil, nil, err
	}
	rows, err := w.symbols(ctx, idsOf(edges, func(e store.EdgeRow) int64 { return e.Dst }))
	if err != nil {
		return nil, nil, err
	}
	var out []typeEdge
	resolvedAt := map[[2]int]bool{}
	for _, ed := range edges {
		resolvedAt[[2]int{ed.Line, ed.Col}] = true
		row, ok := rows[ed.Dst]
		if !ok || (!withImplements && index.EdgeKind(ed.Kind) == index.EdgeImplements) {
			continue
		}
		out = append(out, typeEdge{row: row, kind: index.EdgeKind(ed.Kind), tier: index.Tier(ed.Tier), at: ed})
	}
	var unresolved []string
	r, err := w.resolved(ctx, t)
	if err != nil || r == nil || r.Facts == nil {
		return out, nil, err
	}
	for _, rel := range r.Facts.TypeRels {
		if int(rel.Def) != t.DefIdx || resolvedAt[[2]int{int(rel.Pos.Line), int(rel.Pos.Col)}] {
			continue
		}
		if rel.Kind == lang.RelImplements && !withImplements {
			continue
		}
		unresolved = append(unresolved, rel.Target)
	}
	return out, unresolved, nil
}

// subtypes lists the types that extend, implement or embed a type.
func (w *walker) subtypes(ctx context.Context, t store.SymbolRow) ([]typeEdge, error) {
	edges, err := w.e.EdgesTo(ctx, t.ID, index.TypeEdgeKinds...)
	if err != nil {
		return nil, err
	}
	rows, err := w.symbols(ctx, idsOf(edges, func(e store.EdgeRow) int64 { return e.Src }))
	if err != nil {
		return nil, err
	}
	var out []typeEdge
	for _, ed := range edges {
		if row, ok := rows[ed.Src]; ok && row.Kind != uint8(lang.KindField) {
			out = append(out, typeEdge{row: row, kind: index.EdgeKind(ed.Kind), tier: index.Tier(ed.Tier), at: ed})
		}
	}
	return out, nil
}
