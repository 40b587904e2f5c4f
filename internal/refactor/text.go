package refactor

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
)

// offset converts a 1-based line and byte column into an offset, -1 when
// the position is not in the content.
func offset(starts []int, size, line, col int) int {
	if line < 1 || line > len(starts) || col < 1 {
		return -1
	}
	off := starts[line-1] + col - 1
	if off > size {
		return -1
	}
	if line < len(starts) && off >= starts[line] {
		return -1 // past the end of its line
	}
	return off
}

// span locates an edit in content: its start and end offsets.
func span(starts []int, size int, e Edit) (int, int, bool) {
	a, b := offset(starts, size, e.Line, e.Col), offset(starts, size, e.EndLine, e.EndCol)
	return a, b, a >= 0 && b >= a
}

// lineAt returns the text of a 1-based line, without its line ending.
func lineAt(content []byte, starts []int, line int) string {
	if line < 1 || line > len(starts) {
		return ""
	}
	end := len(content)
	if line < len(starts) {
		end = starts[line] - 1
	}
	s := string(content[starts[line-1]:end])
	if n := len(s); n > 0 && s[n-1] == '\r' {
		s = s[:n-1]
	}
	return s
}

// applyEdits returns content with edits applied. Every edit must find its
// old text at its span (the anchor) and no two edits may overlap: an edit
// that does not fit fails the whole file, never applies elsewhere.
func applyEdits(path string, content []byte, edits []Edit) ([]byte, error) {
	starts := lang.LineStarts(content)
	type placed struct {
		a, b int
		e    Edit
	}
	ps := make([]placed, 0, len(edits))
	for _, e := range edits {
		a, b, ok := span(starts, len(content), e)
		if !ok || string(content[a:b]) != e.Old {
			return nil, anchorMoved(path, e)
		}
		ps = append(ps, placed{a, b, e})
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].a < ps[j].a })
	out := make([]byte, 0, len(content)+64)
	pos := 0
	for i, p := range ps {
		if p.a < pos {
			if i > 0 && ps[i-1].a == p.a && ps[i-1].b == p.b && ps[i-1].e.New == p.e.New {
				continue // the same edit twice (two layers found one place)
			}
			return nil, &errs.Error{Kind: errs.Internal, Path: path,
				Msg: fmt.Sprintf("two edits overlap in %s at line %d", path, p.e.Line)}
		}
		out = append(out, content[pos:p.a]...)
		out = append(out, p.e.New...)
		pos = p.b
	}
	return append(out, content[pos:]...), nil
}

// anchorMoved is the error of an edit whose text is no longer where the
// plan saw it.
func anchorMoved(path string, e Edit) error {
	return &errs.Error{Kind: errs.Precondition, Path: path,
		Msg:     fmt.Sprintf("plan expired: %s no longer holds %q at %d:%d", path, e.Old, e.Line, e.Col),
		Details: map[string]any{"reason": "anchor_moved", "path": path, "line": e.Line, "col": e.Col, "expected": e.Old},
		Fixes:   []string{"plan the refactor again"}}
}

// sortEdits orders edits by file and position, the order plans list them.
func sortEdits(es []Edit) {
	slices.SortStableFunc(es, func(a, b Edit) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// dedupEdits drops repeated edits of one span (a location both layers
// report), keeping the first.
func dedupEdits(es []Edit) []Edit {
	type span struct {
		path         string
		l, c, el, ec int
	}
	return firstByKey(es, func(e Edit) span { return span{e.Path, e.Line, e.Col, e.EndLine, e.EndCol} })
}

// firstByKey keeps, in order, the first element of s for each key; it
// reuses s's array.
func firstByKey[T any, K comparable](s []T, key func(T) K) []T {
	seen := map[K]bool{}
	out := s[:0]
	for _, x := range s {
		if k := key(x); !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}
