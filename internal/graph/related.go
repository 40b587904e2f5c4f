package graph

import (
	"context"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// maxRelatedMethods bounds the related methods one reference query expands
// to (as the semantic layer's related symbols are).
const maxRelatedMethods = 64

// RelatedMethods lists, from syntax, the methods whose references are also
// references of a method (query.RefsParams.Related), as the language's own
// tools count them (lang.Language.RelatedRefs):
//   - Go (gopls): the methods of the repository's interfaces that the
//     method's receiver type satisfies, by signature (method sets as
//     hierarchy checks them); a call through one may run the method. Their
//     declarations are not uses of it.
//   - TypeScript and JavaScript (typescript-language-server): the method's
//     family, every method declaring the same member: the base methods it
//     overrides and interface members it implements (transitively), the
//     methods overriding it, and the other implementations of those it
//     implements or overrides, each with its declaration; a property's
//     family likewise (this.x a subclass assigns is its base's x).
//
// Python and the other languages have none: their tools find a method's
// references by its own declaration only.
func RelatedMethods(ctx context.Context, e *query.Engine, r *query.Resolved) ([]query.RelatedMethod, error) {
	switch k := lang.DefKind(r.Row.Kind); {
	case k == lang.KindMethod:
	case isAttribute(k) && lang.Of(r.File.Lang).RelatedRefs == lang.RelatedFamily:
		// a property is a member of its family as a method is (tsserver)
	default:
		return nil, nil
	}
	w, err := newWalker(ctx, e, query.LayerSyntactic)
	if err != nil {
		return nil, err
	}
	switch lang.Of(r.File.Lang).RelatedRefs {
	case lang.RelatedDispatch:
		ms, err := w.methodSetInterfaces(ctx, r)
		if err != nil {
			return nil, err
		}
		out := make([]query.RelatedMethod, 0, len(ms))
		for _, m := range ms {
			if len(out) == maxRelatedMethods {
				break
			}
			out = append(out, query.RelatedMethod{ID: m.row.ID, QName: m.row.QName, Relation: DispatchInterface})
		}
		return out, nil
	case lang.RelatedFamily:
		return w.methodFamily(ctx, r)
	}
	return nil, nil
}

// methodFamily is RelatedMethods for a language that counts the method's
// family (TypeScript and JavaScript).
func (w *walker) methodFamily(ctx context.Context, r *query.Resolved) ([]query.RelatedMethod, error) {
	owner, err := w.parentType(ctx, r)
	if err != nil || owner == nil {
		return nil, err
	}
	var out []query.RelatedMethod
	seen := map[int64]bool{r.Row.ID: true}
	add := func(m store.SymbolRow, relation string) error {
		if seen[m.ID] || len(out) == maxRelatedMethods {
			return nil
		}
		seen[m.ID] = true
		mr, err := w.resolved(ctx, m)
		if err != nil || mr == nil {
			return err
		}
		decl := mr.Ref().Location
		out = append(out, query.RelatedMethod{ID: m.ID, QName: m.QName, Relation: relation, Decl: &decl, Module: mr.File.ModuleID})
		return nil
	}
	supers := func(it typeStep) ([]typeEdge, error) {
		s, _, err := w.supertypes(ctx, it.row, true)
		return s, err
	}
	subs := func(it typeStep) ([]typeEdge, error) { return w.subtypes(ctx, it.row) }
	// up: what it overrides or implements
	var roots []store.SymbolRow
	err = w.relatedMethods(ctx, owner.Row, r.Row, supers, func(m store.SymbolRow) error {
		roots = append(roots, m)
		relation := "base"
		if iface, err := w.interfaceOf(ctx, m.Parent); err != nil {
			return err
		} else if iface != nil {
			relation = DispatchInterface
		}
		return add(m, relation)
	})
	if err != nil {
		return nil, err
	}
	// down: what overrides it
	if err := w.relatedMethods(ctx, owner.Row, r.Row, subs, func(m store.SymbolRow) error { return add(m, "override") }); err != nil {
		return nil, err
	}
	// across: the other implementations of what it overrides or implements
	for _, root := range roots {
		ro, ok, err := w.row(ctx, root.Parent)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if err := w.relatedMethods(ctx, ro, r.Row, subs, func(m store.SymbolRow) error { return add(m, "sibling") }); err != nil {
			return nil, err
		}
	}
	return out, nil
}
