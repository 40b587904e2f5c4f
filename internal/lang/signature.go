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
