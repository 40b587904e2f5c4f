package python

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Chains: the class of a receiver written as a chain of attributes and
// calls, each step read from what the repository's code declares.
//
//	self.factory.make().price()   Cart.factory is a Factory, Factory.make
//	                              is annotated -> Item: Item.price
//	c = self.factory.make()       c holds that Item: c.price() is Item's
//	c.price()
//	x.owner.name                  the attribute owner of x's class (a
//	                              property: its return annotation)
//
// A member a class does not declare is its bases' (in source order, depth
// first). A step the code does not type (an attribute without a type, a
// method without a return annotation, a base outside the repository before
// the one that declares the member) leaves the chain unresolved.

// pyMaxChain bounds the steps of one chain.
const pyMaxChain = 8

// chainClass is the class of the value of expr, a chain read where r is:
// its head a local, self or a function or class of the file, then
// attributes and calls.
func (p *pyLinker) chainClass(ctx context.Context, r lang.Ref, expr string, depth int) (file, cls string, ok bool) {
	if depth > pyMaxChain || expr == "" || strings.ContainsAny(expr, "\"'") {
		return "", "", false
	}
	if callee, ok := cutCall(expr); ok {
		return p.callClass(ctx, r, callee, depth+1)
	}
	head, attr, dotted := cutLastDot(expr)
	if !dotted {
		return p.headClass(ctx, r, expr, depth+1)
	}
	if !lang.IsIdentifier(attr) {
		return "", "", false
	}
	file, cls, ok = p.chainClass(ctx, r, head, depth+1)
	if !ok {
		return "", "", false
	}
	return p.l.memberClass(ctx, file, cls, attr, lang.KindField)
}

// callClass is the class a call of callee returns: a method of the class
// of the chain before it by its return annotation, a function of the file
// or imported by its return annotation, or a class it constructs.
func (p *pyLinker) callClass(ctx context.Context, r lang.Ref, callee string, depth int) (file, cls string, ok bool) {
	head, m, dotted := cutLastDot(callee)
	if !dotted {
		if !lang.IsIdentifier(callee) || p.shadowed(r, callee) {
			return "", "", false
		}
		if file, cls, ok := p.l.pyReturned(ctx, p.fi, p.facts, callee, 0); ok {
			return file, cls, true
		}
		return p.l.pyClass(ctx, p.fi, p.facts, callee, 0) // C(): a new C
	}
	if file, cls, ok := p.chainClass(ctx, r, head, depth); ok {
		return p.l.memberClass(ctx, file, cls, m, lang.KindMethod)
	}
	first, _, _ := strings.Cut(callee, ".")
	if p.shadowed(r, first) {
		return "", "", false
	}
	return p.l.pyClass(ctx, p.fi, p.facts, callee, 0) // mod.C(): a new mod.C
}

// headClass is the class of the name a chain starts with: self in a
// method, or a local with a type (an annotation, or the call it was
// assigned, itself a chain).
func (p *pyLinker) headClass(ctx context.Context, r lang.Ref, name string, depth int) (file, cls string, ok bool) {
	if name == "self" {
		if c := link.EnclosingClass(p.facts, r.Enclosing); c >= 0 {
			return p.fi.Path, p.facts.Defs[c].Path, true
		}
		return "", "", false
	}
	id, known := p.decl.Names[name]
	if !known {
		return "", "", false
	}
	ls, found := p.decl.Local(id, r.Scope, r.Pos)
	if !found {
		return "", "", false
	}
	typ := p.facts.Locals[ls[0]].Type
	for _, j := range ls[1:] {
		if p.facts.Locals[j].Type != typ {
			return "", "", false // bound to values of other types too
		}
	}
	if typ == "" {
		return "", "", false
	}
	first, _, _ := strings.Cut(typ, ".")
	if !p.shadowed(r, first) {
		if file, cls, ok := p.l.pyClass(ctx, p.fi, p.facts, typ, 0); ok {
			return file, cls, true
		}
	}
	return p.callClass(ctx, r, typ, depth) // x = chain(): the type is the callee
}

// shadowed reports whether a local where r is hides the name.
func (p *pyLinker) shadowed(r lang.Ref, name string) bool {
	id, ok := p.decl.Names[name]
	return ok && p.decl.InScope(id, r.Scope)
}

// memberClass is the class of member name of class cls of file: the type
// of a field (kind KindField; a method read as an attribute is a property,
// with its return annotation) or the return annotation of a method (kind
// KindMethod), resolved where it is written. A member the class does not
// declare is looked up in its bases as pyBases does.
func (l *batch) memberClass(ctx context.Context, file, cls, name string, kind lang.DefKind) (string, string, bool) {
	file, cls, ok, _ := l.memberClassIn(ctx, file, cls, name, kind, 0)
	return file, cls, ok
}

