package surface

import (
	"strings"
)

// Literal reads a string literal node: its value (interpolations replaced by
// Hole), whether it is one (ok), and whether it is built at run time
// (interpolated).
type Literal func(n int) (value string, ok, built bool)

// Strings evaluates string expressions and remembers which literals a
// concatenation consumed, so each SQL statement is scanned once.
type Strings struct {
	x        *Finder
	lit      Literal
	plus     map[string]bool // binary expression kinds
	consumed int             // literals starting before this byte were part of a concatenation
}

// NewStrings makes an evaluator for a language's literals and binary
// expression kinds.
func NewStrings(x *Finder, lit Literal, binaryKinds ...string) *Strings {
	s := &Strings{x: x, lit: lit, plus: map[string]bool{}}
	for _, k := range binaryKinds {
		s.plus[k] = true
	}
	return s
}

// Value evaluates node n as a string: a literal, or a + concatenation of
// literals and other expressions (which become holes); ok is false when n
// holds no literal text at all.
func (s *Strings) Value(n int) (value string, ok, built bool) {
	if n < 0 {
		return "", false, false
	}
	if v, ok, built := s.lit(n); ok {
		return v, true, built
	}
	if !s.isPlus(n) {
		return "", false, false
	}
	var b strings.Builder
	any := false
	// The operands left to right, with a stack rather than recursion: a
	// concatenation of N terms nests N levels deep.
	stack := []int{n}
	for len(stack) > 0 {
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.isPlus(m) {
			stack = append(stack, s.x.V.Child(m, "right"), s.x.V.Child(m, "left"))
			continue
		}
		if v, ok, bt := s.lit(m); ok {
			any = true
			built = built || bt
			b.WriteString(v)
			continue
		}
		built = true
		b.WriteString(Hole)
	}
	return b.String(), any, built
}

func (s *Strings) isPlus(n int) bool {
	if n < 0 || !s.plus[s.x.V.Kind(n)] {
		return false
	}
	l, r := s.x.V.Child(n, "left"), s.x.V.Child(n, "right")
	if l < 0 || r < 0 {
		return false
	}
	_, le := s.x.V.Bytes(l)
	rs, _ := s.x.V.Bytes(r)
	op := strings.TrimSpace(string(s.x.V.Src()[le:rs]))
	return op == "+"
}

// Visit scans node n for SQL when it is a string literal or the outermost
// + concatenation holding one; call it for every node in pre-order.
func (s *Strings) Visit(n int) {
	start, end := s.x.V.Bytes(n)
	if start < s.consumed {
		return
	}
	if s.isPlus(n) {
		v, ok, built := s.Value(n)
		s.consumed = end
		if ok {
			s.x.SQL(n, v, built)
		}
		return
	}
	if v, ok, built := s.lit(n); ok {
		s.consumed = end
		s.x.SQL(n, v, built)
	}
}
