package ecma

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// TypeScript: this.x.m, where the enclosing class does not declare x and a
// class it extends does (the first of its bases that declares x, depth
// first, as ecmaBases finds members), is m of the type that declaration
// writes for x, resolved in the file that declares it.

// ecmaInheritedField is the symbol of member name of the declared type of
// the inherited field in this.x.name; ok is false when r is not of that
// form, the enclosing class declares x, or no base declares it.
func (l *batch) ecmaInheritedField(ctx context.Context, fi lang.File, d *link.DeclTypes, r lang.Ref, name string) (int64, bool) {
	f := d.Facts
	field, ok := strings.CutPrefix(f.Names[r.Qualifier], "this.")
	if !ok || strings.Contains(field, ".") {
		return 0, false
	}
	cls := r.Enclosing
	for cls >= 0 && !f.Defs[cls].Kind.IsTypeLike() {
		cls = f.Defs[cls].Parent
	}
	if cls < 0 || f.Defs[cls].Kind != lang.KindClass || f.Defs[cls].Parent >= 0 {
		return 0, false
	}
	if _, own := d.ByPath[f.Defs[cls].Path+"."+field]; own {
		return 0, false
	}
	file, facts, typ := l.ecmaBaseField(ctx, fi, f, cls, field, 0)
	if typ == "" {
		return 0, false
	}
	return l.ecmaTypeMember(ctx, file, facts, typ, name, 0), true
}

// ecmaBaseField finds field name in the types that the type def t of a file
// extends, depth first in source order, and returns the file that declares
// it, that file's facts and the type it declares for the field ("" when
// none declares it or the first that does writes no named type).
func (l *batch) ecmaBaseField(ctx context.Context, fi lang.File, facts *lang.Facts, t int32, name string, depth int) (string, *lang.Facts, string) {
	if depth >= 8 {
		return "", nil, ""
	}
	for _, rel := range facts.TypeRels {
		if rel.Def != t || rel.Kind != lang.RelExtends {
			continue
		}
		base := lang.TypeName(rel.Target)
		if base == "" || strings.Contains(base, ".") {
			continue
		}
		bfi, bfacts, btyp := fi, facts, base
		if !topType(facts, base) {
			found := false
			for _, im := range facts.Imports {
				if im.LocalName() != base {
					continue
				}
				if tgt, ok := l.R.Import(ctx, fi, im); ok && tgt.File != "" {
					exported, named := l.exportedName(ctx, im, tgt.File)
					if tf, tfacts := link.FactsAt(ctx, l.R, tgt.File); tfacts != nil && named {
						bfi, bfacts, btyp, found = tf, tfacts, exported, true
					}
				}
				break
			}
			if !found {
				return "", nil, "" // a base the repository does not declare
			}
		}
		for i, bd := range bfacts.Defs {
			if bd.Parent >= 0 || bd.Path != btyp || bd.Kind != lang.KindClass {
				continue
			}
			for _, m := range bfacts.Defs {
				if m.Path == btyp+"."+name {
					if m.Kind == lang.KindField || m.Kind == lang.KindProperty {
						return bfi.Path, bfacts, m.Type
					}
					return "", nil, ""
				}
			}
			return l.ecmaBaseField(ctx, bfi, bfacts, int32(i), name, depth+1)
		}
		return "", nil, ""
	}
	return "", nil, ""
}

// topType reports whether a file declares a top-level type named p.
func topType(facts *lang.Facts, p string) bool {
	for _, d := range facts.Defs {
		if d.Parent < 0 && d.Path == p && d.Kind.IsTypeLike() {
			return true
		}
	}
	return false
}