// memberClassIn is memberClass; declared says whether the class or a base
// declares the member (its type known or not), which ends the lookup.
func (l *batch) memberClassIn(ctx context.Context, file, cls, name string, kind lang.DefKind, depth int) (string, string, bool, bool) {
	fi, facts := link.FactsAt(ctx, l.R, file)
	if facts == nil || depth >= 8 {
		return "", "", false, true
	}
	for _, d := range facts.Defs {
		if d.Path != cls+"."+name {
			continue
		}
		// An attribute step may read a method: code that goes on to use
		// the value as an object (x.owner.price()) reads a property.
		if d.Type == "" || d.Kind != kind && !(kind == lang.KindField && d.Kind == lang.KindMethod) {
			return "", "", false, true
		}
		file, c, ok := l.pyClass(ctx, fi, facts, d.Type, 0)
		if !ok || kind == lang.KindField && l.pyMember(ctx, file, c, "__get__", 0) != 0 {
			return "", "", false, true // a descriptor: the attribute's value is what __get__ returns
		}
		return file, c, true, true
	}
	t := pyTopClass(facts, cls)
	if t < 0 {
		return "", "", false, false
	}
	for base := range pyBaseNames(facts, t) {
		f2, c2, ok := l.pyClass(ctx, fi, facts, base, 0)
		if !ok {
			return "", "", false, true // a base outside the repository may declare it
		}
		if file, c, ok, declared := l.memberClassIn(ctx, f2, c2, name, kind, depth+1); declared {
			return file, c, ok, true
		}
	}
	return "", "", false, false
}

// cutLastDot splits a chain at its last dot outside parentheses:
// "a.b(c.d).e" is "a.b(c.d)" and "e".
func cutLastDot(expr string) (head, last string, ok bool) {
	depth := 0
	for i := len(expr) - 1; i >= 0; i-- {
		switch expr[i] {
		case ')', ']':
			depth++
		case '(', '[':
			depth--
		case '.':
			if depth == 0 {
				return expr[:i], expr[i+1:], true
			}
		}
	}
	return "", expr, false
}

// cutCall splits a chain that ends in a call into its callee: "a.b(x).c(y)"
// is "a.b(x).c".
func cutCall(expr string) (string, bool) {
	if !strings.HasSuffix(expr, ")") {
		return "", false
	}
	depth := 0
	for i := len(expr) - 1; i >= 0; i-- {
		switch expr[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return expr[:i], i > 0
			}
		}
	}
	return "", false
}

// pyBuiltinTypes are the built-in classes whose values a local may hold by
// its literal or by a call of the class (x = [], s = str(n)).
var pyBuiltinTypes = link.Set(`list dict set frozenset str bytes bytearray tuple int float complex`)

// pyTypingModules declare names that stand for other classes (Any, a
// Protocol, an abstract collection): a value annotated with one may be of a
// class of the repository.
var pyTypingModules = link.Set(`typing typing_extensions collections.abc abc`)

// outsideValue reports whether the qualifier of r is a local whose value's
// members are not the repository's: a value of a built-in class that
// nothing in the file shadows (x = [], s = str(n)), or an instance of a
// class from outside the repository (its type, annotated or the class whose
// call it was assigned, capitalised as classes are and bound by an import
// from outside: s = requests.Session(), lock: Lock from threading).
func (p *pyLinker) outsideValue(r lang.Ref, outside []bool) bool {
	if r.Shape != lang.QualIdent || !r.QualBound {
		return false
	}
	typ := p.decl.Of(r)
	if typ == "" {
		return false
	}
	if pyBuiltinTypes[typ] {
		_, defined := p.decl.ByPath[typ]
		return !defined && !p.imports(typ)
	}
	first, _, dotted := strings.Cut(typ, ".")
	last := typ[strings.LastIndexByte(typ, '.')+1:]
	if last == "" || last[0] < 'A' || last[0] > 'Z' {
		return false
	}
	for i, im := range p.facts.Imports {
		if im.LocalName() != first || !outside[i] || pyTypingModules[im.Source] {
			continue
		}
		if dotted == (im.Kind == lang.ImportModule || im.Kind == lang.ImportNamespace) {
			return true // mod.Class through import mod, Class through from mod import Class
		}
	}
	return false
}

// imports reports whether an import of the file binds name.
func (p *pyLinker) imports(name string) bool {
	for _, im := range p.facts.Imports {
		if im.LocalName() == name {
			return true
		}
	}
	return false
}
