package ecma

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// TypeScript: a member reference x.m or this.x.m, where the source declares
// the type of x (link.DeclTypes), is the member m of that type: a class or
// interface of the file, one a named import brings in, or one of a module
// imported whole. A member the type does not declare is looked up in the
// types it extends or implements, resolved in the file that declares each
// type; this.m and super.m (JavaScript too) look in the bases of the
// enclosing class.

// ecmaMember is the symbol of member name of the TypeScript type written typ
// in a file: a class or interface of the file ("T"), one a named import
// brings in ("T" from import {T} from "./t"), or one of a module imported
// whole ("ns.T" with import * as ns); 0 when typ is none of those.
func (l *batch) ecmaMember(ctx context.Context, d *link.DeclTypes, typ, name string, targets []lang.Target, resolved []bool, defID func(int32) int64) int64 {
	f := d.Facts
	first, rest, dotted := strings.Cut(typ, ".")
	if dotted && strings.Contains(rest, ".") {
		return 0
	}
	if !dotted {
		if t, ok := d.ByPath[typ]; ok && f.Defs[t].Parent < 0 && f.Defs[t].Kind.IsTypeLike() {
			resolve := func(typ string, _ int32) int32 {
				if b, ok := d.ByPath[typ]; ok && f.Defs[b].Parent < 0 && f.Defs[b].Kind.IsTypeLike() {
					return b
				}
				return -1
			}
			if i := d.Member(t, name, resolve); i >= 0 {
				return defID(i)
			}
			return l.ecmaInherited(ctx, d.File, typ, name, 0)
		}
	}
	for i, im := range f.Imports {
		if im.LocalName() != first || !resolved[i] || targets[i].File == "" {
			continue
		}
		switch {
		case !dotted:
			if exported, ok := l.exportedName(ctx, im, targets[i].File); ok {
				return l.ecmaInherited(ctx, targets[i].File, exported, name, 0)
			}
		case dotted && im.Kind == lang.ImportNamespace:
			return l.ecmaInherited(ctx, targets[i].File, rest, name, 0)
		}
		return 0
	}
	return 0
}

// ecmaInherited is the symbol of member name of the top-level type typ of a
// JavaScript or TypeScript file or, when typ does not declare it, of the
// types typ extends or implements, resolved in that file (its own types and
// its imports), depth first; 0 for none.
func (l *batch) ecmaInherited(ctx context.Context, file, typ, name string, depth int) int64 {
	if id := l.Paths.Of(ctx, file)[typ+"."+name]; id != 0 || depth >= 8 {
		return id
	}
	fi, facts := link.FactsAt(ctx, l.R, file)
	if facts == nil {
		return 0
	}
	for i, d := range facts.Defs {
		if d.Parent < 0 && d.Path == typ && d.Kind.IsTypeLike() {
			if id := l.ecmaBases(ctx, fi, facts, int32(i), name, depth); id != 0 {
				return id
			}
		}
	}
	return 0
}

// ecmaBases is the symbol of member name of one of the types that the type
// def t of a JavaScript or TypeScript file extends or implements (or of
// their own bases), in the order the source writes them, depth first; 0 for
// none. What super.m and an inherited this.m name.
func (l *batch) ecmaBases(ctx context.Context, fi lang.File, facts *lang.Facts, t int32, name string, depth int) int64 {
	if depth >= 8 {
		return 0
	}
	for _, rel := range facts.TypeRels {
		if rel.Def != t {
			continue
		}
		if id := l.ecmaTypeMember(ctx, fi.Path, facts, lang.TypeName(rel.Target), name, depth+1); id != 0 {
			return id
		}
	}
	return 0
}
