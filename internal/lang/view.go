package lang

import (
	"sort"
	"strings"
)

// View is read access to one parsed file for language hooks: flattened named
// nodes in pre-order (a node's descendants follow it contiguously) and the source.
type View struct {
	src   []byte
	nodes []node
	c     *compiled
	ends  []int32 // per node: the index just past its subtree (subtreeEnd)
	empty uint8   // hasEmpty: 0 unknown, 1 no, 2 yes
}

// Root is the index of the root node (-1 for an empty tree).
func (v *View) Root() int {
	if len(v.nodes) == 0 {
		return -1
	}
	return 0
}

// Len is the number of named nodes.
func (v *View) Len() int { return len(v.nodes) }

// Src is the file's bytes.
func (v *View) Src() []byte { return v.src }

// Kind is the node's grammar kind, e.g. "function_declaration".
func (v *View) Kind(i int) string {
	if i < 0 {
		return ""
	}
	sym := int(v.nodes[i].sym)
	if sym >= len(v.c.kindNames) {
		return "ERROR"
	}
	return v.c.kindNames[sym]
}

// Field is the field name under which the node hangs from its parent ("" if none).
func (v *View) Field(i int) string {
	f := v.nodes[i].field
	if int(f) < len(v.c.fieldNames) {
		return v.c.fieldNames[f]
	}
	return ""
}

// Parent is the index of the nearest named ancestor, or -1.
func (v *View) Parent(i int) int {
	if i < 0 {
		return -1
	}
	return int(v.nodes[i].parent)
}

// Text is the node's source text.
func (v *View) Text(i int) string {
	n := v.nodes[i]
	return string(v.src[n.sb:n.eb])
}

// Head is the start of the node's text, at most n bytes (cut at a UTF-8
// boundary): for text that is compared or searched rather than shown whole.
// Nested nodes each hold the text of the ones inside them, so reading every
// one whole would cost the square of the nesting.
func (v *View) Head(i, n int) string {
	nd := v.nodes[i]
	if int(nd.eb-nd.sb) <= n {
		return string(v.src[nd.sb:nd.eb])
	}
	end := int(nd.sb) + n
	for end > int(nd.sb) && v.src[end]&0xC0 == 0x80 {
		end--
	}
	return string(v.src[nd.sb:end])
}

// Start is the node's start position.
func (v *View) Start(i int) Pos {
	n := v.nodes[i]
	return Pos{Line: n.sr + 1, Col: n.sc + 1}
}

// End is the node's end position (exclusive).
func (v *View) End(i int) Pos {
	n := v.nodes[i]
	return Pos{Line: n.er + 1, Col: n.ec + 1}
}

// Span is the node's span.
func (v *View) Span(i int) Span { return Span{v.Start(i), v.End(i)} }

// Bytes is the node's byte range.
func (v *View) Bytes(i int) (start, end int) {
	n := v.nodes[i]
	return int(n.sb), int(n.eb)
}

// Spanning lists the nodes that cover exactly the bytes [start, end), outermost first.
func (v *View) Spanning(start, end int) []int {
	var out []int
	lo := sort.Search(len(v.nodes), func(i int) bool { return int(v.nodes[i].sb) >= start })
	for i := lo; i < len(v.nodes) && int(v.nodes[i].sb) == start; i++ {
		if int(v.nodes[i].eb) == end {
			out = append(out, i)
		}
	}
	return out
}

// Children lists the direct named children of i (i = -1 means the roots).
func (v *View) Children(i int) []int {
	var out []int
	end := v.subtreeEnd(i)
	for j := i + 1; j < end; j = v.subtreeEnd(j) {
		out = append(out, j)
	}
	return out
}

// Child is the first direct named child of i under the field name, or -1.
func (v *View) Child(i int, field string) int {
	end := v.subtreeEnd(i)
	for j := i + 1; j < end; j = v.subtreeEnd(j) {
		if v.Field(j) == field {
			return j
		}
	}
	return -1
}

// ChildOfKind is the first direct named child of i with the kind, or -1.
func (v *View) ChildOfKind(i int, kind string) int {
	end := v.subtreeEnd(i)
	for j := i + 1; j < end; j = v.subtreeEnd(j) {
		if v.Kind(j) == kind {
			return j
		}
	}
	return -1
}

// Descendants calls fn for each node below i in pre-order.
func (v *View) Descendants(i int, fn func(j int)) {
	end := v.subtreeEnd(i)
	for j := i + 1; j < end; j++ {
		fn(j)
	}
}

// HasAncestor reports whether some ancestor of i has the kind.
func (v *View) HasAncestor(i int, kind string) bool {
	for p := v.Parent(i); p >= 0; p = v.Parent(p) {
		if v.Kind(p) == kind {
			return true
		}
	}
	return false
}

// subtreeEnd is the index just past i's last descendant (the nodes are in
// pre-order, so a subtree is contiguous); computed for all nodes at first use.
func (v *View) subtreeEnd(i int) int {
	if i < 0 {
		return len(v.nodes)
	}
	if v.ends == nil {
		v.ends = make([]int32, len(v.nodes))
		for j := range v.ends {
			v.ends[j] = int32(j + 1)
		}
		for j := len(v.nodes) - 1; j > 0; j-- { // children after their parents
			if p := v.nodes[j].parent; p >= 0 && v.ends[j] > v.ends[p] {
				v.ends[p] = v.ends[j]
			}
		}
	}
	return int(v.ends[i])
}

// find returns the index of the named node with exactly this byte range and
// symbol, or -1. Pre-order keeps start bytes non-decreasing, and a node that
// starts where the one before it starts is inside it, so its end byte is not
// greater: find bisects on both (a chain a.b().c()... starts every call at
// the same byte). Only an empty node can be followed by one that starts at
// the same byte and ends later; in a file that has empty nodes, find looks at
// every node with that start when the bisection fails.
func (v *View) find(sb, eb uint32, sym uint16) int {
	lo := sort.Search(len(v.nodes), func(i int) bool { return v.nodes[i].sb >= sb })
	hi := lo + sort.Search(len(v.nodes)-lo, func(i int) bool { return v.nodes[lo+i].sb > sb })
	j := lo + sort.Search(hi-lo, func(i int) bool { return v.nodes[lo+i].eb <= eb })
	for ; j < hi && v.nodes[j].eb == eb; j++ {
		if v.nodes[j].sym == sym {
			return j
		}
	}
	if !v.hasEmpty() {
		return -1
	}
	for j := lo; j < hi; j++ {
		if n := v.nodes[j]; n.eb == eb && n.sym == sym {
			return j
		}
	}
	return -1
}

// hasEmpty reports whether some node is empty (computed at first use).
func (v *View) hasEmpty() bool {
	if v.empty == 0 {
		v.empty = 1
		for _, n := range v.nodes {
			if n.sb == n.eb {
				v.empty = 2
				break
			}
		}
	}
	return v.empty == 2
}

// CollapseSpace turns runs of whitespace into one space and trims the ends.
func CollapseSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteByte(c)
	}
	return b.String()
}
