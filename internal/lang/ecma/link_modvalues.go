package ecma

import (
	"context"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// A module-level binding initialised with new C(...) holds a C (Def.Type,
// common.scm), one declared x: T = ... (TypeScript) a T: x.name, where x is such a binding of the file or one that
// the file imports by name from another module of the repository (export
// const api = new Api(); import { api } from "./api"), is member name of C,
// C resolved in the file that declares x. A local of the name hides it. In
// JavaScript a binding that code assigns again has no type (javascript's
// refine).

// moduleValueMember links x.name for such an x; ok is false when x is none.
func (l *batch) moduleValueMember(ctx context.Context, lf *link.File, decl *link.DeclTypes, r lang.Ref, name string,
	targets []lang.Target, resolved []bool) (int64, bool) {
	facts := lf.Facts
	if r.Shape != lang.QualIdent {
		return 0, false
	}
	q := facts.Names[r.Qualifier]
	locals, bound := decl.Local(r.Qualifier, r.Scope, r.Pos)
	if !bound {
		if i, ok := decl.ByPath[q]; ok {
			return l.typedValueMember(ctx, lf.Path, facts, i, name)
		}
	}
	for k, im := range facts.Imports {
		if im.Kind != lang.ImportNamed || im.LocalName() != q || !resolved[k] {
			continue
		}
		for _, lo := range locals {
			if facts.Locals[lo].Pos != im.Pos {
				return 0, false // a local hides the import
			}
		}
		other := l.R.Facts(ctx, targets[k].File)
		if other == nil {
			return 0, false
		}
		for i, d := range other.Defs {
			if d.Parent < 0 && d.Name == im.Name {
				return l.typedValueMember(ctx, targets[k].File, other, int32(i), name)
			}
		}
		return 0, false
	}
	return 0, false
}

// typedValueMember is member name of the type of module-level variable i
// of a file; ok is false when it has none.
func (l *batch) typedValueMember(ctx context.Context, file string, facts *lang.Facts, i int32, name string) (int64, bool) {
	d := facts.Defs[i]
	if d.Parent >= 0 || (d.Kind != lang.KindVariable && d.Kind != lang.KindConstant) {
		return 0, false
	}
	typ := lang.TypeName(valueType(d))
	if typ == "" {
		return 0, false
	}
	id := l.ecmaTypeMember(ctx, file, facts, typ, name, 0)
	return id, id != 0
}
