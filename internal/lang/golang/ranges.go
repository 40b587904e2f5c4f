package golang

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// The types chains records are type expressions (Def.Type, Local.Type):
//
//	T, pkg.T      a named type (pointer and type arguments dropped)
//	[]E           a slice or array whose elements are of the named type E
//	map[K]V       a map; K or V is "" when the source does not name a type
//
// A function's Def.Type lists its results, joined with "," (chainer.result).
// A package-level variable's Def.Type is its declared type, the type of the
// literal it is initialised with, or "()F" / "()pkg.F": the result of the
// call of the package-level function F that initialises it.
//
// A local's Type may also say how to derive the type from something else:
//
//	(N)    the result N (0-based, N >= 1) of the call Via: _, c := F()
//	[v]X   the element (slice) or value (map) of X: v := xs[i], for _, v := range xs
//	[k]X   the key of the map X: for k := range m
//	=X     the type of X: x := y.f, x := &y.f
//
// where X is a name or a dotted path ("xs", "c.items") as the local's
// position sees it, or "()": the (first) result of the call Via.

// container is the type expression of the type node typ: a named type or a
// slice, array or map of named types; "" otherwise. Names of type
// parameters of scope (a function or a type spec, -1 for none) do not count.
func (c *chainer) container(typ, scope int) string {
	v := c.v
	named := func(n int) string {
		t := namedType(v, n)
		if t != "" && scope >= 0 && c.typeParam(scope, t) {
			return ""
		}
		return t
	}
	if typ < 0 {
		return ""
	}
	switch v.Kind(typ) {
	case "slice_type", "array_type":
		if e := named(v.Child(typ, "element")); e != "" {
			return "[]" + e
		}
		return ""
	case "map_type":
		k, val := named(v.Child(typ, "key")), named(v.Child(typ, "value"))
		if k == "" && val == "" {
			return ""
		}
		return "map[" + k + "]" + val
	}
	return named(typ)
}

// derive is the type op ("[v]" or "[k]") derives from the type expression
// typ, when typ is known: "T" from "[]T" with "[v]".
func derive(op, typ string) string {
	switch {
	case strings.HasPrefix(typ, "[]"):
		if op == "[v]" {
			return typ[2:]
		}
	case strings.HasPrefix(typ, "map["):
		k, val, _ := strings.Cut(typ[len("map["):], "]")
		if op == "[v]" {
			return val
		}
		return k
	}
	return ""
}

// source is the Type and Via of a local that is the element (op "[v]") or
// key (op "[k]") of the expression x: a name, a dotted path, a call, or a
// literal of a slice or map type; "" when x is none of these.
func (c *chainer) source(op string, x int) (string, int32) {
	v := c.v
	if x < 0 {
		return "", 0
	}
	switch v.Kind(x) {
	case "identifier":
		return op + v.Text(x), 0
	case "selector_expression":
		if t := v.Text(x); lang.IsDottedPath(t) || assertedPath(v, x) {
			return op + t, 0
		}
	case "call_expression":
		if via := c.callee(x); via != 0 {
			return op + "()", via
		}
	case "composite_literal":
		if op == "=" {
			return "", 0
		}
		return derive(op, c.container(v.Child(x, "type"), -1)), 0
	}
	return "", 0
}

// assertedPath reports whether the selector x is a field path from a type
// assertion of a name or dotted path to a named type (v.(*T).f,
// obj.(*v1.PodList).Items, v.(T).f.g).
func assertedPath(v *lang.View, x int) bool {
	for x >= 0 && v.Kind(x) == "selector_expression" {
		x = v.Child(x, "operand")
	}
	if x < 0 || v.Kind(x) != "type_assertion_expression" {
		return false
	}
	operand := v.Child(x, "operand")
	if operand < 0 || !lang.IsIdentifier(v.Text(operand)) && !lang.IsDottedPath(v.Text(operand)) {
		return false
	}
	return namedType(v, v.Child(x, "type")) != ""
}

// ranged types the variables of for k, v := range x: k is the key of a map
// x, v the element or value of x.
func (c *chainer) ranged(n int, localAt map[lang.Pos]int) {
	v := c.v
	left, right := v.Child(n, "left"), v.Child(n, "right")
	if left < 0 || right < 0 {
		return
	}
	i := 0
	for _, ch := range v.Children(left) {
		if v.Kind(ch) != "identifier" {
			continue
		}
		op := "[k]"
		if i == 1 {
			op = "[v]"
		}
		i++
		li, ok := localAt[v.Start(ch)]
		if !ok || i > 2 || c.f.Locals[li].Type != "" || v.Text(ch) == "_" {
			continue
		}
		c.f.Locals[li].Type, c.f.Locals[li].Via = c.source(op, right)
	}
}

