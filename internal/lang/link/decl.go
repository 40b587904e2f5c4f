package link

import (
	"strings"
	"unicode"

	"github.com/cairnhq/cairn/internal/lang"
)

// Java, C#, TypeScript and Python: a member reference x.m or this.x.m, where
// the source declares the type of x, is the member m of that type. x is a
// local or parameter whose type is written (Local.Type: T x, var x = new T(),
// const x: T) or a field or property of the enclosing class (Def.Type). How
// the type name then resolves is the language's: DeclTypes only finds it.

// DeclTypes finds the declared type of a member reference's qualifier in
// one file.
type DeclTypes struct {
	File  string // repo path
	Facts *lang.Facts
	// block: a local binds from its declaration on (Java, TypeScript)
	block bool
	// bareFields: a bare name can denote a field of an enclosing class
	// (Java, C#; TypeScript needs this.x)
	bareFields bool
	ByPath     map[string]int32   // definitions by lexical path, first wins
	locals     map[uint64][]int32 // (scope, name) -> locals in order
	Names      map[string]uint32  // facts.Names by string
}

// NewDeclTypes indexes one file's definitions, locals and names.
func NewDeclTypes(file string, facts *lang.Facts, block, bareFields bool) *DeclTypes {
	d := &DeclTypes{File: file, Facts: facts, block: block, bareFields: bareFields,
		ByPath: make(map[string]int32, len(facts.Defs)), locals: make(map[uint64][]int32, len(facts.Locals)),
		Names: make(map[string]uint32, len(facts.Names))}
	for i, def := range facts.Defs {
		if _, ok := d.ByPath[def.Path]; !ok {
			d.ByPath[def.Path] = int32(i)
		}
	}
	for i, lo := range facts.Locals {
		k := uint64(uint32(lo.Scope))<<32 | uint64(lo.Name)
		d.locals[k] = append(d.locals[k], int32(i))
	}
	for i, n := range facts.Names {
		if _, ok := d.Names[n]; !ok {
			d.Names[n] = uint32(i)
		}
	}
	return d
}

// Of is the type name the source declares for the qualifier of r ("T",
// "a.b.T"), or "" when it declares none, when declarations of the same
// local disagree, or when the name is a type parameter in scope.
func (d *DeclTypes) Of(r lang.Ref) string {
	f := d.Facts
	q := f.Names[r.Qualifier]
	typ := ""
	switch r.Shape {
	case lang.QualIdent:
		if !r.QualBound {
			return ""
		}
		if ls, found := d.Local(r.Qualifier, r.Scope, r.Pos); found {
			typ = f.Locals[ls[0]].Type
			for _, j := range ls[1:] {
				if t := f.Locals[j].Type; t != "" && t != typ {
					return ""
				}
			}
		} else if d.bareFields {
			typ = d.field(r.Enclosing, q, true)
		}
	case lang.QualSelf:
		// this in a function that declares its type (function (this: T))
		if ls, found := d.Local(r.Qualifier, r.Scope, r.Pos); found {
			typ = f.Locals[ls[0]].Type
		}
	case lang.QualExpr:
		// (x as T).m
		inner, open := strings.CutPrefix(q, "(")
		inner, closed := strings.CutSuffix(inner, ")")
		if !open || !closed {
			return ""
		}
		if i := strings.LastIndex(inner, " as "); i > 0 {
			typ = lang.TypeName(inner[i+4:])
		} else {
			typ = castTo(inner)
		}
	case lang.QualPath:
		rest, ok := strings.CutPrefix(q, "this.")
		if !ok || strings.Contains(rest, ".") {
			return ""
		}
		typ = d.field(r.Enclosing, rest, false)
	}
	if typ == "" || strings.ContainsAny(typ[:1], "#[=?") || strings.Contains(typ, "|") {
		return "" // none, or not a named type: typed by its context or by a value, an array, a union (TypeScript, lang/ecma)
	}
	first, _, _ := strings.Cut(typ, ".")
	if id, ok := d.Names[first]; ok && d.InScope(id, r.Scope) {
		return "" // a type parameter (or a local that shadows the type)
	}
	return typ
}

