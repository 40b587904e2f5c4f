package mutate

import (
	"fmt"
	"slices"
	"strings"
)

// Hunk is a block of changed lines without context, numbered as in a
// unified diff with zero context lines: a block that removes nothing has
// old_lines 0 and old_start the line after which the new lines go (0 at the
// top of the file), and likewise for a block that adds nothing.
type Hunk struct {
	OldStart int `json:"old_start"` // 1-based
	OldLines int `json:"old_lines"`
	NewStart int `json:"new_start"` // 1-based
	NewLines int `json:"new_lines"`
}

// opKind is one step of an edit script.
type opKind byte

const (
	opEqual opKind = iota
	opDelete
	opInsert
)

// op is a run of n lines of one kind: a[ai:ai+n] and/or b[bi:bi+n].
type op struct {
	kind   opKind
	ai, bi int
	n      int
}

// maxEditDistance bounds the exact diff: past this many inserted plus
// deleted lines (after the common head and tail are set aside) the middle
// is reported as one replaced block. The exact search costs memory
// quadratic in this bound; a change that large is read as a rewrite anyway.
const maxEditDistance = 1000

// splitLines splits content into lines that keep their terminators (and a
// leading byte order mark), so line-ending changes show in a diff.
func splitLines(data []byte) []string {
	return slices.Collect(strings.Lines(string(data)))
}

// diffLines computes an edit script from a to b: the common head and tail,
// then Myers' O(ND) search on the middle, bounded by maxEditDistance.
func diffLines(a, b []string) []op {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var ops []op
	add := func(o op) {
		if o.n == 0 {
			return
		}
		// Steps of one kind that follow each other are contiguous.
		if k := len(ops) - 1; k >= 0 && ops[k].kind == o.kind {
			ops[k].n += o.n
			return
		}
		ops = append(ops, o)
	}
	add(op{opEqual, 0, 0, head})
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	if mid, ok := myers(ma, mb); ok {
		for _, o := range mid {
			o.ai += head
			o.bi += head
			add(o)
		}
	} else {
		add(op{opDelete, head, head, len(ma)})
		add(op{opInsert, head + len(ma), head, len(mb)})
	}
	add(op{opEqual, len(a) - tail, len(b) - tail, tail})
	return ops
}

// myers finds a shortest edit script from a to b, or reports false when it
// needs more than maxEditDistance steps.
func myers(a, b []string) ([]op, bool) {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil, true
	}
	limit := min(n+m, maxEditDistance)
	off := limit + 1
	v := make([]int, 2*limit+3)
	// trace[d] is v over k in [-d-1, d+1] as it was before step d.
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m), true
			}
		}
	}
	return nil, false
}

// backtrack walks the trace from the end and returns the script in order.
func backtrack(trace [][]int, n, m int) []op {
	var rev []op
	x, y := n, m
	for d := len(trace) - 1; d > 0; d-- {
		v := trace[d]
		at := func(k int) int { return v[k+d+1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, op{opEqual, x, y, 1})
		}
		if x == px {
			y--
			rev = append(rev, op{opInsert, x, y, 1})
		} else {
			x--
			rev = append(rev, op{opDelete, x, y, 1})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, op{opEqual, x, y, 1})
	}
	out := make([]op, 0, len(rev))
	for i := len(rev) - 1; i >= 0; i-- {
		o := rev[i]
		if k := len(out) - 1; k >= 0 && out[k].kind == o.kind {
			out[k].n++
			continue
		}
		out = append(out, o)
	}
	return out
}

// hunks groups an edit script into blocks of change without context.
func hunks(ops []op) []Hunk {
	out := []Hunk{}
	var cur *Hunk
	for _, o := range ops {
		if o.kind == opEqual {
			cur = nil
			continue
		}
		if cur == nil {
			out = append(out, Hunk{OldStart: o.ai, NewStart: o.bi})
			cur = &out[len(out)-1]
		}
		if o.kind == opDelete {
			cur.OldLines += o.n
		} else {
			cur.NewLines += o.n
		}
	}
	for i := range out {
		// 1-based, except that an empty side names the line before it.
		if out[i].OldLines > 0 {
			out[i].OldStart++
		}
		if out[i].NewLines > 0 {
			out[i].NewStart++
		}
	}
	return out
}

// counts are the lines an edit script adds and removes.
func counts(ops []op) (added, removed int) {
	for _, o := range ops {
		switch o.kind {
		case opInsert:
			added += o.n
		case opDelete:
			removed += o.n
		}
	}
	return added, removed
}

// diffContext is how many unchanged lines a unified diff shows around a change.
const diffContext = 3

// unified renders an edit script as a unified diff of one file, as git
// prints it: oldName or newName is /dev/null for a file created or deleted.
func unified(oldName, newName string, a, b []string, ops []op) string {
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	// Expand the script to single lines, then cut it into hunks that keep
	// diffContext lines around each change.
	type row struct {
		kind   opKind
		ai, bi int
	}
	var rows []row
	for _, o := range ops {
		for i := 0; i < o.n; i++ {
			r := row{kind: o.kind, ai: o.ai, bi: o.bi}
			switch o.kind {
			case opEqual:
				r.ai, r.bi = o.ai+i, o.bi+i
			case opDelete:
				r.ai = o.ai + i
			case opInsert:
				r.bi = o.bi + i
			}
			rows = append(rows, r)
		}
	}
	for i := 0; i < len(rows); {
		if rows[i].kind == opEqual {
			i++
			continue
		}
		start := max(i-diffContext, 0)
		end := i
		for end < len(rows) {
			if rows[end].kind != opEqual {
				end++
				continue
			}
			run := end
			for run < len(rows) && rows[run].kind == opEqual {
				run++
			}
			if run == len(rows) || run-end > 2*diffContext {
				end = min(end+diffContext, len(rows))
				break
			}
			end = run
		}
		var oldN, newN int
		oldStart, newStart := -1, -1
		var body strings.Builder
		for _, r := range rows[start:end] {
			switch r.kind {
			case opEqual:
				oldN++
				newN++
				if oldStart < 0 {
					oldStart = r.ai
				}
				if newStart < 0 {
					newStart = r.bi
				}
				writeDiffLine(&body, ' ', a[r.ai])
			case opDelete:
				oldN++
				if oldStart < 0 {
					oldStart = r.ai
				}
				writeDiffLine(&body, '-', a[r.ai])
			case opInsert:
				newN++
				if newStart < 0 {
					newStart = r.bi
				}
				writeDiffLine(&body, '+', b[r.bi])
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", rangeSpec(oldStart, oldN, rows[start].ai), rangeSpec(newStart, newN, rows[start].bi))
		out.WriteString(body.String())
		i = end
	}
	return out.String()
}

// rangeSpec is one side of a hunk header: "start,count" with start 1-based,
// or the line before for an empty side.
func rangeSpec(start, n, fallback int) string {
	if n == 0 {
		if start < 0 {
			start = fallback
		}
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func writeDiffLine(b *strings.Builder, mark byte, l string) {
	b.WriteByte(mark)
	if body, ok := strings.CutSuffix(l, "\n"); ok {
		b.WriteString(body)
		b.WriteByte('\n')
		return
	}
	b.WriteString(l)
	b.WriteString("\n\\ No newline at end of file\n")
}
