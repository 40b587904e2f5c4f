// Package data registers the data and documentation files that Cairn outlines
// without a tree-sitter grammar (Language.Extract): JSON, YAML, TOML,
// Markdown and Prisma schemas (prisma.go). Their facts are definitions only, no references, locals or
// imports, so that keys and headings are navigable symbols.
//
// Outline rules:
//   - JSON/YAML/TOML: a key whose value is an object (a mapping, a table) is
//     a namespace; any other key (scalars, arrays, TOML inline tables) is a
//     field. Arrays are not descended into. Paths join keys with "."
//     (compilerOptions.strict; [tool.poetry] is tool.poetry, its key name is
//     tool.poetry.name). A TOML table nests under the last table declared
//     before it whose path is a prefix of its own; [[a]] array tables repeat
//     (Dup counts them).
//   - Markdown: ATX (# Title) and setext (Title / ===) headings are modules,
//     nested by level; fenced code blocks and YAML front matter are skipped.
//     The doc of a heading is the first sentence of the text below it.
//   - Bounds: nesting deeper than MaxDepth is not outlined, and a file gives
//     at most MaxKeys definitions, so a huge JSON file cannot flood the index.
//   - Input that does not parse gives the definitions found before the damage
//     and ParseErrors > 0.
//   - Visibility is unknown (these are not code), which ranks them below code
//     symbols in symbol search.
package data

import (
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// Bounds of one file's outline.
const (
	MaxDepth = 4    // nesting levels of keys (a top-level key is level 1)
	MaxKeys  = 2000 // definitions per file
)

// Languages without a grammar.
var (
	JSON = &lang.Language{Name: "json", Extensions: []string{".json"}, Extract: extractJSON}
	YAML = &lang.Language{Name: "yaml", Extensions: []string{".yaml", ".yml"}, Aliases: []string{"yml"}, Extract: extractYAML}
	TOML = &lang.Language{Name: "toml", Extensions: []string{".toml"}, Extract: extractTOML}
	// Markdown is documentation; its headings are the outline.
	Markdown = &lang.Language{Name: "markdown", Extensions: []string{".md", ".markdown"}, Aliases: []string{"md"}, Extract: extractMarkdown}
)

func init() {
	for _, l := range []*lang.Language{JSON, YAML, TOML, Markdown} {
		lang.Register(l)
	}
}

// outline builds the facts of one file.
type outline struct {
	src   []byte
	lines []int // byte offset of each line's start
	f     *lang.Facts
	dups  map[string]uint16
	full  bool // MaxKeys reached
}

func newOutline(src []byte) *outline {
	if strings.HasPrefix(string(src[:min(len(src), 3)]), "\ufeff") {
		// a byte order mark: blank it (in a copy) so scanners see the first
		// line's text where it is, and columns still count bytes
		src = append([]byte("   "), src[3:]...)
	}
	return &outline{src: src, lines: lang.LineStarts(src), f: &lang.Facts{}, dups: map[string]uint16{}}
}

// pos is the position of a byte offset.
func (o *outline) pos(off int) lang.Pos {
	if off > len(o.src) {
		off = len(o.src)
	}
	line := sort.Search(len(o.lines), func(i int) bool { return o.lines[i] > off }) - 1
	return lang.Pos{Line: uint32(line + 1), Col: uint32(off - o.lines[line] + 1)}
}

// offset is the byte offset of a 1-based line and byte column.
func (o *outline) offset(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(o.lines) {
		return len(o.src)
	}
	off := o.lines[line-1] + col - 1
	if off > len(o.src) {
		off = len(o.src)
	}
	return off
}

// lineEnd is the offset of the end of the line holding off (before "\n" or "\r\n").
func (o *outline) lineEnd(off int) int {
	for off < len(o.src) && o.src[off] != '\n' {
		off++
	}
	if off > 0 && o.src[off-1] == '\r' {
		off--
	}
	return off
}

// def is one definition to add; offsets are bytes into the source.
type def struct {
	kind               lang.DefKind
	name, path         string
	parent             int32
	start, end         int // the whole definition
	nameStart, nameEnd int
	sig, doc           string
}

// add appends a definition and returns its index, or -1 when the file is full.
func (o *outline) add(d def) int32 {
	if len(o.f.Defs) >= MaxKeys {
		o.full = true
		return -1
	}
	if d.path == "" {
		d.path = o.f.ChildPath(d.parent, d.name)
	} else {
		d.path = o.f.CutPath(d.path)
	}
	dup := o.dups[d.path]
	o.dups[d.path]++
	o.f.Defs = append(o.f.Defs, lang.Def{
		Kind: d.kind, Name: d.name, Path: d.path, Parent: d.parent,
		Span:      lang.Span{Start: o.pos(d.start), End: o.pos(d.end)},
		NameSpan:  lang.Span{Start: o.pos(d.nameStart), End: o.pos(d.nameEnd)},
		Signature: truncSig(d.sig),
		Doc:       d.doc,
		BodyHash:  o.bodyHash(d.start, d.end, d.nameStart, d.nameEnd),
		Dup:       dup,
	})
	return int32(len(o.f.Defs) - 1)
}

// setEnd moves the end of a definition added before.
func (o *outline) setEnd(i int32, end int) {
	if i >= 0 {
		o.f.Defs[i].Span.End = o.pos(end)
		d := &o.f.Defs[i]
		ns := o.offset(int(d.NameSpan.Start.Line), int(d.NameSpan.Start.Col))
		ne := o.offset(int(d.NameSpan.End.Line), int(d.NameSpan.End.Col))
		start := o.offset(int(d.Span.Start.Line), int(d.Span.Start.Col))
		d.BodyHash = o.bodyHash(start, end, ns, ne)
	}
}

// bodyHash fingerprints a definition's text without whitespace and without its
// name, as the engine does for code.
func (o *outline) bodyHash(start, end, ns, ne int) uint64 {
	return lang.BodyHash(o.src, start, end, ns, ne)
}

// fail records a parse error at an offset (the first one wins the position).
func (o *outline) fail(off int) {
	if o.f.ParseErrors == 0 {
		o.f.FirstError = o.pos(off)
	}
	o.f.ParseErrors++
}

// trimBack moves an exclusive end offset back over trailing blank lines and
// whole-line comments starting with one of the markers (so the comment above
// the next key is not part of this one).
func (o *outline) trimBack(end int, markers ...string) int {
	for end > 0 {
		// the line that ends just before end
		i := end
		for i > 0 && (o.src[i-1] == '\n' || o.src[i-1] == '\r' || o.src[i-1] == ' ' || o.src[i-1] == '\t') {
			i--
		}
		if i == 0 {
			return 0
		}
		ls := i
		for ls > 0 && o.src[ls-1] != '\n' {
			ls--
		}
		line := strings.TrimSpace(string(o.src[ls:i]))
		comment := false
		for _, m := range markers {
			if strings.HasPrefix(line, m) {
				comment = true
			}
		}
		if !comment {
			return i
		}
		end = ls
	}
	return end
}

// commentDoc turns comment lines ("# a", "# b") into a doc summary.
func commentDoc(lines []string, marker string) string {
	var parts []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		l = strings.TrimSpace(strings.TrimLeft(l, marker))
		parts = append(parts, l)
	}
	return lang.Summary(strings.Join(parts, "\n"))
}

func (o *outline) facts() *lang.Facts { return o.f }

// truncSig normalises a signature like the engine does.
func truncSig(s string) string {
	return lang.Truncate(lang.CollapseSpace(s), lang.MaxSignature)
}
