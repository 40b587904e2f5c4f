package kotlin

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// smartCasts records what Kotlin's smart casts tell about a name: inside
// the block of if (x is T) { ... } (and of if (x is T && y is U) { ... }),
// in the branch is T -> ... of when (x), and in the branch x is T -> ...
// of a when without subject, x holds a T. Each is a local x of type T
// declared at the start of that block or branch, in its scope, so that
// x.m() there is looked up in T (link.DeclTypes finds the innermost
// local). A branch that is no block (if (x is T) x.m()) has no scope of
// its own and is left alone. After if (x !is T) return (or throw, break,
// continue) x is a T for the rest of the block, from the end of the if.
func smartCasts(v *lang.View, f *lang.Facts) {
	scopeAt := langutil.ScopesBySpan(f)
	// narrow declares the casts in scope node scope, from position at on
	narrow := func(scope int, at lang.Pos, casts [][2]string) {
		s, ok := scopeAt[v.Span(scope)]
		if !ok {
			return
		}
		for _, c := range casts {
			f.Locals = append(f.Locals, lang.Local{Name: langutil.Name(f, c[0]), Pos: at, Scope: s, Type: c[1]})
		}
	}
	for n := 0; n < v.Len(); n++ {
		switch v.Kind(n) {
		case "if_expression":
			cs := v.Children(n)
			if len(cs) >= 2 && v.Kind(cs[1]) == "block" {
				narrow(cs[1], v.Start(cs[1]), typeTests(v, cs[0], true))
			}
			if p := v.Parent(n); len(cs) == 2 && exits(v, cs[1]) && p >= 0 && v.Kind(p) == "block" {
				narrow(p, v.End(n), typeTests(v, cs[0], false)) // if (x !is T) return: x is T after it
			}
		case "when_expression":
			subject := ""
			if s := v.ChildOfKind(n, "when_subject"); s >= 0 {
				cs := v.Children(s)
				if len(cs) != 1 || v.Kind(cs[0]) != "identifier" {
					continue // when (val x = f()) or when (f()): no name to narrow
				}
				subject = v.Text(cs[0])
			}
			for _, e := range v.Children(n) {
				if v.Kind(e) != "when_entry" {
					continue
				}
				if subject == "" {
					if cs := v.Children(e); len(cs) > 0 {
						narrow(e, v.Start(e), typeTests(v, cs[0], true))
					}
				} else if t := v.ChildOfKind(e, "type_test"); t >= 0 && isTest(v, t) {
					if typ := testedType(v, t); typ != "" {
						narrow(e, v.Start(e), [][2]string{{subject, typ}})
					}
				}
			}
		}
	}
}

// typeTests are the names and types that condition n tests: with is, one
// test or several joined by && (is set), or with one !is (is unset).
func typeTests(v *lang.View, n int, is bool) [][2]string {
	cs := v.Children(n)
	switch {
	case v.Kind(n) == "is_expression" && len(cs) == 2 && v.Kind(cs[0]) == "identifier" && isTest(v, n) == is:
		if typ := testedType(v, n); typ != "" {
			return [][2]string{{v.Text(cs[0]), typ}}
		}
	case is && joinedBy(v, n, "&&"):
		return append(typeTests(v, cs[0], true), typeTests(v, cs[1], true)...)
	}
	return nil
}

// exits reports whether branch n always leaves the code around it: a
// return, throw, break or continue, alone or last in its block.
func exits(v *lang.View, n int) bool {
	if v.Kind(n) == "block" {
		cs := v.Children(n)
		if len(cs) == 0 {
			return false
		}
		n = cs[len(cs)-1]
	}
	switch v.Kind(n) {
	case "return_expression", "throw_expression":
		return true
	}
	t := v.Text(n)
	return v.Kind(n) == "jump_expression" || strings.HasPrefix(t, "break") || strings.HasPrefix(t, "continue")
}

// isTest reports whether type test n is is, not !is.
func isTest(v *lang.View, n int) bool {
	return !strings.Contains(v.Text(n), "!is")
}

// testedType is the class name that type test n tests for, without type
// arguments and ?, or "".
func testedType(v *lang.View, n int) string {
	t := userType(v, n)
	if t < 0 {
		return ""
	}
	typ := classlang.StripTypeArgs(v.Text(t))
	if typ == "" || !className(typ) {
		return ""
	}
	return typ
}
