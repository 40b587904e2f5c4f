package ecma

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// instanceofNarrowing records what instanceof tells about a name, as the
// TypeScript checker narrows it: inside the block of if (x instanceof C)
// { ... } (and of if (x instanceof C && y instanceof D) { ... }) x holds a
// C. Each is a local x of type C declared at the start of that block, in
// its scope, so that x.m() there is looked up in C (link.DeclTypes finds
// the innermost local). After if (!(x instanceof C)) return (or throw,
// break, continue) x is a C for the rest of the enclosing block, unless
// that block declares x itself (its two declarations would disagree). A
// branch that is no block (if (x instanceof C) x.m()) has no scope of its
// own and is left alone, as are ternaries and && chains outside an if.
func instanceofNarrowing(v *lang.View, f *lang.Facts) {
	var scopeAt map[lang.Span]int32
	narrow := func(block int, at lang.Pos, tests [][2]string, unlessDeclared bool) {
		if scopeAt == nil {
			scopeAt = make(map[lang.Span]int32, len(f.Scopes))
			for i, s := range f.Scopes {
				scopeAt[s.Span] = int32(i)
			}
		}
		s, ok := scopeAt[v.Span(block)]
		if !ok {
			return
		}
		for _, t := range tests {
			name := langutil.Name(f, t[0])
			if unlessDeclared && declaresIn(f, s, name) {
				continue
			}
			f.Locals = append(f.Locals, lang.Local{Name: name, Pos: at, Scope: s, Type: t[1]})
		}
	}
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "if_statement" {
			continue
		}
		cond, then := langutil.Child(v, n, "condition"), langutil.Child(v, n, "consequence")
		if cond < 0 || then < 0 {
			continue
		}
		test := unparen(v, cond)
		if v.Kind(then) == "statement_block" {
			if tests := instanceTests(v, test); len(tests) > 0 {
				narrow(then, v.Start(then), tests, false)
			}
		}
		if p := v.Parent(n); p >= 0 && v.Kind(p) == "statement_block" && langutil.Child(v, n, "alternative") < 0 && leaves(v, then) {
			if v.Kind(test) == "unary_expression" && strings.HasPrefix(v.Text(test), "!") {
				if arg := langutil.Child(v, test, "argument"); arg >= 0 {
					if tests := instanceTests(v, unparen(v, arg)); len(tests) == 1 {
						narrow(p, v.End(n), tests, true)
					}
				}
			}
		}
	}
}

// instanceTests are the names and classes that condition n tests with
// instanceof: one test, or several joined by &&.
func instanceTests(v *lang.View, n int) [][2]string {
	if v.Kind(n) != "binary_expression" {
		return nil
	}
	left, right := langutil.Child(v, n, "left"), langutil.Child(v, n, "right")
	if left < 0 || right < 0 {
		return nil
	}
	_, le := v.Bytes(left)
	rs, _ := v.Bytes(right)
	switch strings.TrimSpace(string(v.Src()[le:rs])) {
	case "instanceof":
		if v.Kind(left) != "identifier" {
			return nil
		}
		if k := v.Kind(right); k != "identifier" && (k != "member_expression" || !isDottedName(v.Text(right))) {
			return nil
		}
		return [][2]string{{v.Text(left), v.Text(right)}}
	case "&&":
		return append(instanceTests(v, unparen(v, left)), instanceTests(v, unparen(v, right))...)
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
