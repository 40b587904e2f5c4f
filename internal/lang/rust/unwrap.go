package rust

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// f().unwrap().name and let x = f().expect("…") read a member of what the
// Option<T> or Result<T, E> that f declares it returns holds: T's.

// unwrappers are the methods of Option and Result that give what they hold.
var unwrappers = map[string]bool{"unwrap": true, "expect": true, "unwrap_or_default": true, "unwrap_unchecked": true}

// unwrapCall is the call whose result call (a reference) unwraps: f of
// f().unwrap(); false when call is no such method of a call's result.
func (rf *rustFile) unwrapCall(call int) (int, bool) {
	c := rf.facts.Refs[call]
	if c.Role != lang.RoleCall || c.Shape != lang.QualCall || c.Via <= 0 || !unwrappers[rf.facts.Names[c.Name]] {
		return 0, false
	}
	return int(c.Via - 1), true
}

// wrappedResult is the type that the Option<T> or Result<T, E> a function's
// signature returns holds, as the function's file names it (T behind
// references and smart pointers, without type arguments: "Hir",
// "ast::Span"); "" for any other result.
func wrappedResult(sig string) string {
	i := strings.LastIndex(sig, "->")
	if i < 0 {
		return ""
	}
	ret := strings.TrimSpace(sig[i+2:])
	if w := strings.Index(ret, " where "); w >= 0 {
		ret = ret[:w]
	}
	ret = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(ret), "{"))
	for _, w := range []string{"Option<", "Result<", "option::Option<", "result::Result<"} {
		if strings.HasPrefix(ret, w) && strings.HasSuffix(ret, ">") {
			return plainType(firstArgument(ret[len(w) : len(ret)-1]))
		}
	}
	return ""
}

// firstArgument is the first of comma-separated type arguments.
func firstArgument(args string) string {
	depth := 0
	for i, c := range args {
		switch c {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			depth--
		case ',':
			if depth == 0 {
				return args[:i]
			}
		}
	}
	return args
}

// plainType is type text t without references, lifetimes, mut, smart
// pointers and type arguments: "&'a mut Box<ast::Span<T>>" is "ast::Span";
// "" when what remains is no name or path (a tuple, a slice).
func plainType(t string) string {
	for {
		t = strings.TrimSpace(t)
		switch {
		case strings.HasPrefix(t, "&"):
			t = t[1:]
		case strings.HasPrefix(t, "'"):
			if sp := strings.IndexByte(t, ' '); sp >= 0 {
				t = t[sp:]
			} else {
				return ""
			}
		case strings.HasPrefix(t, "mut "), strings.HasPrefix(t, "dyn "):
			t = t[4:]
		default:
			base, args, generic := strings.Cut(t, "<")
			if generic && pointers[base] && strings.HasSuffix(args, ">") {
				t = firstArgument(args[:len(args)-1])
				continue
			}
			for _, part := range strings.Split(base, "::") {
				if !lang.IsIdentifier(part) {
					return ""
				}
			}
			return base
		}
	}
}

// wrapperMethods are the methods of Option and Result: a call's result
// read by one of these names is the Option or Result itself.
var wrapperMethods = map[string]bool{}

func init() {
	for _, m := range strings.Fields(`and and_then as_deref as_deref_mut as_mut as_pin_mut as_pin_ref as_ref cloned contains
		copied err expect expect_err filter flatten get_or_insert get_or_insert_with insert inspect inspect_err into_iter
		is_err is_err_and is_none is_none_or is_ok is_ok_and is_some is_some_and iter iter_mut map map_err map_or map_or_else
		ok ok_or ok_or_else or or_else replace take take_if transpose unwrap unwrap_err unwrap_or unwrap_or_default
		unwrap_or_else unwrap_unchecked unzip xor zip zip_with clone eq ne cmp partial_cmp hash fmt to_owned`) {
		wrapperMethods[m] = true
	}
}
