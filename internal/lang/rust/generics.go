package rust

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// A binding typed by a type parameter bound by one trait (visitor: V with
// V: Visitor, in the parameter list or a where clause) reads the members of
// that trait: visitor.visit_pre() is Visitor's visit_pre, as it would be
// for visitor: impl Visitor or &dyn Visitor.

// typeBound is the one trait that type parameter name is bound by, over
// the item that declares it or its where clause.
type typeBound struct {
	item  lang.Span
	name  string
	trait string // as written: "Visitor", "ast::Visitor"
}

// boundItems are the items whose type parameters and where clauses type
// the bindings inside them.
var boundItems = map[string]bool{"function_item": true, "function_signature_item": true, "impl_item": true, "trait_item": true}

// readBound reads the type_parameter or where_predicate n; false when it
// does not bind one type name to exactly one trait.
func readBound(v *lang.View, n int) (typeBound, bool) {
	name := langutil.Child(v, n, "name")
	if v.Kind(n) == "where_predicate" {
		name = langutil.Child(v, n, "left")
	}
	bounds := langutil.Child(v, n, "bounds")
	if name < 0 || v.Kind(name) != "type_identifier" || bounds < 0 {
		return typeBound{}, false
	}
	trait := ""
	for _, c := range langutil.Children(v, bounds) {
		switch v.Kind(c) {
		case "lifetime":
			continue
		case "type_identifier", "scoped_type_identifier", "generic_type":
			if trait != "" {
				return typeBound{}, false // V: A + B: members of either
			}
			trait = strings.Join(segments(v, c), "::")
		default:
			return typeBound{}, false
		}
	}
	item := v.Parent(n)
	for item >= 0 && !boundItems[v.Kind(item)] {
		item = v.Parent(item)
	}
	if trait == "" || strings.Contains(trait, "?") || item < 0 {
		return typeBound{}, false
	}
	return typeBound{item: v.Span(item), name: v.Text(name), trait: trait}, true
}

// boundLocals types the bindings of f declared with a type parameter by the
// trait that the innermost item declaring the parameter bounds it by (not
// when that item bounds it twice: V: A in its parameters, V: B in a where
// clause).
func boundLocals(f *lang.Facts, bounds []typeBound) {
	if len(bounds) == 0 {
		return
	}
	for i := range f.Locals {
		lo := &f.Locals[i]
		if lo.Type == "" || strings.Contains(lo.Type, "::") {
			continue
		}
		best, twice := -1, false
		for j, b := range bounds {
			if b.name != lo.Type || !b.item.Contains(lo.Pos) {
				continue
			}
			switch {
			case best >= 0 && b.item == bounds[best].item:
				twice = twice || b.trait != bounds[best].trait
			case best < 0 || bounds[best].item.Contains(b.item.Start):
				best, twice = j, false
			}
		}
		if best >= 0 && !twice {
			lo.Type = bounds[best].trait
		}
	}
}
