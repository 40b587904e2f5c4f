package rust

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/native"
)

// The arguments of a macro invocation (println!("{}", x.area()),
// write!(f, "{}", self.n), assert_eq!(Foo::new(1), y)) are a token tree, not
// expressions: each name in it is a bare reference. macroNames reads back
// what the tokens around a name say, so that a rename or a reference search
// finds x.area as a member of x and Foo::new as new of Foo, as it does
// outside macros.

// macroMember is a name after "." in a token tree: its receiver as written
// ("x", "self", "a.b"; "" when it is an expression such as f() or (a)).
type macroMember struct {
	recv string
	at   lang.Pos // where the receiver's first name starts
	// called says the receiver is the result of a call f(…) or x.f(…),
	// whose name chains (in refine) hold
	called bool
}

// macroNames reads the direct tokens of token tree n: the qualifier of each
// name after "::" (into quals, as for a path outside macros), the receiver
// of each name after "." (into members), the names followed by an
// argument list (into calls), and the fields of a struct expression
// (Meter { level: 1 } into quals, Meter { level } into shorthands); a name
// after the argument list of a call, f(…).name, chains to the called name
// (into chains, as outside macros).
func macroNames(v *lang.View, n int, quals map[lang.Pos]string, members map[lang.Pos]macroMember, calls map[lang.Pos]bool, shorthands map[lang.Pos]shorthand, chains map[lang.Pos]lang.Pos) {
	kids, gaps, _ := tokens(v, n)
	for k, c := range kids {
		if s, _ := v.Bytes(c); v.Kind(c) == "token_tree" && k > 0 && gaps[k] == "" && v.Src()[s] == '{' {
			if q, ok := chain(v, kids, gaps, k-1, "::"); ok && native.StartsUpper(native.LastSegment(strings.ReplaceAll(q, "::", "."))) {
				macroStruct(v, c, q, quals, shorthands)
			}
		}
		if v.Kind(c) != "identifier" {
			continue
		}
		if k+1 < len(kids) && opensArgs(v, kids[k+1], gaps[k+1]) {
			calls[v.Start(c)] = true
		}
		if k == 0 {
			continue
		}
		switch gaps[k] {
		case "::":
			if q, ok := chain(v, kids, gaps, k-1, "::"); ok {
				quals[v.Start(c)] = q
			}
		case ".":
			m := macroMember{}
			if q, ok := chain(v, kids, gaps, k-1, "."); ok {
				m.recv = q
				m.at = v.Start(kids[k-1-strings.Count(q, ".")])
			} else if k >= 2 && v.Kind(kids[k-2]) == "identifier" && opensArgs(v, kids[k-1], gaps[k-1]) {
				m.called = true
				chains[v.Start(c)] = v.Start(kids[k-2])
			}
			members[v.Start(c)] = m
		}
	}
}

// tokens lists the named tokens of token tree n, the unnamed tokens before
// each (trimmed) and those after the last, before the closing delimiter.
func tokens(v *lang.View, n int) (kids []int, gaps []string, trailing string) {
	kids = v.Children(n)
	src := v.Src()
	start, end := v.Bytes(n)
	gaps = make([]string, len(kids))
	prev := start + 1 // past the opening delimiter
	for k, c := range kids {
		s, e := v.Bytes(c)
		if prev <= s {
			gaps[k] = strings.TrimSpace(string(src[prev:s]))
		}
		prev = e
	}
	if prev <= end-1 {
		trailing = strings.TrimSpace(string(src[prev : end-1]))
	}
	return kids, gaps, trailing
}

// macroStruct reads the braces n of a struct expression of path q inside
// a token tree: a name before ":" is a field of q, a name alone between
// "{" or "," and "," or "}" is a shorthand.
func macroStruct(v *lang.View, n int, q string, quals map[lang.Pos]string, shorthands map[lang.Pos]shorthand) {
	kids, gaps, trailing := tokens(v, n)
	for j, c := range kids {
		if v.Kind(c) != "identifier" {
			continue
		}
		after := trailing
		if j+1 < len(kids) {
			after = gaps[j+1]
		}
		switch {
		case strings.HasPrefix(after, ":") && !strings.HasPrefix(after, "::"):
			quals[v.Start(c)] = q
		case (gaps[j] == "" && j == 0 || gaps[j] == ",") && (after == "," || after == "" && j == len(kids)-1):
			shorthands[v.Start(c)] = shorthand{v.Text(c), q}
		}
	}
}

// opensArgs reports whether token tree c, right after a name, is its
// argument list: name(...).
func opensArgs(v *lang.View, c int, gap string) bool {
	if v.Kind(c) != "token_tree" || gap != "" {
		return false
	}
	s, _ := v.Bytes(c)
	return v.Src()[s] == '('
}

// chain is the path of names joined by sep that ends at kids[last]
// (a::b, x.f); false when what ends there is no name or the path goes on
// past something that is not one (f().x, "s".len).
func chain(v *lang.View, kids []int, gaps []string, last int, sep string) (string, bool) {
	var parts []string
	for j := last; ; j-- {
		switch v.Kind(kids[j]) {
		case "identifier", "self", "super", "crate":
		default:
			return "", false
		}
		parts = append(parts, v.Text(kids[j]))
		if j > 0 && gaps[j] == sep {
			continue
		}
		if j > 0 && (gaps[j] == "." || gaps[j] == "::") {
			return "", false // a.b::c, f().x: not one kind of path
		}
		break
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, sep), true
}

// member makes r, a name after "." in a token tree, a member of its
// receiver, bound as refine binds x.name outside macros; bound says whether
// the reference at a position binds to a local.
func (b *binder) member(r *lang.Ref, m macroMember, names *lang.NameTable, bound map[lang.Pos]bool) {
	r.BindLocal, r.BindDef, r.BindImp, r.QualBound = -1, -1, -1, false
	r.Qualifier = names.ID(m.recv)
	first, _, more := strings.Cut(m.recv, ".")
	switch {
	case m.called:
		r.Shape = lang.QualCall
		return
	case m.recv == "":
		r.Shape = lang.QualExpr
		return
	case m.recv == "self":
		r.Shape = lang.QualSelf
		return
	case more:
		r.Shape = lang.QualPath
	default:
		r.Shape = lang.QualIdent
	}
	switch {
	case bound[m.at] || b.item(r.Enclosing, first) >= 0:
		r.QualBound = true
	default:
		if imp, ok := b.imports[first]; ok {
			r.BindImp = imp
		}
	}
}
