package ecma

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// ContextParams records, for TypeScript, where the type of an untyped
// parameter comes from when the function that declares it is passed as an
// argument (or as a branch of a conditional argument): in f((a, b) => ...)
// or new C(function (a) {...}), where the callee is a bare name (a
// method's callbacks are typed by their collection, values.go), the
// parameter's Local.Via is the reference to the callee (f, C) and its
// Local.Type is lang.ContextType(argument, parameter), the position of the
// function among the call's arguments and of the parameter among the
// function's (a this parameter does not count). Linking reads the type from
// the callee's declaration. A spread argument before the function leaves
// its parameters unrecorded, as a rest parameter does those after it; a
// destructured parameter is not recorded.
func ContextParams(v *lang.View, f *lang.Facts) {
	var calls map[lang.Pos]int32 // callee name position -> call reference
	var locals map[lang.Pos]int32
	for n := 0; n < v.Len(); n++ {
		if k := v.Kind(n); k != "arrow_function" && k != "function_expression" && k != "function" {
			continue
		}
		at := n // the argument: the function, or a conditional or parentheses around it
		for {
			p := v.Parent(at)
			if k := v.Kind(p); k == "parenthesized_expression" ||
				k == "ternary_expression" && (v.Field(at) == "consequence" || v.Field(at) == "alternative") {
				at = p
				continue
			}
			break
		}
		args := v.Parent(at)
		if v.Kind(args) != "arguments" {
			continue
		}
		callee, arg := calleeAndPosition(v, args, at, false)
		if callee < 0 || arg < 0 {
			continue
		}
		var params []int // parameter names by position, -1 where unknown
		if p := langutil.Child(v, n, "parameter"); p >= 0 {
			params = []int{p}
		} else if fp := langutil.Child(v, n, "parameters"); fp >= 0 {
			for _, p := range langutil.Children(v, fp) {
				k := v.Kind(p)
				if k != "required_parameter" && k != "optional_parameter" {
					if k == "comment" {
						continue
					}
					break
				}
				pat := langutil.Child(v, p, "pattern")
				if v.Kind(pat) == "this" {
					continue
				}
				if v.Kind(pat) == "rest_pattern" {
					break
				}
				if v.Kind(pat) != "identifier" || langutil.Child(v, p, "type") >= 0 {
					params = append(params, -1)
				} else {
					params = append(params, pat)
				}
			}
		}
		if len(params) == 0 {
			continue
		}
		if calls == nil {
			calls = callsAt(f, true)
			locals = make(map[lang.Pos]int32, len(f.Locals))
			for i, lo := range f.Locals {
				locals[lo.Pos] = int32(i)
			}
		}
		ri, ok := calls[v.Start(callee)]
		if !ok {
			continue
		}
		for j, p := range params {
			if p < 0 {
				continue
			}
			if li, ok := locals[v.Start(p)]; ok && f.Locals[li].Type == "" && f.Locals[li].Via == 0 {
				f.Locals[li].Type = lang.ContextType(arg, j)
				f.Locals[li].Via = ri + 1
			}
		}
	}
}

// callsAt maps the position of each call's name to its reference: of
// every call, or of bare ones (f(), not x.f()).
func callsAt(f *lang.Facts, bare bool) map[lang.Pos]int32 {
	calls := make(map[lang.Pos]int32, len(f.Refs))
	for i, r := range f.Refs {
		if r.Role == lang.RoleCall && (!bare || r.Shape == lang.QualNone) {
			calls[r.Pos] = int32(i)
		}
	}
	return calls
}
