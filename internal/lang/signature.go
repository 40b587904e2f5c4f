package lang

import "strings"

// Signatures are text as the extractor wrote it; the engines and the
// languages' hooks cut them (parameter lists, declared types, initialisers)
// with the helpers below, which skip what brackets enclose.

// TopLevel finds the first byte of s outside brackets ((), [], {}, <>)
// that at accepts, or -1.
func TopLevel(s string, at func(i int) bool) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			if depth > 0 {
				depth--
			}
		default:
			if depth == 0 && at(i) {
				return i
			}
		}
	}
	return -1
}

// Balanced splits s, which starts with open (after spaces), into what its
// first balanced group holds and what follows the group; ok is false when
// s does not start with open or the group does not close.
func Balanced(s string, open, closing byte) (inner, rest string, ok bool) {
	s = strings.TrimLeft(s, " ")
	if s == "" || s[0] != open {
		return "", s, false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case open:
			depth++
		case closing:
			depth--
			if depth == 0 {
				return s[1:i], s[i+1:], true
			}
		}
	}
	return "", s, false
}

// SplitTop splits at commas outside brackets; angle counts <> as brackets
// (type arguments; not in Go, where <- is a channel direction).
func SplitTop(s string, angle bool) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !angle && (c == '<' || c == '>') {
			continue
		}
		switch c {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			if depth > 0 && !(c == '>' && i > 0 && s[i-1] == '=') {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// ParamList is what the parentheses of a function's parameter list enclose
// in its signature: the first after its name, past its type parameters ([]
// or <>); ok is false when there are none.
func ParamList(sig, name string) (params string, ok bool) {
	i := strings.Index(sig, name)
	if i < 0 {
		return "", false
	}
	rest := sig[i+len(name):]
	if strings.HasPrefix(rest, "[") || strings.HasPrefix(rest, "<") { // type parameters
		open, closing := byte('['), byte(']')
		if rest[0] == '<' {
			open, closing = '<', '>'
		}
		if _, r, ok := Balanced(rest, open, closing); ok {
			rest = r
		}
	}
	params, _, ok = Balanced(rest, '(', ')')
	return params, ok
}

// SignatureParameters is the parameters of the list that follows the
// symbol's name in its signature (after type parameters: Foo<T>(T x)).
func SignatureParameters(sig, name string) ([]string, bool) {
	for from := 0; ; {
		i := strings.Index(sig[from:], name)
		if i < 0 {
			return nil, false
		}
		start := from + i
		at := start + len(name)
		from = at
		if start > 0 && IsWordByte(sig[start-1]) {
			continue
		}
		rest := strings.TrimLeft(sig[at:], " ")
		if strings.HasPrefix(rest, "<") {
			if end := ClosingBracket(rest, 0); end > 0 {
				rest = strings.TrimLeft(rest[end+1:], " ")
			}
		}
		if !strings.HasPrefix(rest, "(") {
			continue
		}
		end := ClosingBracket(rest, 0)
		if end < 0 {
			return nil, false // a signature cut short
		}
		return SplitParameters(rest[1:end]), true
	}
}

// ClosingBracket is the index of the bracket that closes the one at open, -1 when
// s ends first. An arrow's '>' (->, =>) closes nothing.
func ClosingBracket(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(', '<', '[', '{':
			depth++
		case '>':
			if i > 0 && (s[i-1] == '-' || s[i-1] == '=') {
				continue
			}
			depth--
		case ')', ']', '}':
			depth--
		}
		if depth == 0 {
			return i
		}
	}
	return -1
}

// SplitParameters splits a parameter list at its top-level commas; an
// empty list has no parameters.
func SplitParameters(list string) []string {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(list); i++ {
		switch list[i] {
		case '(', '<', '[', '{':
			depth++
		case '>':
			if i == 0 || (list[i-1] != '-' && list[i-1] != '=') {
				depth--
			}
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(list[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(list[start:]))
}

// Arity is how many arguments a parameter list takes: from Min, which
// leaves out the parameters with a default value (Kotlin, C#, C++), to
// Max, -1 when the last one is variadic (Java's int..., C#'s params,
// Kotlin's vararg, C's ...). A C# extension method takes one fewer at the
// least: a call may write its receiver before the dot. Known is false when
// the signature holds no parameter list after the name.
type Arity struct {
	Min, Max int
	Known    bool
}

// ArityOf reads the arity of the parameter list after name in sig.
func ArityOf(sig, name string) Arity {
	params, ok := SignatureParameters(sig, name)
	if !ok {
		return Arity{}
	}
	a := Arity{Known: true}
	if receiverParameter(params) {
		a.Min-- // a C# extension method: x.M(a) passes x before the parentheses
	}
	for _, p := range params {
		switch {
		case variadic(p):
			a.Max = -1
			return a
		case TopLevel(p, func(i int) bool { return p[i] == '=' && (i+1 == len(p) || p[i+1] != '>') }) < 0:
			a.Min++
		}
		a.Max++
	}
	return a
}

// MemberCallArity is the arity of a member-style call (b.M(x)) of the
// method whose parameter list after name in sig is read: for a C#
// extension method, which declares its receiver as its first parameter
// (M(this Box b, int x)), one argument fewer than the static call
// Owner.M(b, x) that ArityOf admits too; receiver reports such a method.
func MemberCallArity(sig, name string) (a Arity, receiver bool) {
	a = ArityOf(sig, name)
	if params, _ := SignatureParameters(sig, name); receiverParameter(params) && a.Max > 0 {
		a.Max--
		return a, true
	}
	return a, false
}

// receiverParameter reports whether the first parameter is the receiver
// of a C# extension method (this Box b).
func receiverParameter(params []string) bool {
	return len(params) > 0 && strings.HasPrefix(params[0], "this ")
}

// variadic reports whether a parameter takes any number of arguments.
func variadic(p string) bool {
	return strings.Contains(p, "...") || strings.HasPrefix(p, "params ") || strings.HasPrefix(p, "vararg ")
}

// Takes reports whether a call passing n arguments fits a known arity.
func (a Arity) Takes(n int) bool {
	return a.Known && n >= a.Min && (a.Max < 0 || n <= a.Max)
}

// SameParameters reports whether two methods declare as many parameters,
// which an override and the method it overrides do; the defaults may
// differ (a Kotlin or C# override leaves out the ones its base declares).
func (a Arity) SameParameters(b Arity) bool {
	return a.Max == b.Max
}

// Meets reports whether some number of arguments fits both arities.
func (a Arity) Meets(b Arity) bool {
	lo := max(a.Min, b.Min)
	return a.Takes(lo) && b.Takes(lo)
}