// containers gives the names of a parameter or of var x []T the slice or map
// type the source declares for them (the query records named types only).
func (c *chainer) containers(n int, localAt map[lang.Pos]int) {
	v := c.v
	typ := c.container(v.Child(n, "type"), enclosingFunc(v, n))
	if typ == "" || !strings.HasPrefix(typ, "[]") && !strings.HasPrefix(typ, "map[") {
		return
	}
	for _, ch := range v.Children(n) {
		if v.Field(ch) != "name" {
			continue
		}
		if li, ok := localAt[v.Start(ch)]; ok && c.f.Locals[li].Type == "" {
			c.f.Locals[li].Type = typ
		}
	}
}

// variadic gives the name of a variadic parameter (xs ...T) the type []T.
func (c *chainer) variadic(n int, localAt map[lang.Pos]int) {
	v := c.v
	name := v.Child(n, "name")
	if name < 0 {
		return
	}
	e := namedType(v, v.Child(n, "type"))
	if fn := enclosingFunc(v, n); e == "" || fn >= 0 && c.typeParam(fn, e) {
		return
	}
	if li, ok := localAt[v.Start(name)]; ok && c.f.Locals[li].Type == "" {
		c.f.Locals[li].Type = "[]" + e
	}
}

// enclosingFunc is the function or method declaration around n, or -1.
func enclosingFunc(v *lang.View, n int) int {
	for p := v.Parent(n); p >= 0; p = v.Parent(p) {
		switch v.Kind(p) {
		case "function_declaration", "method_declaration":
			return p
		}
	}
	return -1
}

// pkgLevel reports whether the var_spec n declares package-level variables.
func pkgLevel(v *lang.View, n int) bool {
	p := v.Parent(n)
	if p >= 0 && v.Kind(p) == "var_spec_list" {
		p = v.Parent(p)
	}
	if p < 0 || v.Kind(p) != "var_declaration" {
		return false
	}
	p = v.Parent(p)
	return p >= 0 && v.Kind(p) == "source_file"
}

// pkgVar records the type of package-level variables (Def.Type): the type
// declared (var x T), or the one its initialiser says: T{...}, &T{...},
// new(T), []T{...}, or the call of a package-level function F() or pkg.F().
func (c *chainer) pkgVar(n int, defAt map[lang.Pos]int) {
	v := c.v
	var names, vals []int
	for _, ch := range v.Children(n) {
		if v.Field(ch) == "name" {
			names = append(names, ch)
		}
	}
	typ := c.container(v.Child(n, "type"), -1)
	if value := v.Child(n, "value"); value >= 0 && v.Child(n, "type") < 0 {
		for _, ch := range v.Children(value) {
			if k := v.Kind(ch); k != "," && k != "comment" {
				vals = append(vals, ch)
			}
		}
		if len(vals) != len(names) {
			return
		}
	}
	for i, name := range names {
		d, ok := defAt[v.Start(name)]
		if !ok || c.f.Defs[d].Type != "" {
			continue
		}
		t := typ
		if vals != nil {
			t = c.initType(vals[i])
		}
		c.f.Defs[d].Type = t
	}
}

// initType is the type expression the initialiser x of a package-level
// variable gives it, or "".
func (c *chainer) initType(x int) string {
	v := c.v
	switch v.Kind(x) {
	case "composite_literal":
		return c.container(v.Child(x, "type"), -1)
	case "unary_expression":
		if op := v.Child(x, "operand"); op >= 0 && v.Kind(op) == "composite_literal" && strings.HasPrefix(v.Text(x), "&") {
			return namedType(v, v.Child(op, "type"))
		}
	case "call_expression":
		fn := v.Child(x, "function")
		if fn < 0 {
			return ""
		}
		args := v.Child(x, "arguments")
		if v.Kind(fn) == "identifier" && v.Text(fn) == "new" && args >= 0 {
			for _, a := range v.Children(args) {
				if k := v.Kind(a); k != "(" && k != ")" {
					return namedType(v, a)
				}
			}
			return ""
		}
		switch t := v.Text(fn); {
		case v.Kind(fn) == "identifier":
			return "()" + t
		case v.Kind(fn) == "selector_expression" && lang.IsDottedPath(t) && strings.Count(t, ".") == 1:
			return "()" + t
		}
	}
	return ""
}
