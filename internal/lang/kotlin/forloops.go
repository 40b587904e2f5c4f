package kotlin

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
)

// elementOf are the collection types and the functions that make them
// whose single type argument is the type of their elements.
var elementOf = map[string]bool{
	"Iterable": true, "MutableIterable": true, "Collection": true, "MutableCollection": true, "List": true, "MutableList": true,
	"ArrayList": true, "LinkedList": true, "Set": true, "MutableSet": true, "HashSet": true, "LinkedHashSet": true,
	"SortedSet": true, "TreeSet": true, "Array": true, "Sequence": true, "ArrayDeque": true, "Deque": true, "Queue": true,
	"CopyOnWriteArrayList": true, "CopyOnWriteArraySet": true, "Vector": true, "Stack": true,
	"listOf": true, "mutableListOf": true, "arrayListOf": true, "setOf": true, "mutableSetOf": true, "hashSetOf": true,
	"linkedSetOf": true, "arrayOf": true, "sequenceOf": true, "emptyList": true, "emptySet": true, "listOfNotNull": true,
}

// forLoops types the variable of for (x in xs) that declares no type by
// the elements of xs, when this file declares xs (a parameter, a local or
// a property of the class around the loop; this.xs too) with a collection
// type of one type argument (List<Foo>, Array<Foo>) or initialises it with
// a collection made with one (mutableListOf<Foo>(), ArrayList<Foo>()).
func forLoops(v *lang.View, f *lang.Facts) {
	local := make(map[lang.Pos]int, len(f.Locals))
	for i, lo := range f.Locals {
		local[lo.Pos] = i
	}
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "for_statement" {
			continue
		}
		cs := v.Children(n)
		if len(cs) < 2 || v.Kind(cs[0]) != "variable_declaration" || len(v.Children(cs[0])) != 1 {
			continue // for (x: Foo in xs) declares its type; for ((a, b) in m) destructures
		}
		i, ok := local[v.Start(v.Children(cs[0])[0])]
		if !ok || f.Locals[i].Type != "" {
			continue
		}
		f.Locals[i].Type = elementsOf(v, n, cs[1])
	}
}

// elementsOf is the type of the elements of what expression recv, in the
// loop or call at, iterates over, when this file declares it (a for loop's
// xs, the receiver of xs.forEach); "" otherwise.
func elementsOf(v *lang.View, at, recv int) string {
	if name, fromClass := iterated(v, recv); name != "" {
		if d := declarationOf(v, at, name, fromClass); d >= 0 {
			return elementType(v, d)
		}
	}
	return ""
}

// iterated is the name a loop iterates over: xs, or this.xs (fromClass).
func iterated(v *lang.View, n int) (name string, fromClass bool) {
	switch v.Kind(n) {
	case "identifier":
		return v.Text(n), false
	case "navigation_expression":
		if cs := v.Children(n); len(cs) == 2 && v.Kind(cs[0]) == "this_expression" && v.Kind(cs[1]) == "identifier" {
			return v.Text(cs[1]), true
		}
	}
	return "", false
}

// declarationOf is the innermost declaration of name that node at sees
// (a parameter, a local declared before it, a property or constructor
// property of the class around it), or -1; fromClass skips to the class.
func declarationOf(v *lang.View, at int, name string, fromClass bool) int {
	for p, child := v.Parent(at), at; p >= 0; p, child = v.Parent(p), p {
		switch v.Kind(p) {
		case "block", "function_body":
			if fromClass {
				continue
			}
			for _, c := range v.Children(p) {
				if c == child {
					break
				}
				if v.Kind(c) == "property_declaration" && declares(v, v.ChildOfKind(c, "variable_declaration"), name) {
					return c
				}
			}
		case "function_declaration":
			if fromClass {
				continue
			}
			if ps := v.ChildOfKind(p, "function_value_parameters"); ps >= 0 {
				for _, prm := range v.Children(ps) {
					if v.Kind(prm) == "parameter" && declares(v, prm, name) {
						return prm
					}
				}
			}
		case "class_body":
			for _, c := range v.Children(p) {
				if v.Kind(c) == "property_declaration" && declares(v, v.ChildOfKind(c, "variable_declaration"), name) {
					return c
				}
			}
		case "class_declaration":
			if pc := v.ChildOfKind(p, "primary_constructor"); pc >= 0 {
				for _, prm := range v.Children(v.ChildOfKind(pc, "class_parameters")) {
					if v.Kind(prm) == "class_parameter" && declares(v, prm, name) {
						return prm
					}
				}
			}
			return -1 // an outer class's members are another object's
		}
	}
	return -1
}

// declares reports whether declaration n (a parameter or variable
// declaration) names name.
func declares(v *lang.View, n int, name string) bool {
	if n < 0 {
		return false
	}
	id := v.ChildOfKind(n, "identifier")
	return id >= 0 && v.Text(id) == name
}

// elementType is the type of the elements of what declaration d (a
// parameter, class parameter or property declaration) declares: the type
// argument of its collection type, or of the collection its initialiser
// makes; "" when neither says.
func elementType(v *lang.View, d int) string {
	holder := d
	if v.Kind(d) == "property_declaration" {
		if holder = v.ChildOfKind(d, "variable_declaration"); holder < 0 {
			return ""
		}
	}
	if t := userType(v, holder); t >= 0 {
		return typeArgument(v, t)
	}
	if v.Kind(d) == "property_declaration" {
		return typeArgument(v, v.ChildOfKind(d, "call_expression"))
	}
	return ""
}

// typeArgument is the single type argument of a collection type or of a
// call of a collection's constructor or maker (n: a user_type or a
// call_expression), as a class name; "" for any other.
func typeArgument(v *lang.View, n int) string {
	if n < 0 {
		return ""
	}
	head, args := -1, -1
	for _, c := range v.Children(n) { // a.b.List<Foo>: List
		switch v.Kind(c) {
		case "identifier":
			head = c
		case "type_arguments":
			args = c
		}
	}
	if head < 0 || args < 0 || !elementOf[v.Text(head)] {
		return ""
	}
	ps := v.Children(args)
	if len(ps) != 1 || v.Kind(ps[0]) != "type_projection" {
		return ""
	}
	t := userType(v, ps[0])
	if t < 0 {
		return ""
	}
	if typ := classlang.StripTypeArgs(v.Text(t)); className(typ) && typ != "Any" {
		return typ // Any says nothing: the code casts its elements
	}
	return ""
}

// userType is the type n declares: its user_type child, or the one of its
// nullable_type child (Foo of Foo?); -1 for none.
func userType(v *lang.View, n int) int {
	if t := v.ChildOfKind(n, "user_type"); t >= 0 {
		return t
	}
	if nt := v.ChildOfKind(n, "nullable_type"); nt >= 0 {
		return v.ChildOfKind(nt, "user_type")
	}
	return -1
}
