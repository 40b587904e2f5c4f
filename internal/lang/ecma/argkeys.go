package ecma

import (
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// TypeScript: the keys of an object literal passed as an argument,
// f({ a: 1, m() {} }), new C({ a: 1 }) or x.m({ a: 1 }), are members of the type the callee declares for that parameter.
// ArgumentKeys records them: each key's reference is qualified by
// argumentQualifier(position) and its Via is the reference to the callee;
// linking (link_context.go) reads the parameter's type from the callee's
// declarations, as it does for the parameters of a function argument.

// argumentPrefix starts the qualifier of an argument's key, which reads as
// what the key's receiver is where answers show it: {…} argument 2.
const argumentPrefix = "{…} argument "

// argumentQualifier is the qualifier of the keys of the object literal
// passed as argument i (from 0; shown from 1).
func argumentQualifier(i int) string { return argumentPrefix + strconv.Itoa(i+1) }

// argumentOf reads an argumentQualifier: the argument's position, from 0.
func argumentOf(q string) (int, bool) {
	rest, ok := strings.CutPrefix(q, argumentPrefix)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(rest)
	return i - 1, err == nil && i >= 1
}

// ArgumentKeys records the keys of object literal arguments (above).
func ArgumentKeys(v *lang.View, f *lang.Facts) {
	var calls, keys map[lang.Pos]int32
	var names *lang.NameTable
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "object" || v.Kind(v.Parent(n)) != "arguments" {
			continue
		}
		args := v.Parent(n)
		callee, arg := calleeAndPosition(v, args, n, true)
		if callee < 0 || arg < 0 {
			continue
		}
		if calls == nil {
			calls, keys = map[lang.Pos]int32{}, map[lang.Pos]int32{}
			for i, r := range f.Refs {
				switch {
				case r.Role == lang.RoleCall:
					calls[r.Pos] = int32(i)
				case r.Shape == lang.QualExpr && f.Names[r.Qualifier] == "":
					keys[r.Pos] = int32(i)
				}
			}
			names = lang.NewNameTable(f)
		}
		ci, ok := calls[v.Start(callee)]
		if !ok {
			continue
		}
		q := names.ID(argumentQualifier(arg))
		for _, c := range langutil.Children(v, n) {
			var key int
			switch v.Kind(c) {
			case "pair":
				key = langutil.Child(v, c, "key")
			case "method_definition":
				key = langutil.Child(v, c, "name")
			default:
				continue
			}
			if v.Kind(key) != "property_identifier" {
				continue
			}
			if ki, ok := keys[v.Start(key)]; ok {
				f.Refs[ki].Qualifier, f.Refs[ki].Via = q, ci+1
			}
		}
	}
}

// calleeAndPosition is the name a call or construction whose argument list
// is args calls, a bare name or, with members, a member's (x.m(...)); -1
// for any other callee. And the position of argument a among them (-1 past
// a spread argument).
func calleeAndPosition(v *lang.View, args, a int, members bool) (int, int) {
	call := v.Parent(args)
	callee := -1
	switch v.Kind(call) {
	case "call_expression":
		callee = langutil.Child(v, call, "function")
	case "new_expression":
		callee = langutil.Child(v, call, "constructor")
	}
	if members && v.Kind(callee) == "member_expression" {
		callee = langutil.Child(v, callee, "property") // x.m(...): the method's name
	}
	if callee < 0 || v.Kind(callee) != "identifier" && v.Kind(callee) != "property_identifier" {
		return -1, -1
	}
	i := 0
	for _, c := range langutil.Children(v, args) {
		switch k := v.Kind(c); {
		case k == "spread_element":
			return callee, -1
		case k == "comment":
			continue
		case c == a:
			return callee, i
		}
		i++
	}
	return callee, -1
}
