package ecma

import (
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// Narrowing records what instanceof and type guards tell about a name, as
// the TypeScript checker narrows it: inside the block of if (x instanceof
// C) { ... }, or of if (isC(x)) { ... } where isC declares the predicate
// x is C (also through &&: if (x instanceof C && isD(y)) { ... }), x holds
// a C. Each is a local x declared at the start of that block, in its
// scope, so that x.m() there is looked up in C (link.DeclTypes finds the
// innermost local): of type C for instanceof; for a guard, of GuardType(i)
// with Via the reference to the guard, whose declaration the linker reads
// (link_context.go). After if (!(x instanceof C)) return (or throw, break,
// continue; or !isC(x)) x is a C for the rest of the enclosing block,
// unless that block declares x itself (its two declarations would
// disagree). Outside an if, x is a C in the right operand of
// x instanceof C && ... (of || after a negated test) and in the branch of
// a ternary the test selects: the query gives those operands a scope
// (common.scm). A branch of an if that is no block (if (x instanceof C)
// x.m()) has no scope of its own and is left alone. It runs after every
// pass that drops references, since Via indexes them.
func Narrowing(v *lang.View, f *lang.Facts) {
	var scopeAt map[lang.Span]int32
	var calls map[lang.Pos]int32
	var names *lang.NameTable
	narrow := func(block int, at lang.Pos, tests []narrowed, unlessDeclared bool) {
		if scopeAt == nil {
			scopeAt, names = langutil.ScopesBySpan(f), lang.NewNameTable(f)
		}
		s, ok := scopeAt[v.Span(block)]
		if !ok {
			return
		}
		for _, t := range tests {
			name := names.ID(t.name)
			if unlessDeclared && declaresIn(f, s, name) {
				continue
			}
			f.Locals = append(f.Locals, lang.Local{Name: name, Pos: at, Scope: s, Type: t.typ, Via: t.via})
		}
	}
	tested := func(n int) []narrowed {
		if calls == nil {
			calls = callsAt(f, false)
		}
		return typeTests(v, n, calls)
	}
	for n := 0; n < v.Len(); n++ {
		switch v.Kind(n) {
		case "binary_expression":
			// x instanceof C && x.m(); !(x instanceof C) || x.m()
			left, right := langutil.Child(v, n, "left"), langutil.Child(v, n, "right")
			if left < 0 || right < 0 {
				continue
			}
			switch binaryOp(v, n) {
			case "&&":
				if tests := tested(unparen(v, left)); len(tests) > 0 {
					narrow(right, v.Start(right), tests, false)
				}
			case "||":
				if tests := negatedTests(v, unparen(v, left), tested); len(tests) > 0 {
					narrow(right, v.Start(right), tests, false)
				}
			}
			continue
		case "ternary_expression":
			// isC(x) ? x.m() : y; !isC(x) ? y : x.m()
			cond := unparen(v, langutil.Child(v, n, "condition"))
			yes, no := langutil.Child(v, n, "consequence"), langutil.Child(v, n, "alternative")
			if cond < 0 || yes < 0 || no < 0 {
				continue
			}
			if tests := tested(cond); len(tests) > 0 {
				narrow(yes, v.Start(yes), tests, false)
			} else if tests := negatedTests(v, cond, tested); len(tests) > 0 {
				narrow(no, v.Start(no), tests, false)
			}
			continue
		case "if_statement":
		default:
			continue
		}
		cond, then := langutil.Child(v, n, "condition"), langutil.Child(v, n, "consequence")
		if cond < 0 || then < 0 {
			continue
		}
		test := unparen(v, cond)
		if v.Kind(then) == "statement_block" {
			if tests := tested(test); len(tests) > 0 {
				narrow(then, v.Start(then), tests, false)
			}
		}
		if p := v.Parent(n); p >= 0 && v.Kind(p) == "statement_block" && langutil.Child(v, n, "alternative") < 0 && leaves(v, then) {
			if tests := negatedTests(v, test, tested); len(tests) == 1 {
				narrow(p, v.End(n), tests, true)
			}
		}
	}
}

// negatedTests are the names that the test n negates, !(x instanceof C) or
// !isC(x), narrows where it is false.
func negatedTests(v *lang.View, n int, tested func(int) []narrowed) []narrowed {
	if v.Kind(n) != "unary_expression" || !strings.HasPrefix(v.Text(n), "!") {
		return nil
	}
	arg := langutil.Child(v, n, "argument")
	if arg < 0 {
		return nil
	}
	return tested(unparen(v, arg))
}

// binaryOp is the operator of binary expression n ("&&", "instanceof").
func binaryOp(v *lang.View, n int) string {
	left, right := langutil.Child(v, n, "left"), langutil.Child(v, n, "right")
	if left < 0 || right < 0 {
		return ""
	}
	_, le := v.Bytes(left)
	rs, _ := v.Bytes(right)
	return strings.TrimSpace(string(v.Src()[le:rs]))
}

// narrowed is a name a condition narrows, to type typ (with via: the
// guard's reference plus one).
type narrowed struct {
	name, typ string
	via       int32
}

// GuardType is the Local.Type of a name that a type guard narrows, passed
// as argument arg: the type that the guard's predicate (arg is T) asserts.
func GuardType(arg int) string { return "?" + strconv.Itoa(arg) }

// parseGuardType reads GuardType.
func parseGuardType(typ string) (arg int, ok bool) {
	rest, ok := strings.CutPrefix(typ, "?")
	if !ok {
		return 0, false
	}
	arg, err := strconv.Atoi(rest)
	return arg, err == nil && arg >= 0
}

// typeTests are the names that condition n narrows: x instanceof C, a call
// of a bare or member guard with names among its arguments (calls maps a
// call's name to its reference), or several of them joined by &&.
func typeTests(v *lang.View, n int, calls map[lang.Pos]int32) []narrowed {
	switch v.Kind(n) {
	case "call_expression":
		fn, args := langutil.Child(v, n, "function"), langutil.Child(v, n, "arguments")
		if v.Kind(fn) == "member_expression" {
			fn = langutil.Child(v, fn, "property")
		}
		if fn < 0 || args < 0 {
			return nil
		}
		ci, ok := calls[v.Start(fn)]
		if !ok {
			return nil
		}
		var out []narrowed
		i := 0
		for _, a := range langutil.Children(v, args) {
			switch v.Kind(a) {
			case "comment":
				continue
			case "identifier":
				out = append(out, narrowed{v.Text(a), GuardType(i), ci + 1})
			}
			i++
		}
		return out
	case "binary_expression":
	default:
		return nil
	}
	left, right := langutil.Child(v, n, "left"), langutil.Child(v, n, "right")
	switch binaryOp(v, n) {
	case "instanceof":
		if v.Kind(left) != "identifier" {
			return nil
		}
		if k := v.Kind(right); k != "identifier" && (k != "member_expression" || !isDottedName(v.Text(right))) {
			return nil
		}
		return []narrowed{{name: v.Text(left), typ: v.Text(right)}}
	case "&&":
		return append(typeTests(v, unparen(v, left), calls), typeTests(v, unparen(v, right), calls)...)
	}
	return nil
}

// unparen is the expression inside any parentheses around n.
func unparen(v *lang.View, n int) int {
	for v.Kind(n) == "parenthesized_expression" {
		cs := v.Children(n)
		if len(cs) != 1 {
			break
		}
		n = cs[0]
	}
	return n
}

// leaves reports whether statement n always leaves the code after it: a
// return, throw, break or continue, alone or last in its block.
func leaves(v *lang.View, n int) bool {
	if v.Kind(n) == "statement_block" {
		cs := v.Children(n)
		if len(cs) == 0 {
			return false
		}
		n = cs[len(cs)-1]
	}
	switch v.Kind(n) {
	case "return_statement", "throw_statement", "break_statement", "continue_statement":
		return true
	}
	return false
}

// declaresIn reports whether scope s declares a local of that name.
func declaresIn(f *lang.Facts, s int32, name uint32) bool {
	for _, lo := range f.Locals {
		if lo.Scope == s && lo.Name == name {
			return true
		}
	}
	return false
}

// isDottedName reports whether s is a.b.C: identifiers joined by dots.
func isDottedName(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if !lang.IsIdentifier(part) {
			return false
		}
	}
	return true
}
