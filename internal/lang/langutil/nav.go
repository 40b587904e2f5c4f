package langutil

import "github.com/cairnhq/cairn/internal/lang"

// Child, ChildOfKind and Children are the View's, for a node that may be
// -1 (none). The View steps over whole subtrees (their ends are computed
// once per file), so finding a child costs the children before it, however
// deep they are: a scan of the descendants would cost the square of a chain
// a.b.c... of nested member expressions.

// Child is the first direct child of n under the field name, or -1.
func Child(v *lang.View, n int, field string) int {
	if n < 0 {
		return -1
	}
	return v.Child(n, field)
}

// ChildOfKind is the first direct child of n with the kind, or -1.
func ChildOfKind(v *lang.View, n int, kind string) int {
	if n < 0 {
		return -1
	}
	return v.ChildOfKind(n, kind)
}

// Children lists the direct children of n.
func Children(v *lang.View, n int) []int {
	if n < 0 {
		return nil
	}
	return v.Children(n)
}

// NodesByStart maps a start position to the last node (in pre-order: the
// deepest) that starts there and satisfies keep.
func NodesByStart(v *lang.View, keep func(i int) bool) map[lang.Pos]int {
	out := map[lang.Pos]int{}
	for i := 0; i < v.Len(); i++ {
		if keep(i) {
			out[v.Start(i)] = i
		}
	}
	return out
}

// KindSet makes a predicate over node kinds.
func KindSet(v *lang.View, kinds ...string) func(i int) bool {
	set := map[string]bool{}
	for _, k := range kinds {
		set[k] = true
	}
	return func(i int) bool { return set[v.Kind(i)] }
}

// NodesBySpan maps each of the spans to the first node in pre-order (the
// outermost) that has it and satisfies keep (nil keeps every node); a span no
// such node has is missing.
func NodesBySpan(v *lang.View, spans []lang.Span, keep func(i int) bool) map[lang.Span]int {
	want := make(map[lang.Span]bool, len(spans))
	for _, sp := range spans {
		want[sp] = true
	}
	out := make(map[lang.Span]int, len(want))
	for i := 0; i < v.Len() && len(out) < len(want); i++ {
		if keep != nil && !keep(i) {
			continue
		}
		if sp := v.Span(i); want[sp] {
			if _, ok := out[sp]; !ok {
				out[sp] = i
			}
		}
	}
	return out
}

// DefNodes maps each definition to its node, found by span among the nodes
// satisfying keep (nil keeps every node): the outermost, -1 when none matches.
func DefNodes(v *lang.View, f *lang.Facts, keep func(i int) bool) []int {
	spans := DefSpans(f)
	return nodesOf(NodesBySpan(v, spans, keep), spans)
}

// DefSpans lists the definitions' spans.
func DefSpans(f *lang.Facts) []lang.Span {
	spans := make([]lang.Span, len(f.Defs))
	for i, d := range f.Defs {
		spans[i] = d.Span
	}
	return spans
}

// ScopeNodes maps each scope of the facts to the node that opened it, found by
// span among the nodes satisfying keep (nil keeps every node): the outermost,
// -1 when none matches.
func ScopeNodes(v *lang.View, f *lang.Facts, keep func(i int) bool) []int {
	spans := make([]lang.Span, len(f.Scopes))
	for i, s := range f.Scopes {
		spans[i] = s.Span
	}
	return nodesOf(NodesBySpan(v, spans, keep), spans)
}

func nodesOf(bySpan map[lang.Span]int, spans []lang.Span) []int {
	out := make([]int, len(spans))
	for i, sp := range spans {
		if n, ok := bySpan[sp]; ok {
			out[i] = n
		} else {
			out[i] = -1
		}
	}
	return out
}
