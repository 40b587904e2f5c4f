package python

import (
	"context"
	"iter"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Python: a member reference whose qualifier has a known class is the
// member of that class (strong):
//
//	def f(s: Session): s.commit()       a parameter annotated with a class
//	x = Cache(); x.get()                a variable assigned a class's call
//	current: Engine = proxy()           a module's variable annotated with a
//	current.run()                       class or assigned its call, in its
//	                                    module or imported by name
//	self.session.commit()               an attribute typed by its assignments
//	                                    (Def.Type of a class-body field or of
//	                                    an instance attribute, attrs.go)
//	self.m(), super().m()               m of the class or of its bases
//
// A class name resolves in the file (a top-level class) or through its
// imports, following re-exports (from .utils import f in a package's
// __init__.py) a few hops to the module that defines it. A member the class
// does not declare is looked up in its bases in source order, depth first;
// a base that does not resolve (other than object and the typing bases)
// could declare it, so the lookup stops there and the reference stays
// unresolved, as it does for every other doubt.

// pyMaxHops bounds the re-exports followed from an import to a definition.
const pyMaxHops = 3

// pyNeutralBases are bases outside the repository that give a subclass no
// members of their own beyond object's, so a member lookup goes on past them.
var pyNeutralBases = map[string]bool{
	"object": true, "ABC": true, "abc.ABC": true, "Generic": true, "typing.Generic": true,
	"Protocol": true, "typing.Protocol": true,
}

// pyMemo remembers lookups across the files of a batch: each one decodes the
// facts of other files, and the same classes come up again and again.
type pyMemo struct {
	defined map[pyKey]pyDef
	member  map[pyKey]int64
	opaque  map[pyKey]bool
}

type pyKey struct {
	file, name, member string
	kind               lang.DefKind
	depth              int // pyDefined: the hops already followed
}

// pyDef is where a name is defined: a file and a top-level name.
type pyDef struct {
	file, name string
	ok         bool
}

func (l *batch) memo() *pyMemo {
	if l.pyMemo == nil {
		l.pyMemo = &pyMemo{defined: map[pyKey]pyDef{}, member: map[pyKey]int64{}, opaque: map[pyKey]bool{}}
	}
	return l.pyMemo
}

// pyLinker links the typed member references of one Python file.
type pyLinker struct {
	l        *batch
	fi       lang.File
	facts    *lang.Facts
	decl     *link.DeclTypes
	assigned map[string]bool // "Class.path\x00x": a method of the class assigns self.x
}

func (l *batch) newPyLinker(fi lang.File, facts *lang.Facts) *pyLinker {
	p := &pyLinker{l: l, fi: fi, facts: facts, decl: link.NewDeclTypes(fi.Path, facts, false, false),
		assigned: map[string]bool{}}
	for _, r := range facts.Refs {
		if r.Role == lang.RoleWrite && r.Shape == lang.QualSelf {
			if cls := link.EnclosingClass(facts, r.Enclosing); cls >= 0 {
				p.assigned[facts.Defs[cls].Path+"\x00"+facts.Names[r.Name]] = true
			}
		}
	}
	return p
}

// link resolves reference r when its qualifier has a known class; handled
// is false when the linker's other rules should decide.
func (p *pyLinker) link(ctx context.Context, r lang.Ref, name string) (id int64, handled bool) {
	f := p.facts
	q := f.Names[r.Qualifier]
	switch r.Shape {
	case lang.QualIdent:
		fi, facts, typ := p.fi, f, p.decl.Of(r)
		if typ == "" {
			fi, facts, typ = p.moduleVarType(ctx, r)
		}
		if typ == "" {
			// x = self.factory.make(): a chain from a local
			if file, cls, ok := p.headClass(ctx, r, q, 0); ok && r.QualBound {
				return p.l.pyMember(ctx, file, cls, name, 0), true
			}
			return 0, false
		}
		file, cls, ok := p.l.pyClass(ctx, fi, facts, typ, 0)
		if !ok {
			// x = make(): the class make's return annotation names
			file, cls, ok = p.l.pyReturned(ctx, fi, facts, typ, 0)
		}
		if !ok && facts == f {
			// x = factory.make(): the class the chain's call returns
			file, cls, ok = p.callClass(ctx, r, typ, 0)
		}
		if !ok {
			return 0, false
		}
		return p.l.pyMember(ctx, file, cls, name, 0), true

	case lang.QualPath:
		attr, ok := strings.CutPrefix(q, "self.")
		if !ok || strings.Contains(attr, ".") {
			// self.a.b.m, x.a.m: the class of the chain's last attribute
			if file, c, ok := p.chainClass(ctx, r, q, 0); ok {
				return p.l.pyMember(ctx, file, c, name, 0), true
			}
			return 0, false
		}
		cls := link.EnclosingClass(f, r.Enclosing)
		if cls < 0 {
			return 0, false
		}
		typ, field := p.attrType(cls, attr)
		if typ == "" {
			return 0, false
		}
		if !field && p.l.pyBases(ctx, p.fi, f, cls, attr, 0) != 0 {
			return 0, true // a base declares the attribute, whose annotation would win
		}
		file, c, ok := p.l.pyClass(ctx, p.fi, f, typ, 0)
		if !ok {
			return 0, false
		}
		if field && p.l.pyMember(ctx, file, c, "__get__", 0) != 0 {
			return 0, true // a descriptor: the attribute's value is what __get__ returns
		}
		return p.l.pyMember(ctx, file, c, name, 0), true
	case lang.QualSelf:
		// self.m that the class does not declare: m of its bases, unless a
		// method of the class assigns self.m
		cls := link.EnclosingClass(f, r.Enclosing)
		if cls < 0 || p.decl.HasPath(f.Defs[cls].Path+"."+name) {
			return 0, false
		}
		if p.assigned[f.Defs[cls].Path+"\x00"+name] {
			return 0, true
		}
		return p.l.pyBases(ctx, p.fi, f, cls, name, 0), true
	case lang.QualCall:
		if cls := link.EnclosingClass(f, r.Enclosing); cls >= 0 && isSuper(q, f.Defs[cls].Name) {
			return p.l.pyBases(ctx, p.fi, f, cls, name, 0), true
		}
		// make().m, self.build().m: m of the class the function's or
		// method's return annotation names
		if file, c, ok := p.callResult(ctx, r, q); ok {
			return p.l.pyMember(ctx, file, c, name, 0), true
		}
		// self.factory.make().m, x.parent().m: through the chain's steps
		if callee, _ := cutCall(q); strings.Contains(callee, ".") {
			if file, c, ok := p.chainClass(ctx, r, q, 0); ok {
				return p.l.pyMember(ctx, file, c, name, 0), true
			}
		}
		// C(...).m: m of the class C the call constructs
		callee := calleeOf(q)
		if callee == "" || callee == "super" {
			return 0, false
		}
		if first, _, _ := strings.Cut(callee, "."); p.shadowed(r, first) {
			return 0, false // a local, not the class
		}
		file, c, ok := p.l.pyClass(ctx, p.fi, f, callee, 0)
		if !ok {
			return 0, false
		}
		return p.l.pyMember(ctx, file, c, name, 0), true
	}
	return 0, false
}

// moduleVarType is the type of the qualifier of r when it is a variable of a
// module (Def.Type): of this file, where no local hides it, or imported by
// name from another module of the repository; with the file whose scope
// the type's name is written in. typ is "" otherwise.
func (p *pyLinker) moduleVarType(ctx context.Context, r lang.Ref) (fi lang.File, facts *lang.Facts, typ string) {
	f := p.facts
	q := f.Names[r.Qualifier]
	switch {
	case r.QualBound:
		if _, local := p.decl.Local(r.Qualifier, r.Scope, r.Pos); local {
			return fi, nil, ""
		}
		if i, ok := p.decl.ByPath[q]; ok && f.Defs[i].Parent < 0 && f.Defs[i].Kind == lang.KindVariable {
			return p.fi, f, f.Defs[i].Type
		}
	case r.BindImp >= 0:
		im := f.Imports[r.BindImp]
		if im.Kind != lang.ImportNamed || im.LocalName() != q {
			return fi, nil, ""
		}
		t, ok := p.l.R.Import(ctx, p.fi, im)
		if !ok {
			return fi, nil, ""
		}
		file, name, ok := p.l.pyDefined(ctx, t.File, im.Name, lang.KindVariable, 0)
		if !ok {
			return fi, nil, ""
		}
		fi, facts = link.FactsAt(ctx, p.l.R, file)
		if facts == nil {
			return fi, nil, ""
		}
		for _, d := range facts.Defs {
			if d.Parent < 0 && d.Name == name {
				return fi, facts, d.Type
			}
		}
	}
	return fi, nil, ""
}

// calleeOf is the callee of a qualifier that is one call of a name or a
// dotted path ("C" of "C(a, b)", "m.C" of "m.C()"), or "".
func calleeOf(q string) string {
	name, ok := cutCall(q)
	if !ok || strings.ContainsAny(q, "\"'") {
		return ""
	}
	for _, part := range strings.Split(name, ".") {
		if part == "" || strings.Trim(part, "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" || part[0] >= '0' && part[0] <= '9' {
			return "" // f(a)(b), f(a).g(b), x[0]()
		}
	}
	return name
}

// isSuper reports whether a qualifier is super() or super(Class, self) in
// class Class.
func isSuper(q, class string) bool {
	if q == "super()" {
		return true
	}
	args, open := strings.CutPrefix(q, "super(")
	args, closed := strings.CutSuffix(args, ")")
	if !open || !closed {
		return false
	}
	c, self, ok := strings.Cut(args, ",")
	return ok && strings.TrimSpace(c) == class && strings.TrimSpace(self) == "self"
}

// attrType is the type of attribute attr of class def cls: the type of its
// class-body field (field is true then) or of the instance attribute a
// method assigns.
func (p *pyLinker) attrType(cls int32, attr string) (typ string, field bool) {
	f := p.facts
	i, ok := p.decl.ByPath[f.Defs[cls].Path+"."+attr]
	if !ok || f.Defs[i].Kind != lang.KindField {
		return "", false
	}
	return f.Defs[i].Type, !instanceAttribute(f.Defs[i])
}

// pyClass resolves a class name written in a Python file ("C", "mod.C",
// "pkg.mod.C") to the file and top-level name of its definition; ok is false
// unless it is a class of the repository.
// callResult is the class that the call qualifying r (f(), f(x),
// self.m()) returns by its function's or method's annotation.
func (p *pyLinker) callResult(ctx context.Context, r lang.Ref, call string) (file, name string, ok bool) {
	callee, _, open := strings.Cut(call, "(")
	if !open || !strings.HasSuffix(call, ")") {
		return "", "", false
	}
	if m, ok := strings.CutPrefix(callee, "self."); ok && lang.IsIdentifier(m) {
		cls := link.EnclosingClass(p.facts, r.Enclosing)
		if cls < 0 {
			return "", "", false
		}
		if d, ok := p.decl.ByPath[p.facts.Defs[cls].Path+"."+m]; ok && p.facts.Defs[d].Type != "" {
			return p.l.pyClass(ctx, p.fi, p.facts, p.facts.Defs[d].Type, 0)
		}
		return "", "", false
	}
	if recv, m, ok := strings.Cut(callee, "."); ok && lang.IsIdentifier(recv) && lang.IsIdentifier(m) {
		return p.methodResult(ctx, r, recv, m) // s.make(): s's class's make
	}
	if !lang.IsIdentifier(callee) {
		return "", "", false
	}
	return p.l.pyReturned(ctx, p.fi, p.facts, callee, 0)
}

// methodResult is the class that method m of the class a local recv is
// declared or constructed with declares it returns.
func (p *pyLinker) methodResult(ctx context.Context, r lang.Ref, recv, m string) (file, name string, ok bool) {
	id, known := p.decl.Names[recv]
	if !known {
		return "", "", false
	}
	ls, found := p.decl.Local(id, r.Scope, r.Pos)
	if !found || p.facts.Locals[ls[0]].Type == "" {
		return "", "", false
	}
	file, cls, ok := p.l.pyClass(ctx, p.fi, p.facts, p.facts.Locals[ls[0]].Type, 0)
	if !ok {
		return "", "", false
	}
	fi, found := p.l.R.File(file)
	facts := p.l.R.Facts(ctx, file)
	if !found || facts == nil {
		return "", "", false
	}
	for _, d := range facts.Defs {
		if d.Path == cls+"."+m && d.Kind == lang.KindMethod && d.Type != "" {
			return p.l.pyClass(ctx, fi, facts, d.Type, 0)
		}
	}
	return "", "", false
}

// pyReturned is the class that the return annotation of top-level function
// fn, of the file or imported by name, names.
func (l *batch) pyReturned(ctx context.Context, fi lang.File, facts *lang.Facts, fn string, depth int) (file, name string, ok bool) {
	if depth > pyMaxHops || !lang.IsIdentifier(fn) {
		return "", "", false
	}
	for _, d := range facts.Defs {
		if d.Parent < 0 && d.Name == fn {
			if d.Kind != lang.KindFunction || d.Type == "" {
				return "", "", false
			}
			return l.pyClass(ctx, fi, facts, d.Type, depth)
		}
	}
	for _, im := range facts.Imports {
		if im.Kind != lang.ImportNamed || im.LocalName() != fn {
			continue
		}
		t, ok := l.R.Import(ctx, fi, im)
		if !ok {
			return "", "", false
		}
		tf, found := l.R.File(t.File)
		tfacts := l.R.Facts(ctx, t.File)
		if !found || tfacts == nil {
			return "", "", false
		}
		return l.pyReturned(ctx, tf, tfacts, im.Name, depth+1)
	}
	return "", "", false
}

func (l *batch) pyClass(ctx context.Context, fi lang.File, facts *lang.Facts, typ string, depth int) (file, name string, ok bool) {
	first, rest, dotted := strings.Cut(typ, ".")
	if !dotted {
		for _, d := range facts.Defs {
			if d.Parent < 0 && d.Name == typ {
				if d.Kind == lang.KindClass {
					return fi.Path, typ, true
				}
				return "", "", false
			}
		}
	}
	for _, im := range facts.Imports {
		switch {
		case !dotted && im.Kind == lang.ImportNamed && im.LocalName() == typ:
			t, ok := l.R.Import(ctx, fi, im)
			if !ok {
				return "", "", false
			}
			return l.pyDefined(ctx, t.File, im.Name, lang.KindClass, depth)
		case dotted && im.Kind == lang.ImportModule && (im.Alias == first || im.Alias == "" && strings.HasPrefix(typ, im.Source+".")):
			cls := rest
			if im.Alias == "" {
				cls = strings.TrimPrefix(typ, im.Source+".")
			}
			if strings.Contains(cls, ".") {
				continue // import a.b binds a: a.b.C is C of a.b, another import's
			}
			t, ok := l.R.Import(ctx, fi, im)
			if !ok {
				return "", "", false
			}
			return l.pyDefined(ctx, t.File, cls, lang.KindClass, depth)
		case dotted && im.Kind == lang.ImportNamed && im.LocalName() == first && !strings.Contains(rest, "."):
			t, ok := l.R.Import(ctx, fi, im)
			if !ok {
				return "", "", false
			}
			sub, ok := l.pySubmodule(t, im.Name)
			if !ok || l.Tops.Of(ctx, t.File).First[im.Name] != 0 {
				return "", "", false
			}
			return l.pyDefined(ctx, sub, rest, lang.KindClass, depth)
		}
	}
	return "", "", false
}

// pyDefined follows name from module file to the module that defines it:
// a top-level definition of the file, or a name the file imports from
// another module of the repository (a re-export), a few hops deep. kind,
// when not KindUnknown, is the kind the definition must have.
func (l *batch) pyDefined(ctx context.Context, file, name string, kind lang.DefKind, depth int) (string, string, bool) {
	if depth > pyMaxHops {
		return "", "", false
	}
	k := pyKey{file: file, name: name, kind: kind, depth: depth}
	m := l.memo()
	if d, ok := m.defined[k]; ok {
		return d.file, d.name, d.ok
	}
	f, n, ok := l.pyDefinedIn(ctx, file, name, kind, depth)
	m.defined[k] = pyDef{f, n, ok}
	return f, n, ok
}

func (l *batch) pyDefinedIn(ctx context.Context, file, name string, kind lang.DefKind, depth int) (string, string, bool) {
	if depth > pyMaxHops {
		return "", "", false
	}
	fi, facts := link.FactsAt(ctx, l.R, file)
	if facts == nil {
		return "", "", false
	}
	for _, d := range facts.Defs {
		if d.Parent < 0 && d.Name == name {
			if kind != lang.KindUnknown && d.Kind != kind {
				return "", "", false
			}
			return file, name, true
		}
	}
	var stars []lang.Import
	for _, im := range facts.Imports {
		switch {
		case im.Kind == lang.ImportNamed && im.LocalName() == name:
			t, ok := l.R.Import(ctx, fi, im)
			if !ok {
				return "", "", false
			}
			return l.pyDefined(ctx, t.File, im.Name, kind, depth+1)
		case im.Kind == lang.ImportModule && im.LocalName() == name:
			return "", "", false // a module, not a definition
		case im.Kind == lang.ImportAll:
			stars = append(stars, im)
		}
	}
	// from .m import *: the one star-imported module that defines name
	var hit [3]string
	n := 0
	for _, im := range stars {
		t, ok := l.R.Import(ctx, fi, im)
		if !ok {
			return "", "", false // an unresolved star import could bring the name
		}
		if f2, n2, ok := l.pyDefined(ctx, t.File, name, kind, depth+1); ok && (n == 0 || f2 != hit[0]) {
			hit = [3]string{f2, n2}
			n++
		}
	}
	if n == 1 {
		return hit[0], hit[1], true
	}
	return "", "", false
}

// pyTopName is the symbol of top-level name of module file or of the
// definition it re-exports; 0 for none.
func (l *batch) pyTopName(ctx context.Context, file, name string) int64 {
	if id := l.Tops.Of(ctx, file).First[name]; id != 0 {
		return id
	}
	f, n, ok := l.pyDefined(ctx, file, name, lang.KindUnknown, 0)
	if !ok {
		return 0
	}
	return l.Tops.Of(ctx, f).First[n]
}

// pyMember is the symbol of member name of the top-level class cls of a
// Python file, or of its bases; 0 for none or in doubt.
func (l *batch) pyMember(ctx context.Context, file, cls, name string, depth int) int64 {
	if id := l.Paths.Of(ctx, file)[cls+"."+name]; id != 0 || depth >= 8 {
		return id
	}
	k := pyKey{file: file, name: cls, member: name}
	m := l.memo()
	if id, ok := m.member[k]; ok {
		return id
	}
	m.member[k] = 0 // a cycle of bases ends here
	id := l.pyInherited(ctx, file, cls, name, depth)
	m.member[k] = id
	return id
}

// pyInherited is pyMember for a member that class cls does not declare.
func (l *batch) pyInherited(ctx context.Context, file, cls, name string, depth int) int64 {
	fi, facts := link.FactsAt(ctx, l.R, file)
	if facts == nil {
		return 0
	}
	if t := pyTopClass(facts, cls); t >= 0 {
		return l.pyBases(ctx, fi, facts, t, name, depth)
	}
	return 0
}

// pyBases is the symbol of member name in the bases of class def t, in
// source order, depth first; 0 when none declares it or a base before the
// one that does cannot be resolved.
func (l *batch) pyBases(ctx context.Context, fi lang.File, facts *lang.Facts, t int32, name string, depth int) int64 {
	if depth >= 8 {
		return 0
	}
	for base := range pyBaseNames(facts, t) {
		file, cls, ok := l.pyClass(ctx, fi, facts, base, 0)
		if !ok {
			return 0
		}
		if id := l.pyMember(ctx, file, cls, name, depth+1); id != 0 {
			return id
		}
		if l.pyOpaque(ctx, file, cls, depth+1) {
			return 0
		}
	}
	return 0
}

// pyOpaque reports whether a class of the repository has, among its bases
// (transitively), one that does not resolve: a member it lacks could come
// from there.
func (l *batch) pyOpaque(ctx context.Context, file, cls string, depth int) bool {
	if depth >= 8 {
		return true
	}
	k := pyKey{file: file, name: cls}
	m := l.memo()
	if o, ok := m.opaque[k]; ok {
		return o
	}
	m.opaque[k] = true // a cycle of bases is in doubt
	o := l.pyOpaqueBases(ctx, file, cls, depth)
	m.opaque[k] = o
	return o
}

func (l *batch) pyOpaqueBases(ctx context.Context, file, cls string, depth int) bool {
	fi, facts := link.FactsAt(ctx, l.R, file)
	if facts == nil {
		return true
	}
	t := pyTopClass(facts, cls)
	if t < 0 {
		return true
	}
	for base := range pyBaseNames(facts, t) {
		f2, c2, ok := l.pyClass(ctx, fi, facts, base, 0)
		if !ok || l.pyOpaque(ctx, f2, c2, depth+1) {
			return true
		}
	}
	return false
}

// pyTopClass is the first top-level class of a file named cls, or -1.
func pyTopClass(facts *lang.Facts, cls string) int32 {
	for i, d := range facts.Defs {
		if d.Parent < 0 && d.Name == cls && d.Kind == lang.KindClass {
			return int32(i)
		}
	}
	return -1
}

// pyBaseNames are the bases of class def t that may give it members, in
// source order: neither the neutral ones nor keywords (metaclass=M).
func pyBaseNames(facts *lang.Facts, t int32) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, rel := range facts.TypeRels {
			if rel.Def != t || strings.Contains(rel.Target, "=") {
				continue
			}
			if base := lang.TypeName(rel.Target); !pyNeutralBases[base] && !yield(base) {
				return
			}
		}
	}
}
