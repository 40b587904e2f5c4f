package rust

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// A binding initialised by a call without a declared type (let p =
// Parser::new(..)) has the type the called function declares it returns
// (Def.Type), when that is Self or a type of the callee's file: the linker
// follows Local.Via to the callee and reads it there.

// returnType is the type function n declares it returns, when it is a type
// name or path ("Self", "Span", "ast::Span"); "" for any other type.
func returnType(v *lang.View, n int) string {
	rt := langutil.Child(v, n, "return_type")
	switch v.Kind(rt) {
	case "type_identifier":
		return v.Text(rt)
	case "scoped_type_identifier":
		if q := strings.Join(segments(v, rt), "::"); !strings.Contains(q, "?") {
			return q
		}
	}
	return ""
}

// callLet is let x = f(..) or let x = T::f(..): where x and the name of
// the callee are.
type callLet struct{ local, callee lang.Pos }

// readCallLet reads let_declaration n; false unless it binds one name,
// declares no type and is initialised by a call of a name or path.
func readCallLet(v *lang.View, n int) (callLet, bool) {
	pat, val := langutil.Child(v, n, "pattern"), langutil.Child(v, n, "value")
	if v.Kind(pat) == "mut_pattern" {
		pat = v.ChildOfKind(pat, "identifier")
	}
	if v.Kind(pat) != "identifier" || langutil.Child(v, n, "type") >= 0 || v.Kind(val) != "call_expression" {
		return callLet{}, false
	}
	fn := langutil.Child(v, val, "function")
	if v.Kind(fn) == "generic_function" {
		fn = langutil.Child(v, fn, "function")
	}
	switch v.Kind(fn) {
	case "scoped_identifier":
		fn = langutil.Child(v, fn, "name")
	case "identifier":
	default:
		return callLet{}, false
	}
	if fn < 0 {
		return callLet{}, false
	}
	return callLet{local: v.Start(pat), callee: v.Start(fn)}, true
}

// callLocals sets Local.Via of the untyped bindings that lets initialise
// to the reference to their callee.
func callLocals(f *lang.Facts, lets []callLet) {
	if len(lets) == 0 {
		return
	}
	locals := map[lang.Pos]int{}
	for i, lo := range f.Locals {
		if lo.Type == "" {
			locals[lo.Pos] = i
		}
	}
	calls := map[lang.Pos]int{}
	for i, r := range f.Refs {
		if r.Role == lang.RoleCall {
			calls[r.Pos] = i
		}
	}
	for _, l := range lets {
		li, ok1 := locals[l.local]
		ri, ok2 := calls[l.callee]
		if ok1 && ok2 {
			f.Locals[li].Via = int32(ri) + 1
		}
	}
}
