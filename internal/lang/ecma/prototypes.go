package ecma

import (
	"sort"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// JavaScript before ES classes: a constructor function and the methods its
// prototype is given,
//
//	function Emitter(opts) { this.handlers = {}; }
//	Emitter.prototype.on = function (name, fn) { ... };
//	Emitter.prototype = { emit: function (name) { ... }, off() { ... } };
//
// are a class, as TypeScript reads them in JavaScript: Emitter becomes a
// class, each member assigned to its prototype a method of it (a property
// when the value is no function) defined by the assignment, whose function
// encloses the references in its body, and this in the constructor and in
// those functions is an instance (ThisProperties).

// protoMember is one member a module-level statement gives a prototype.
type protoMember struct {
	owner      int32  // the constructor's definition
	name       string // the member's name
	nameNode   int    // where the name is written
	span, stmt int    // the definition's extent: the assignment, or the pair
	fn         int    // the function node, or -1 for another value
	proto      int    // the prototype of X.prototype, part of the definition
}

// PrototypeMethods makes the constructor functions whose prototypes the
// module gives members classes with those members, and records what such a
// class inherits from (inheritance). It returns the function nodes whose
// this is an instance besides methods': those constructor functions and
// the functions given to prototypes (for ThisProperties).
func PrototypeMethods(v *lang.View, f *lang.Facts) map[int]bool {
	ctors := inheritance(v, f)
	members := prototypeMembers(v, f)
	fns := map[int]bool{}
	for _, m := range members {
		ctors[m.owner] = true
		if m.fn >= 0 {
			fns[m.fn] = true
		}
	}
	constructorFunctions(v, f, ctors, fns) // before members are added: ctors are indices
	if len(members) == 0 {
		return fns
	}
	var add []lang.Def
	for _, m := range members {
		if langutil.HasMember(f, m.owner, m.name) || hasAdded(add, m.owner, m.name) {
			continue
		}
		if langutil.HasMember(f, m.owner, m.name) || hasAdded(add, m.owner, m.name) {
			continue
		}
		kind := lang.KindProperty
		if m.fn >= 0 {
			kind = lang.KindMethod
		}
		d := langutil.AssignedDef(v, f, kind, m.owner, m.name, m.nameNode, m.stmt, lang.VisPublic)
		d.Span = v.Span(m.span) // the function's body is the member's
		add = append(add, d)
	}
	protos := make(map[lang.Pos]bool, len(members))
	for _, m := range members {
		protos[v.Start(m.proto)] = true
	}
	langutil.DropRefsAt(f, protos) // X.prototype.m = is syntax, as class X { m() } is
	langutil.DeclareAssigned(f, add)
	reEnclose(f, add)
	return fns
}

// constructorFunctions makes the definitions ctors classes, and adds the
// function declarations of those that were functions to fns.
func constructorFunctions(v *lang.View, f *lang.Facts, ctors map[int32]bool, fns map[int]bool) {
	if len(ctors) == 0 {
		return
	}
	at := map[lang.Pos]bool{}
	for d := range ctors {
		if f.Defs[d].Kind == lang.KindFunction {
			f.Defs[d].Kind = lang.KindClass
			at[f.Defs[d].NameSpan.Start] = true
		}
	}
	for n := 0; n < v.Len() && len(at) > 0; n++ {
		if name := langutil.Child(v, n, "name"); v.Kind(n) == "function_declaration" && name >= 0 && at[v.Start(name)] {
			fns[n] = true
		}
	}
}

func hasAdded(add []lang.Def, owner int32, name string) bool {
	for _, d := range add {
		if d.Parent == owner && d.Name == name {
			return true
		}
	}
	return false
}

// reEnclose gives the references and dynamic sites inside the added
// members their innermost enclosing definition again.
func reEnclose(f *lang.Facts, added []lang.Def) {
	inAdded := func(p lang.Pos) bool {
		for _, d := range added {
			if d.Span.Contains(p) {
				return true
			}
		}
		return false
	}
	for i := range f.Refs {
		if inAdded(f.Refs[i].Pos) {
			f.Refs[i].Enclosing = f.DefAt(f.Refs[i].Pos)
		}
	}
	for i := range f.Dynamic {
		if inAdded(f.Dynamic[i].Pos) {
			f.Dynamic[i].Enclosing = f.DefAt(f.Dynamic[i].Pos)
		}
	}
}

// prototypeMembers lists the members the module's top-level statements
// give the prototypes of its functions and classes: X.prototype.m = v and
// X.prototype = { m: v, n() {} }.
func prototypeMembers(v *lang.View, f *lang.Facts) []protoMember {
	var out []protoMember
	for _, st := range langutil.Children(v, v.Root()) {
		if v.Kind(st) != "expression_statement" {
			continue
		}
		a := langutil.ChildOfKind(v, st, "assignment_expression")
		left, right := langutil.Child(v, a, "left"), langutil.Child(v, a, "right")
		if left < 0 || right < 0 || v.Kind(left) != "member_expression" {
			continue
		}
		obj, prop := langutil.Child(v, left, "object"), langutil.Child(v, left, "property")
		if owner := prototypeOf(v, f, obj); owner >= 0 && v.Kind(prop) == "property_identifier" {
			out = append(out, protoMember{owner: owner, name: v.Text(prop), nameNode: prop, span: a, stmt: a, fn: functionValue(v, right),
				proto: langutil.Child(v, obj, "property")})
			continue
		}
		if owner := prototypeOf(v, f, left); owner >= 0 && v.Kind(right) == "object" {
			out = append(out, objectMembers(v, owner, right, prop)...)
		}
	}
	return out
}

// objectMembers are the members an object literal assigned to a prototype
// gives it.
func objectMembers(v *lang.View, owner int32, obj, proto int) []protoMember {
	var out []protoMember
	for _, c := range langutil.Children(v, obj) {
		switch v.Kind(c) {
		case "pair":
			key, val := langutil.Child(v, c, "key"), langutil.Child(v, c, "value")
			if v.Kind(key) == "property_identifier" && val >= 0 {
				out = append(out, protoMember{owner: owner, name: v.Text(key), nameNode: key, span: c, stmt: c, fn: functionValue(v, val), proto: proto})
			}
		case "method_definition":
			if name := langutil.Child(v, c, "name"); v.Kind(name) == "property_identifier" {
				out = append(out, protoMember{owner: owner, name: v.Text(name), nameNode: name, span: c, stmt: c, fn: c, proto: proto})
			}
		}
	}
	return out
}

// prototypeOf is the top-level function or class whose prototype node n
// is (X.prototype), or -1.
func prototypeOf(v *lang.View, f *lang.Facts, n int) int32 {
	if n < 0 || v.Kind(n) != "member_expression" {
		return -1
	}
	obj, prop := langutil.Child(v, n, "object"), langutil.Child(v, n, "property")
	if v.Kind(obj) != "identifier" || v.Text(prop) != "prototype" {
		return -1
	}
	return topConstructor(f, v.Text(obj))
}

// functionValue is n when it is a function whose this is its caller's
// (function () {...}), or -1: an arrow function keeps the module's this.
func functionValue(v *lang.View, n int) int {
	switch v.Kind(n) {
	case "function_expression", "function", "generator_function":
		return n
	}
	return -1
}

// inheritance records util.inherits(Child, Parent), inherits(Child,
// Parent) and Child.prototype = Object.create(Parent.prototype), at the
// module's top level, as Child extends Parent; it returns the children,
// which are classes.
func inheritance(v *lang.View, f *lang.Facts) map[int32]bool {
	children := map[int32]bool{}
	for _, st := range langutil.Children(v, v.Root()) {
		if v.Kind(st) != "expression_statement" {
			continue
		}
		child, parent := inherited(v, f, st)
		if child < 0 {
			continue
		}
		children[child] = true
		f.TypeRels = append(f.TypeRels, lang.TypeRel{Def: child, Kind: lang.RelExtends, Target: v.Text(parent), Pos: v.Start(parent)})
	}
	if len(children) > 0 {
		sort.SliceStable(f.TypeRels, func(i, j int) bool { return f.TypeRels[i].Pos.Before(f.TypeRels[j].Pos) })
	}
	return children
}

// inherited reads one statement as Child inheriting from Parent: the
// child's definition and the node naming the parent, or -1.
func inherited(v *lang.View, f *lang.Facts, st int) (int32, int) {
	if call := langutil.ChildOfKind(v, st, "call_expression"); call >= 0 {
		fn := langutil.Child(v, call, "function")
		if t := v.Text(fn); t != "util.inherits" && t != "inherits" {
			return -1, -1
		}
		var args []int
		for _, a := range langutil.Children(v, langutil.Child(v, call, "arguments")) {
			if v.Kind(a) != "comment" {
				args = append(args, a)
			}
		}
		if len(args) != 2 || v.Kind(args[0]) != "identifier" || v.Kind(args[1]) != "identifier" && v.Kind(args[1]) != "member_expression" {
			return -1, -1
		}
		return topConstructor(f, v.Text(args[0])), args[1]
	}
	a := langutil.ChildOfKind(v, st, "assignment_expression")
	left, right := langutil.Child(v, a, "left"), langutil.Child(v, a, "right")
	child := prototypeOf(v, f, left)
	if child < 0 || v.Kind(right) != "call_expression" || v.Text(langutil.Child(v, right, "function")) != "Object.create" {
		return -1, -1
	}
	args := langutil.Children(v, langutil.Child(v, right, "arguments"))
	if len(args) == 0 || v.Kind(args[0]) != "member_expression" || v.Text(langutil.Child(v, args[0], "property")) != "prototype" {
		return -1, -1
	}
	return child, langutil.Child(v, args[0], "object")
}

// topConstructor is the top-level function or class of the name, or -1.
func topConstructor(f *lang.Facts, name string) int32 {
	for i, d := range f.Defs {
		if d.Parent < 0 && d.Name == name && (d.Kind == lang.KindFunction || d.Kind == lang.KindClass) {
			return int32(i)
		}
	}
	return -1
}
