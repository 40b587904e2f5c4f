package python

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// attrEvidence is what the assignments of one class attribute say of its type.
type attrEvidence struct {
	declared []string // annotations (x: T in the class body, self.x: T = v); "" for one that names no class
	inferred []string // classes called on the right (x = T(...), self.x = T(...))
	unknown  bool     // an assignment of another value (None aside)
	pos      lang.Pos // the first assignment
	site     attrSite // where a method declares an instance attribute
}

// attrSite is the assignment through self that declares an instance
// attribute: the first one in __init__, else the first in any method.
type attrSite struct {
	attr int  // the attribute's name node (x of self.x = v)
	stmt int  // the assignment node
	init bool // in __init__
	ok   bool
}

// declaredAt records an assignment of the attribute through self at node n
// (attribute name node attr), in __init__ or another method.
func (e *attrEvidence) declaredAt(v *lang.View, n, attr int, init bool) {
	if e.site.ok && (e.site.init || !init) {
		return
	}
	e.site = attrSite{attr: attr, stmt: n, init: init, ok: true}
}

// typ is the attribute's type: the annotation when every annotation agrees,
// else the class every assignment calls; "" when the evidence disagrees or
// is missing. None is compatible with any type.
func (e *attrEvidence) typ() string {
	if len(e.declared) > 0 {
		return langutil.Agreed(e.declared)
	}
	if e.unknown {
		return ""
	}
	return langutil.Agreed(e.inferred)
}

type attrKey struct {
	class int32 // index into Facts.Defs; -1 for a module-level variable
	name  string
}

// attributes declares and types the attributes of classes from their
// assignments: the fields assigned in the class body (Def.Type) and the
// instance attributes that methods assign through self (self.x = T(...),
// self.x: T = v, self.a, self.b = a, b: untyped); and the variables of the
// module the same way (current: Engine = proxy(), caches = CacheHandler():
// Def.Type of each definition of the name). An instance attribute that the class body does not declare is
// a field of the class defined where a method first assigns it (in
// __init__ if it does), its name only: its signature is the assignment
// (self.x = v). Anything but one class agreed on by all assignments leaves
// the attribute untyped.
func attributes(v *lang.View, f *lang.Facts) {
	a := &attrs{v: v, f: f, ev: map[attrKey]*attrEvidence{}, covered: map[lang.Pos]bool{}}
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) == "assignment" {
			a.assignment(n)
		}
	}
	a.otherBindings()
	a.apply()
}

// attrs gathers the evidence of a file's attributes and module variables.
type attrs struct {
	v     *lang.View
	f     *lang.Facts
	ev    map[attrKey]*attrEvidence
	order []attrKey // in the order first seen
	// covered are the attribute names of the assignments read
	covered map[lang.Pos]bool
}

// get is the evidence of k, first seen at p.
func (a *attrs) get(k attrKey, p lang.Pos) *attrEvidence {
	e := a.ev[k]
	if e == nil {
		e = &attrEvidence{pos: p}
		a.ev[k] = e
		a.order = append(a.order, k)
	}
	return e
}

// declare records target t of assignment n when it is self.x in a method
// of a class: the evidence of x, or nil.
func (a *attrs) declare(n, t int) *attrEvidence {
	v, f := a.v, a.f
	m, cls, attr, ok := selfAttribute(v, f, n, t)
	if !ok {
		return nil
	}
	a.covered[v.Start(attr)] = true
	e := a.get(attrKey{cls, v.Text(attr)}, v.Start(t))
	e.declaredAt(v, n, attr, f.Defs[m].Name == "__init__")
	return e
}

// assignment reads assignment node n: a module variable, a field in a
// class body, self.x in a method, or self.a, self.b = a, b.
func (a *attrs) assignment(n int) {
	v, f := a.v, a.f
	left := v.Child(n, "left")
	if left < 0 {
		return
	}
	switch v.Kind(left) {
	case "identifier":
		// a field in a class body: assignment < expression_statement < block < class_definition
		st := v.Parent(n)
		if st < 0 || v.Kind(st) != "expression_statement" {
			return
		}
		blk := v.Parent(st)
		p := v.Start(left)
		if v.Kind(blk) == "module" {
			for _, d := range f.Defs {
				if d.NameSpan.Start == p && d.Kind == lang.KindVariable && d.Parent < 0 {
					a.covered[p] = true
					assignment(v, f, n, a.get(attrKey{-1, d.Name}, p), -1)
					break
				}
			}
			return
		}
		if blk < 0 || v.Kind(blk) != "block" || v.Parent(blk) < 0 || v.Kind(v.Parent(blk)) != "class_definition" {
			return
		}
		cls := int32(-1)
		for _, d := range f.Defs {
			if d.NameSpan.Start == p && d.Kind == lang.KindField {
				cls = d.Parent
				break
			}
		}
		if cls < 0 {
			return
		}
		a.covered[p] = true
		assignment(v, f, n, a.get(attrKey{cls, v.Text(left)}, p), -1)
	case "attribute":
		if e := a.declare(n, left); e != nil {
			assignment(v, f, n, e, langutil.InnermostScope(f, v.Start(n)))
		}
	case "pattern_list", "tuple_pattern":
		// self.a, self.b = a, b: attributes, of no type the assignment says
		for _, c := range v.Children(left) {
			if e := a.declare(n, c); e != nil {
				e.unknown = true
			}
		}
	}
}

