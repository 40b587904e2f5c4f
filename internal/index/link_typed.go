package index

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// Java, C# and TypeScript: a member reference x.m or this.x.m, where the
// source declares the type of x, is the member m of that type. x is a local
// or parameter whose type is written (Local.Type: T x, var x = new T(),
// const x: T) or a field or property of the enclosing class (Def.Type). The
// type name resolves as any type name of the file does (same file, same
// package or namespace, imports); the reference is strong when it resolves
// to one type of the repository that declares m, and stays unresolved
// otherwise. A member the type does not declare is looked up in the types it
// extends or implements, resolved in the file that declares each type.

// declTypes finds the declared type of a member reference's qualifier in
// one file.
type declTypes struct {
	file  string // repo path
	facts *lang.Facts
	// block: a local binds from its declaration on (Java, TypeScript)
	block bool
	// bareFields: a bare name can denote a field of an enclosing class
	// (Java, C#; TypeScript needs this.x)
	bareFields bool
	byPath     map[string]int32   // definitions by lexical path, first wins
	locals     map[uint64][]int32 // (scope, name) -> locals in order
	names      map[string]uint32  // facts.Names by string
}

func newDeclTypes(file string, facts *lang.Facts, block, bareFields bool) *declTypes {
	d := &declTypes{file: file, facts: facts, block: block, bareFields: bareFields,
		byPath: make(map[string]int32, len(facts.Defs)), locals: make(map[uint64][]int32, len(facts.Locals)),
		names: make(map[string]uint32, len(facts.Names))}
	for i, def := range facts.Defs {
		if _, ok := d.byPath[def.Path]; !ok {
			d.byPath[def.Path] = int32(i)
		}
	}
	for i, lo := range facts.Locals {
		k := uint64(uint32(lo.Scope))<<32 | uint64(lo.Name)
		d.locals[k] = append(d.locals[k], int32(i))
	}
	for i, n := range facts.Names {
		if _, ok := d.names[n]; !ok {
			d.names[n] = uint32(i)
		}
	}
	return d
}