// Local finds the locals named name that a reference at pos in scope sees:
// those of the innermost scope of the chain that binds it there.
func (d *DeclTypes) Local(name uint32, scope int32, pos lang.Pos) ([]int32, bool) {
	f := d.Facts
	for s := scope; ; s = f.Scopes[s].Parent {
		if ls := d.locals[uint64(uint32(s))<<32|uint64(name)]; len(ls) > 0 {
			if !d.block || !pos.Before(f.Locals[ls[0]].Pos) {
				return ls, true
			}
		}
		if s < 0 {
			return nil, false
		}
	}
}

// InScope reports whether some scope of the chain from scope binds name.
func (d *DeclTypes) InScope(name uint32, scope int32) bool {
	for s := scope; ; s = d.Facts.Scopes[s].Parent {
		if len(d.locals[uint64(uint32(s))<<32|uint64(name)]) > 0 {
			return true
		}
		if s < 0 {
			return false
		}
	}
}

// field is the declared type of the field or property name of the innermost
// enclosing type of def enc (of the enclosing types, innermost first, when
// outer is set), or "".
func (d *DeclTypes) field(enc int32, name string, outer bool) string {
	f := d.Facts
	for c := enc; c >= 0; c = f.Defs[c].Parent {
		if !f.Defs[c].Kind.IsTypeLike() {
			continue
		}
		if i, ok := d.ByPath[f.Defs[c].Path+"."+name]; ok {
			switch f.Defs[i].Kind {
			case lang.KindField, lang.KindProperty, lang.KindConstant:
				return f.Defs[i].Type
			}
			return ""
		}
		if !outer {
			return ""
		}
	}
	return ""
}

// Member finds member name of the same-file type def t, or of one of the
// types it extends or implements that the file declares (resolve maps a type
// name written in the file to its definition), breadth first; -1 for none.
func (d *DeclTypes) Member(t int32, name string, resolve func(typ string, enc int32) int32) int32 {
	f := d.Facts
	seen := map[int32]bool{}
	queue := []int32{t}
	for len(queue) > 0 && len(seen) < 16 {
		c := queue[0]
		queue = queue[1:]
		if seen[c] {
			continue
		}
		seen[c] = true
		if i, ok := d.ByPath[f.Defs[c].Path+"."+name]; ok {
			return i
		}
		for _, rel := range f.TypeRels {
			if rel.Def == c && rel.Kind != lang.RelEmbeds {
				if b := resolve(rel.Target, c); b >= 0 {
					queue = append(queue, b)
				}
			}
		}
	}
	return -1
}

// HasPath reports whether the file defines the lexical path p.
func (d *DeclTypes) HasPath(p string) bool {
	_, ok := d.ByPath[p]
	return ok
}

// castTo is the type of a cast written (T) x, as Java and C# write it:
// ((Box) o).m and ((Box)o).M; "" for any other expression.
func castTo(expr string) string {
	t, operand, ok := strings.Cut(strings.TrimPrefix(expr, "("), ")")
	last := lang.TypeName(t)
	last = last[strings.LastIndexByte(last, '.')+1:]
	if !ok || !strings.HasPrefix(expr, "(") || last == "" || !unicode.IsUpper(rune(last[0])) || strings.TrimSpace(operand) == "" ||
		strings.ContainsAny(operand, "=") || strings.IndexFunc(t, func(c rune) bool {
		return !lang.IsIdentRune(c) && c != '.' && c != '<' && c != '>' && c != ',' && c != ' ' && c != '?'
	}) >= 0 {
		return ""
	}
	if c := strings.TrimSpace(operand)[0]; c != '_' && !unicode.IsLetter(rune(c)) && c != '(' {
		return "" // (a) - b, (a) + b: arithmetic on a parenthesised name
	}
	return lang.TypeName(t)
}
