package cards

import (
	"bytes"

	"github.com/cairnhq/cairn/internal/lang"
)

// A link belongs to a definition: the one its comment documents (a comment
// block right above a definition, or right before it on the same line,
// with only annotations, decorators or attributes between), else the
// innermost definition whose text holds the comment, else the file itself
// (-1, the module entity). A docstring belongs to what encloses it.

// blockEnd returns, for each comment, the last line of the block of line
// comments it belongs to: consecutive full-line comments form one block.
func blockEnds(cms []comment) []int {
	ends := make([]int, len(cms))
	for i := len(cms) - 1; i >= 0; i-- {
		ends[i] = cms[i].endLine
		if cms[i].line && cms[i].full && i+1 < len(cms) {
			n := cms[i+1]
			if n.line && n.full && n.startLine == cms[i].endLine+1 {
				ends[i] = ends[i+1]
			}
		}
	}
	return ends
}

// lines splits a file into its lines (without line ends).
func lines(src []byte) []string {
	var out []string
	for _, l := range bytes.Split(src, []byte("\n")) {
		out = append(out, string(bytes.TrimSuffix(l, []byte("\r"))))
	}
	return out
}

// Attach returns the definition each hit belongs to (an index into defs,
// or -1 for the file).
func Attach(src []byte, hits []Hit, cms []comment, defs []lang.Def) []int {
	out := make([]int, len(hits))
	if len(hits) == 0 {
		return out
	}
	ends := blockEnds(cms)
	ls := lines(src)
	for i, h := range hits {
		cm := cms[h.cm]
		container := innermost(defs, lang.Pos{Line: uint32(h.Line), Col: uint32(h.Col)})
		out[i] = container
		if !cm.full && !cm.doc {
			if d := trailing(defs, container, cm, src); d >= 0 {
				out[i] = d
			}
			continue
		}
		if cm.doc {
			continue
		}
		if d := documented(defs, container, ls, cm, ends[h.cm]); d >= 0 {
			out[i] = d
		}
	}
	return out
}

// innermost is the innermost definition whose span holds p (-1: none).
func innermost(defs []lang.Def, p lang.Pos) int {
	best := -1
	for i, d := range defs {
		if !d.Span.Contains(p) {
			continue
		}
		if best < 0 || !d.Span.Start.Before(defs[best].Span.Start) && (d.Span.End.Before(defs[best].Span.End) || d.Span.End == defs[best].Span.End) {
			best = i
		}
	}
	return best
}

// documented finds the definition a comment block documents: one that
// starts on the block's last line after the comment, or on the lines right
// below it past annotations, and lies inside container (when there is
// one). It returns -1 when the block documents nothing.
func documented(defs []lang.Def, container int, ls []string, cm comment, end int) int {
	inside := func(d lang.Def) bool {
		return container < 0 || defs[container].Span.Contains(d.Span.Start)
	}
	startingAt := func(line int, after uint32) int {
		for i, d := range defs {
			if int(d.Span.Start.Line) == line && d.Span.Start.Col > after && inside(d) {
				return i
			}
		}
		return -1
	}
	if !cm.line && cm.endLine == end {
		// A block comment that ends where a definition starts.
		if d := startingAt(end, uint32(endCol(ls, cm))); d >= 0 {
			return d
		}
	}
	for line := end + 1; line <= len(ls); line++ {
		if d := startingAt(line, 0); d >= 0 {
			return d
		}
		if !decoratorLine(lineText(ls, line)) {
			break
		}
	}
	return -1
}

// endCol is the 1-based column just past a block comment on its last line.
func endCol(ls []string, cm comment) int {
	// The comment's end offset is not kept per line; the close marker is
	// the last "*/" (or =end, ''') on the line, which is where it ends for
	// every comment the lexer reports.
	t := lineText(ls, cm.endLine)
	for _, close := range []string{"*/", "=end", `"""`, "'''"} {
		if k := bytes.LastIndex([]byte(t), []byte(close)); k >= 0 {
			return k + len(close)
		}
	}
	return len(t)
}

func lineText(ls []string, line int) string {
	if line < 1 || line > len(ls) {
		return ""
	}
	return ls[line-1]
}

// trailing finds the definition a comment after code on the same line
// belongs to: the innermost one (inside container) that ends on that line
// before the comment.
func trailing(defs []lang.Def, container int, cm comment, src []byte) int {
	line, col := position(src, cm.start)
	best := -1
	for i, d := range defs {
		if int(d.Span.End.Line) != line || int(d.Span.End.Col) > col || i == container {
			continue
		}
		if container >= 0 && !defs[container].Span.Contains(d.Span.Start) {
			continue
		}
		if best < 0 || defs[best].Span.Start.Before(d.Span.Start) {
			best = i
		}
	}
	return best
}
