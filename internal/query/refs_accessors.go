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
		cands, err := e.Store().NameCandidates(ctx, name)
		if err != nil {
			return nil, err
		}
		for _, c := range e.ovTextHits(cands, nil) {
			if late() {
				return out, nil
			}
			nf, err := e.NameFileOf(ctx, c.FileID, name)
			if err != nil || nf == nil || c.Lang == "" {
				continue
			}
			for ri, ref := range nf.Facts.Refs {
				link, ok := nf.Links[ri]
				if int(ref.Name) != nf.NameID || !ok || !match[link.Target] {
					continue
				}
				s := synRef{foundRef: foundRef{loc: RefLocation{Location: RefLoc(nf.File.Path, ref.Pos, name), Kind: ref.Role.String(),
					Tier: link.Tier.String(), Layer: LayerSyntactic, Relation: RelationAccessor}, module: nf.File.ModuleID,
					shape: ShapeKey(nf.Facts, ref)}, status: synMatch, target: link.Target, size: nf.File.Size, family: LangFamily(c.Lang)}
				if ref.Enclosing >= 0 {
					s.loc.Enclosing = nf.Facts.Defs[ref.Enclosing].Path
				}
				out = append(out, s)
			}
		}
	}
	return out, nil
}
