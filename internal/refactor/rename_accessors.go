package refactor

import (
	"context"
	"fmt"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// Java and Kotlin use each other's accessors under other names: Kotlin
// reads Java's getFoo() as b.foo, Java calls Kotlin's property foo as
// getFoo() and setFoo(v) (lang.Language.RenameAccessor). A rename rewrites
// such a use to the spelling of the new name (b.bar for getBar(),
// getBar() for bar), and refuses when the new name gives it none: a Java
// getter renamed fetchFoo is no property for Kotlin, and a setter renamed
// alone leaves b.foo = v without a setter of the getter's property.

// accessorUse is how a reference in another language than the renamed
// symbol's spells it now and after the rename, when it uses the symbol
// under an accessor name.
type accessorUse struct {
	spelled, spelling string
}

// accessorSpelling reads how location l spells symbol r, named old, and
// whether that is an accessor use; its spelling is "" when the rename
// cannot keep the use working.
func (env *Env) accessorSpelling(card *query.SymbolCard, r *query.Resolved, l query.RefLocation, old, name string) (accessorUse, bool) {
	own := lang.ByName(card.Language)
	at := lang.ForPath(string(l.Path))
	if own == nil || own.RenameAccessor == nil || at == nil || at.Name == card.Language || l.Kind == "definition" {
		return accessorUse{}, false
	}
	data, ok := env.read(string(l.Path))
	if !ok {
		return accessorUse{}, false
	}
	end := l.EndCol // the name as this use spells it
	if l.EndLine != l.Line || end <= l.Col {
		end = l.Col + len(old)
	}
	a, b, ok := span(lang.LineStarts(data), len(data), Edit{Line: l.Line, Col: l.Col, EndLine: l.Line, EndCol: end})
	if !ok || b > len(data) {
		return accessorUse{}, false
	}
	spelled := string(data[a:b])
	spelling, use := own.RenameAccessor(old, name, spelled, lang.DefKind(r.Row.Kind), l.Kind == "call")
	return accessorUse{spelled, spelling}, use
}

// accessorEdit is the edit of an accessor use u at l, or why the rename
// cannot keep it.
func (env *Env) accessorEdit(ctx context.Context, card *query.SymbolCard, l query.RefLocation, u accessorUse, name string) (Edit, bool, error) {
	if u.spelling == "" {
		path := string(l.Path)
		return Edit{}, false, &errs.Error{Kind: errs.Precondition, Path: path,
			Msg:     fmt.Sprintf("cannot rename %s to %s: %s:%d uses it as %s, and that use cannot follow the new name", card.QName, name, path, l.Line, u.spelled),
			Details: map[string]any{"reason": "accessor", "path": path, "line": l.Line, "spelled": u.spelled},
			Fixes: []string{"Kotlin reads a Java getter as a property only under a getter's name (getX, isX): choose one",
				"Kotlin assigns a property through the setter named after its getter: change such assignments to setter calls, then rename"}}
	}
	e, ok := env.tokenEdit(ctx, l, u.spelled, u.spelling)
	return e, ok, nil
}

// checkAccessorPartners refuses renaming a Java getter whose property
// Kotlin also assigns through the setter of the same type: the
// assignment needs a getter of its property's name, which the rename takes
// away.
func (env *Env) checkAccessorPartners(ctx context.Context, card *query.SymbolCard, r *query.Resolved, name string) error {
	own := lang.ByName(card.Language)
	if own == nil || own.AccessorNames == nil || r.Row.Parent == 0 {
		return nil
	}
	props := map[string]bool{}
	for _, p := range own.AccessorNames(card.Name, lang.DefKind(r.Row.Kind)) {
		props[p] = true
	}
	if len(props) == 0 {
		return nil
	}
	siblings, err := env.Snap.Store().SymbolsByParent(ctx, r.Row.Parent, 1000)
	if err != nil {
		return err
	}
	for _, s := range siblings {
		if s.ID == r.Row.ID || !sharesName(own.AccessorNames(s.Name, lang.DefKind(s.Kind)), props) {
			continue
		}
		partner, err := env.Engine.Load(ctx, s)
		if err != nil || partner == nil {
			continue
		}
		refs, err := env.Engine.Refs(ctx, partner, query.RefsParams{Limit: 1000})
		if err != nil {
			return err
		}
		for _, l := range refs.Locations {
			if l.Relation == query.RelationAccessor {
				path := string(l.Path)
				return &errs.Error{Kind: errs.Precondition, Path: path,
					Msg: fmt.Sprintf("cannot rename %s to %s alone: %s:%d assigns its property through %s, which needs a getter of the old name",
						card.QName, name, path, l.Line, s.QName),
					Details: map[string]any{"reason": "accessor", "path": path, "line": l.Line, "partner": s.QName},
					Fixes:   []string{"change Kotlin's assignments of the property to " + s.Name + "(...) calls, then rename"}}
			}
		}
	}
	return nil
}

// sharesName reports whether any of names is in set.
func sharesName(names []string, set map[string]bool) bool {
	for _, n := range names {
		if set[n] {
			return true
		}
	}
	return false
}