// of is the type name the source declares for the qualifier of r ("T",
// "a.b.T"), or "" when it declares none, when declarations of the same
// local disagree, or when the name is a type parameter in scope.
func (d *declTypes) of(r lang.Ref) string {
	f := d.facts
	q := f.Names[r.Qualifier]
	typ := ""
	switch r.Shape {
	case lang.QualIdent:
		if !r.QualBound {
			return ""
		}
		if ls, found := d.local(r.Qualifier, r.Scope, r.Pos); found {
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
		if ls, found := d.local(r.Qualifier, r.Scope, r.Pos); found {
			typ = f.Locals[ls[0]].Type
		}
	case lang.QualExpr:
		// (x as T).m
		inner, ok := strings.CutPrefix(q, "(")
		if inner, ok = strings.CutSuffix(inner, ")"); !ok {
			return ""
		}
		if i := strings.LastIndex(inner, " as "); i > 0 {
			typ = lang.TypeName(inner[i+4:])
		}
	case lang.QualPath:
		rest, ok := strings.CutPrefix(q, "this.")
		if !ok || strings.Contains(rest, ".") {
			return ""
		}
		typ = d.field(r.Enclosing, rest, false)
	}
	if typ == "" || strings.HasPrefix(typ, "#") {
		return "" // none, or a parameter typed by its context (link_context.go)
	}
	first, _, _ := strings.Cut(typ, ".")
	if id, ok := d.names[first]; ok && d.inScope(id, r.Scope) {
		return "" // a type parameter (or a local that shadows the type)
	}
	return typ
}

// local finds the locals named name that a reference at pos in scope sees:
// those of the innermost scope of the chain that binds it there.
func (d *declTypes) local(name uint32, scope int32, pos lang.Pos) ([]int32, bool) {
	f := d.facts
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

// inScope reports whether some scope of the chain from scope binds name.
func (d *declTypes) inScope(name uint32, scope int32) bool {
	for s := scope; ; s = d.facts.Scopes[s].Parent {
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
func (d *declTypes) field(enc int32, name string, outer bool) string {
	f := d.facts
	for c := enc; c >= 0; c = f.Defs[c].Parent {
		if !f.Defs[c].Kind.IsTypeLike() {
			continue
		}
		if i, ok := d.byPath[f.Defs[c].Path+"."+name]; ok {
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

// member finds member name of the same-file type def t, or of one of the
// types it extends or implements that the file declares (resolve maps a type
// name written in the file to its definition), breadth first; -1 for none.
func (d *declTypes) member(t int32, name string, resolve func(typ string, enc int32) int32) int32 {
	f := d.facts
	seen := map[int32]bool{}
	queue := []int32{t}
	for len(queue) > 0 && len(seen) < 16 {
		c := queue[0]
		queue = queue[1:]
		if seen[c] {
			continue
		}
		seen[c] = true
		if i, ok := d.byPath[f.Defs[c].Path+"."+name]; ok {
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

// pkgBase is a base type of a Java or C# type.
type pkgBase struct {
	t typeRef
	s pkgSym
}

// memberOf finds member name of type t (symbol s) or, when t does not
// declare it, of the types it extends or implements, breadth first, through
// the type relations of the files that declare them.
func (p *pkgLinker) memberOf(family string, t typeRef, s pkgSym, name string, from int64) (pkgSym, bool) {
	queue := []pkgBase{{t, s}}
	seen := map[int64]bool{}
	for len(queue) > 0 && len(seen) < 16 {
		b := queue[0]
		queue = queue[1:]
		if seen[b.s.id] {
			continue
		}
		seen[b.s.id] = true
		if m, ok := p.lookup(family, b.t.pkg, b.t.path+"."+name, from); ok {
			return m, true
		}
		queue = append(queue, p.bases(family, b, from)...)
	}
	return pkgSym{}, false
}

// bases resolves the type relations of a type in the file that declares it:
// a base type's name resolves through the file's single-type imports, then
// the type's own package (and, for C#, the enclosing namespaces), a name
// written in full, then the packages the file imports whole (java.lang for
// Java) when exactly one declares it.
func (p *pkgLinker) bases(family string, b pkgBase, from int64) []pkgBase {
	if p.baseCache == nil {
		p.baseCache = map[int64][]pkgBase{}
	}
	if out, ok := p.baseCache[b.s.id]; ok {
		return out
	}
	var out []pkgBase
	defer func() { p.baseCache[b.s.id] = out }()
	fi, facts := p.l.factsAt(p.l.pathOf(b.s.file))
	if facts == nil {
		return nil
	}
	typeIn := func(pkg, path string) (pkgBase, bool) {
		if s, ok := p.lookup(family, pkg, path, from); ok && s.kind.IsTypeLike() {
			return pkgBase{typeRef{pkg, path}, s}, true
		}
		return pkgBase{}, false
	}
	resolve := func(name string) (pkgBase, bool) {
		first, rest, _ := strings.Cut(name, ".")
		for _, im := range facts.Imports {
			if im.Kind == lang.ImportNamed && im.LocalName() == first {
				full := im.Name
				if im.Source != "" {
					full = im.Source + "." + im.Name
				}
				if rest != "" {
					full += "." + rest
				}
				if t, s, ok := p.resolveType(family, full, from); ok {
					return pkgBase{t, s}, true
				}
				return pkgBase{}, false
			}
		}
		// nested in an enclosing type, then the package and enclosing namespaces
		for outer := b.t.path; strings.Contains(outer, "."); {
			outer = outer[:strings.LastIndexByte(outer, '.')]
			if r, ok := typeIn(b.t.pkg, outer+"."+name); ok {
				return r, true
			}
		}
		for ns := b.t.pkg; ns != ""; {
			if r, ok := typeIn(ns, name); ok {
				return r, true
			}
			if family != "csharp" || !strings.Contains(ns, ".") {
				break
			}
			ns = ns[:strings.LastIndexByte(ns, '.')]
		}
		if t, s, ok := p.resolveType(family, name, from); ok {
			return pkgBase{t, s}, true
		}
		var wild []string
		if fi.lang == "java" {
			wild = append(wild, "java.lang")
		}
		for _, im := range facts.Imports {
			if im.Kind == lang.ImportAll {
				wild = append(wild, im.Source)
			}
		}
		var hit pkgBase
		n := 0
		for _, pkg := range wild {
			if r, ok := typeIn(pkg, name); ok && r.s.id != hit.s.id {
				hit, n = r, n+1
			}
		}
		return hit, n == 1
	}
	for _, rel := range facts.TypeRels {
		if int(rel.Def) != b.s.defIdx || rel.Kind == lang.RelEmbeds {
			continue
		}
		if name := lang.TypeName(rel.Target); name != "" {
			if r, ok := resolve(name); ok {
				out = append(out, r)
			}
		}
	}
	return out
}