// otherBindings marks what other bindings name (x += 1, a, b = ..., for
// self.x in ..., fields and variables no assignment read): they say
// nothing of the type.
func (a *attrs) otherBindings() {
	f := a.f
	for _, r := range f.Refs {
		if r.Role != lang.RoleWrite || a.covered[r.Pos] {
			continue
		}
		if r.Shape == lang.QualSelf && f.Names[r.Qualifier] == "self" {
			if m := langutil.Enclosing(f, r.Pos); m >= 0 && f.Defs[m].Kind == lang.KindMethod && f.Defs[m].Parent >= 0 {
				a.get(attrKey{f.Defs[m].Parent, f.Names[r.Name]}, r.Pos).unknown = true
			}
		}
	}
	for _, d := range f.Defs {
		if d.Kind == lang.KindField && d.Parent >= 0 && !a.covered[d.NameSpan.Start] {
			a.get(attrKey{d.Parent, d.Name}, d.NameSpan.Start).unknown = true
		}
		if d.Kind == lang.KindVariable && d.Parent < 0 && !a.covered[d.NameSpan.Start] {
			a.get(attrKey{-1, d.Name}, d.NameSpan.Start).unknown = true // a, b = ..., in an if block
		}
	}
}

// apply declares the instance attributes no class body declares and gives
// fields and module variables the type their evidence agrees on.
func (a *attrs) apply() {
	v, f := a.v, a.f
	var add []lang.Def
	for _, k := range a.order {
		e := a.ev[k]
		t := e.typ()
		if k.class >= 0 && e.site.ok && !langutil.HasMember(f, k.class, k.name) {
			d := langutil.AssignedDef(v, f, lang.KindField, k.class, k.name, e.site.attr, e.site.stmt, Visibility(k.name))
			d.Type = t
			add = append(add, d)
			continue
		}
		if t == "" {
			continue
		}
		if k.class < 0 {
			for i, d := range f.Defs {
				if d.Kind == lang.KindVariable && d.Parent < 0 && d.Name == k.name {
					f.Defs[i].Type = t
				}
			}
			continue
		}
		field := -1
		for i, d := range f.Defs {
			if d.Parent == k.class && d.Name == k.name {
				field = i
				break
			}
		}
		if field >= 0 && f.Defs[field].Kind == lang.KindField {
			f.Defs[field].Type = t
		}
	}
	langutil.DeclareAssigned(f, add)
}

// instanceAttribute reports whether field d is an attribute that a method
// assigns rather than one the class body declares.
func instanceAttribute(d lang.Def) bool { return strings.HasPrefix(d.Signature, "self.") }

// selfAttribute reads target node t of assignment n as self.x in a method
// of a class, or cls.x in a class method (an attribute of the class that
// its instances see too): the method, the class, and x's node.
func selfAttribute(v *lang.View, f *lang.Facts, n, t int) (method, class int32, attr int, ok bool) {
	if v.Kind(t) != "attribute" {
		return 0, 0, 0, false
	}
	obj, attr := v.Child(t, "object"), v.Child(t, "attribute")
	if obj < 0 || attr < 0 || v.Kind(obj) != "identifier" || (v.Text(obj) != "self" && v.Text(obj) != "cls") {
		return 0, 0, 0, false
	}
	m := langutil.Enclosing(f, v.Start(n))
	if m < 0 || f.Defs[m].Kind != lang.KindMethod || f.Defs[m].Parent < 0 {
		return 0, 0, 0, false
	}
	cls := f.Defs[m].Parent
	if f.Defs[cls].Kind != lang.KindClass {
		return 0, 0, 0, false
	}
	return m, cls, attr, true
}

// assignment adds what assignment node n says of an attribute's type. scope,
// for an assignment in a method, is where a name on the right resolves.
func assignment(v *lang.View, f *lang.Facts, n int, e *attrEvidence, scope int32) {
	if t := v.Child(n, "type"); t >= 0 {
		e.declared = append(e.declared, classType(v, t))
		return
	}
	r := v.Child(n, "right")
	if r < 0 {
		e.unknown = true
		return
	}
	switch v.Kind(r) {
	case "none":
	case "call":
		if fn := v.Child(r, "function"); fn >= 0 && (v.Kind(fn) == "identifier" || v.Kind(fn) == "attribute") {
			if t := lang.TypeName(v.Text(fn)); t != "" {
				e.inferred = append(e.inferred, t)
				return
			}
		}
		e.unknown = true
	case "identifier":
		// self.x = x, where x is a parameter or local with a type
		if scope >= 0 {
			name := v.Text(r)
			for s := scope; s >= 0; s = f.Scopes[s].Parent {
				for _, lo := range f.Locals {
					if lo.Scope == s && f.Names[lo.Name] == name {
						if lo.Type != "" {
							e.inferred = append(e.inferred, lo.Type)
						} else {
							e.unknown = true
						}
						return
					}
				}
			}
		}
		e.unknown = true
	default:
		e.unknown = true
	}
}

// classType is the class an annotation (a type node) names, or "".
func classType(v *lang.View, t int) string {
	for _, c := range v.Children(t) {
		switch v.Kind(c) {
		case "identifier", "attribute":
			return lang.TypeName(v.Text(c))
		}
	}
	return ""
}
