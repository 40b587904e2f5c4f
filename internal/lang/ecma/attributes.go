package ecma

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// A JavaScript class need not declare its fields: the constructor or a
// method assigns them (this.cache = new Cache()). Such a property, which the
// class body declares in no other way, is a property of the class defined
// where the constructor first assigns it, or else the first method that
// does; its span is its name, so that it holds none of the method's code,
// and its signature the assignment. Its type is the class that every such
// assignment constructs (new Cache()), when they agree.

// thisSite is an assignment of a property through this in a method.
type thisSite struct {
	class int32
	name  string
	prop  int  // the property's name node
	stmt  int  // the assignment
	ctor  bool // in the constructor
	types []string
	other bool // an assignment of something else than new C(...)
}

// ThisProperties adds the properties that methods assign through this, in
// JavaScript, whose classes need not declare them; fns are the other
// functions whose this is an instance (PrototypeMethods).
func ThisProperties(v *lang.View, f *lang.Facts, fns map[int]bool) {
	sites := map[string]*thisSite{}
	var order []string
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "assignment_expression" {
			continue
		}
		left := langutil.Child(v, n, "left")
		if left < 0 || v.Kind(left) != "member_expression" {
			continue
		}
		obj, prop := langutil.Child(v, left, "object"), langutil.Child(v, left, "property")
		if obj < 0 || prop < 0 || v.Kind(obj) != "this" || v.Kind(prop) != "property_identifier" {
			continue
		}
		m := langutil.Enclosing(f, v.Start(n))
		if m < 0 {
			continue
		}
		if !methodThis(v, n, fns) {
			continue
		}
		cls, ctor := f.Defs[m].Parent, f.Defs[m].Kind == lang.KindConstructor
		switch f.Defs[m].Kind {
		case lang.KindMethod, lang.KindConstructor:
		case lang.KindClass: // a constructor function's own body
			cls, ctor = m, true
		default:
			continue
		}
		if cls < 0 || f.Defs[cls].Kind != lang.KindClass {
			continue
		}
		key := f.Defs[cls].Path + "\x00" + v.Text(prop)
		s := sites[key]
		if s == nil {
			s = &thisSite{class: cls, name: v.Text(prop), prop: prop, stmt: n, ctor: ctor}
			sites[key] = s
			order = append(order, key)
		} else if ctor && !s.ctor {
			s.prop, s.stmt, s.ctor = prop, n, true
		}
		if t := constructed(v, langutil.Child(v, n, "right")); t != "" {
			s.types = append(s.types, t)
		} else {
			s.other = true
		}
	}
	if len(order) == 0 {
		return
	}
	var add []lang.Def
	for _, key := range order {
		s := sites[key]
		if langutil.HasMember(f, s.class, s.name) {
			continue
		}
		d := langutil.AssignedDef(v, f, lang.KindProperty, s.class, s.name, s.prop, s.stmt, lang.VisPublic)
		if !s.other {
			d.Type = langutil.Agreed(s.types)
		}
		add = append(add, d)
	}
	langutil.DeclareAssigned(f, add)
}

// methodThis reports whether this at node n is the method's: no function
// of its own (function () { this.x = 1 }, whose this is its caller's)
// stands between n and the method; an arrow function keeps the method's.
// fns are the other functions whose this is an instance: constructor
// functions and the functions given to prototypes (prototypes.go).
func methodThis(v *lang.View, n int, fns map[int]bool) bool {
	for p := v.Parent(n); p >= 0; p = v.Parent(p) {
		if fns[p] {
			return true
		}
		switch v.Kind(p) {
		case "method_definition":
			return true
		case "function_expression", "function", "function_declaration", "generator_function", "generator_function_declaration":
			return false
		}
	}
	return false
}

// constructed is the class that expression n constructs (new Cache(),
// new db.Pool()), or "".
func constructed(v *lang.View, n int) string {
	if n < 0 || v.Kind(n) != "new_expression" {
		return ""
	}
	c := langutil.Child(v, n, "constructor")
	if c < 0 || (v.Kind(c) != "identifier" && v.Kind(c) != "member_expression") {
		return ""
	}
	return lang.TypeName(v.Text(c))
}
