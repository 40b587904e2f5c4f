package lang

import "strings"

// callArgs counts the arguments of a call node for Ref.Args: 1 + their
// number, or 0 when the call spreads a list into them (f(xs...), f(*xs))
// or its arguments are not where a grammar puts them (an "arguments"
// field; Kotlin's value_arguments and trailing lambda).
func callArgs(v *View, call int) uint16 {
	list := v.Child(call, "arguments")
	extra := 0
	if list < 0 {
		holder := call // Kotlin: value_arguments and a trailing lambda
		if suffix := v.ChildOfKind(call, "call_suffix"); suffix >= 0 {
			holder = suffix // as older grammars nest them
		}
		list = v.ChildOfKind(holder, "value_arguments")
		if v.ChildOfKind(holder, "annotated_lambda") >= 0 {
			extra = 1 // f(x) { ... } passes the lambda last
		}
		switch {
		case list < 0 && extra > 0:
			return 2
		case list < 0 && v.Kind(call) == "object_creation_expression":
			return 1 // C#'s new T { ... }: no argument list, no arguments
		}
	}
	if list < 0 {
		return 0
	}
	n := extra
	if p := v.Parent(call); extra == 0 && p == call-1 && v.Kind(p) == v.Kind(call) && v.ChildOfKind(p, "annotated_lambda") >= 0 {
		n++ // Kotlin's f(x) { ... } wraps the call f(x), its first child, in one that passes the lambda
	}
	for c, end := list+1, v.subtreeEnd(list); c < end; c = v.subtreeEnd(c) { // the list's children
		kind := v.Kind(c)
		switch {
		case strings.Contains(kind, "comment"):
			continue
		case strings.Contains(kind, "spread"), strings.Contains(kind, "splat"), strings.Contains(kind, "variadic"):
			return 0
		}
		n++
	}
	if n >= 1<<16-1 {
		return 0
	}
	return uint16(1 + n)
}
