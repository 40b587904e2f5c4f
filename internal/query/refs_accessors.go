package query

import (
	"context"

	"github.com/cairnhq/cairn/internal/lang"
)

// RelationAccessor marks a reference that uses the symbol under the name
// another language gives it (lang.Language.AccessorNames): Kotlin's
// b.foo for Java's getFoo(), Java's b.getFoo() for Kotlin's property foo.
// Its location spans the name as the reference spells it.
const RelationAccessor = "accessor"

// accessorRefs are the references that use symbol r under an accessor
// name and that syntax linked to it or to one of match; late says when the
// deadline nears.
func (e *Engine) accessorRefs(ctx context.Context, r *Resolved, match map[int64]bool, late func() bool) ([]synRef, error) {
	l := lang.ByName(r.File.Lang)
	if l == nil || l.AccessorNames == nil {
		return nil, nil
	}
	var out []synRef
	for _, name := range l.AccessorNames(r.Row.Name, lang.DefKind(r.Row.Kind)) {
		err := e.eachNamedRef(ctx, name, late, func(nf *NameFile, ri int, _ lang.Ref, s synRef) {
			if link, ok := nf.Links[ri]; ok && match[link.Target] {
				s.status, s.target, s.loc.Tier, s.loc.Relation = synMatch, link.Target, link.Tier.String(), RelationAccessor
				out = append(out, s)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
