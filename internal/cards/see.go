package cards

import (
	"bytes"
	"strings"
)

// @see links are found by a small lexer per comment syntax rather than by
// the languages' parsers: the facts the index keeps hold no comments, and a
// lexer that knows comments and string literals is enough to tell a link
// in a comment from the same text in a string.

// syntax describes how a language writes comments and strings.
type syntax struct {
	line  []string    // line comment markers, longest first
	block [][2]string // block comment open and close
	// quotes end at the same character, on the same line, with backslash
	// escapes; raw quotes (Go's `) span lines without escapes.
	quotes, raw []byte
	// triple: """ and ''' strings, which may span lines (Python, and text
	// blocks in Java and Kotlin); docTriple: they are docstrings, scanned
	// for links like comments (Python).
	triple, docTriple bool
	// rubyBlock: =begin ... =end comments at the start of a line.
	rubyBlock bool
	// lifetimes: a ' not closed two or three characters on is a Rust
	// lifetime, not a character literal.
	lifetimes bool
	// comment is the marker new line comments are written with.
	comment string
}

var (
	cLike   = syntax{line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []byte{'"', '\''}, comment: "//"}
	hashOne = syntax{line: []string{"#"}, quotes: []byte{'"', '\''}, comment: "#"}
)

// syntaxes maps a language (as the index names it) to its syntax.
var syntaxes = map[string]syntax{
	"go":         {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []byte{'"', '\''}, raw: []byte{'`'}, comment: "//"},
	"javascript": {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []byte{'"', '\''}, raw: []byte{'`'}, comment: "//"},
	"typescript": {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []byte{'"', '\''}, raw: []byte{'`'}, comment: "//"},
	"tsx":        {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []byte{'"', '\''}, raw: []byte{'`'}, comment: "//"},
	"java":       {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []byte{'"', '\''}, triple: true, comment: "//"},
	"kotlin":     {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []byte{'"', '\''}, triple: true, comment: "//"},
	"csharp":     cLike,
	"c":          cLike,
	"cpp":        cLike,
	"rust":       {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: []byte{'"', '\''}, lifetimes: true, comment: "//"},
	"php":        {line: []string{"//", "#"}, block: [][2]string{{"/*", "*/"}}, quotes: []byte{'"', '\''}, comment: "//"},
	"python":     {line: []string{"#"}, quotes: []byte{'"', '\''}, triple: true, docTriple: true, comment: "#"},
	"ruby":       {line: []string{"#"}, quotes: []byte{'"', '\''}, rubyBlock: true, comment: "#"},
	"yaml":       hashOne,
	"toml":       hashOne,
}

// SupportsLinks reports whether @see links are read from files of a language.
func SupportsLinks(language string) bool {
	_, ok := syntaxes[language]
	return ok
}

// comment is one comment (or docstring) of a file.
type comment struct {
	start, end int // byte offsets; end exclusive
	startLine  int // 1-based
	endLine    int
	// full: only whitespace precedes it on its first line.
	full bool
	// line: a line comment (its marker in marker), not a block.
	line   bool
	marker string
	// doc: a docstring, which belongs to what encloses it.
	doc bool
}

// lexer walks a file's bytes, tracking lines.
type lexer struct {
	src  []byte
	i    int
	line int
	// lineStart is the offset where the current line starts.
	lineStart int
}

func (l *lexer) advance(n int) {
	for ; n > 0 && l.i < len(l.src); n-- {
		if l.src[l.i] == '\n' {
			l.line++
			l.lineStart = l.i + 1
		}
		l.i++
	}
}

// advancePast moves past the first end at or after the current offset, or
// to the end of the source when there is none: an unterminated block
// comment runs to the end of the file.
func (l *lexer) advancePast(end string) {
	n := len(l.src) - l.i
	if k := bytes.Index(l.src[l.i:], []byte(end)); k >= 0 {
		n = k + len(end)
	}
	l.advance(n)
}

// onlySpaceBefore reports whether nothing but blanks precede offset i on
// its line.
func (l *lexer) onlySpaceBefore(i int) bool {
	return len(bytes.TrimLeft(l.src[l.lineStart:i], " \t")) == 0
}

// comments lists the comments of a file in order.
func comments(sx syntax, src []byte) []comment {
	l := &lexer{src: src, line: 1}
	var out []comment
	at := func(s string) bool { return bytes.HasPrefix(src[l.i:], []byte(s)) }
	for l.i < len(src) {
		c := src[l.i]
		switch {
		case sx.rubyBlock && l.i == l.lineStart && at("=begin"):
			cm := comment{start: l.i, startLine: l.line, full: true}
			l.advancePast("\n=end")
			cm.end, cm.endLine = l.i, l.line
			out = append(out, cm)
			continue
		case sx.triple && (at(`"""`) || at(`'''`)):
			q := string(src[l.i : l.i+3])
			cm := comment{start: l.i, startLine: l.line, full: l.onlySpaceBefore(l.i), doc: sx.docTriple}
			l.advance(3)
			for l.i < len(src) && !at(q) {
				if src[l.i] == '\\' {
					l.advance(1)
				}
				l.advance(1)
			}
			l.advance(3)
			cm.end, cm.endLine = l.i, l.line
			if sx.docTriple {
				out = append(out, cm)
			}
			continue
		}
		if m := lineMarker(sx, src[l.i:]); m != "" {
			cm := comment{start: l.i, startLine: l.line, endLine: l.line, full: l.onlySpaceBefore(l.i), line: true, marker: m}
			end := bytes.IndexByte(src[l.i:], '\n')
			if end < 0 {
				end = len(src) - l.i
			}
			l.advance(end)
			cm.end = l.i
			out = append(out, cm)
			continue
		}
		if open, close, ok := blockMarker(sx, src[l.i:]); ok {
			cm := comment{start: l.i, startLine: l.line, full: l.onlySpaceBefore(l.i)}
			l.advance(len(open))
			l.advancePast(close)
			cm.end, cm.endLine = l.i, l.line
			out = append(out, cm)
			continue
		}
		switch {
		case bytes.IndexByte(sx.raw, c) >= 0:
			l.advance(1)
			end := bytes.IndexByte(src[l.i:], c)
			if end < 0 {
				end = len(src) - l.i - 1
			}
			l.advance(end + 1)
		case bytes.IndexByte(sx.quotes, c) >= 0:
			if c == '\'' && sx.lifetimes && !charLiteral(src[l.i:]) {
				l.advance(1)
				continue
			}
			l.advance(1)
			for l.i < len(src) && src[l.i] != c && src[l.i] != '\n' {
				if src[l.i] == '\\' {
					l.advance(1)
				}
				l.advance(1)
			}
			l.advance(1)
		default:
			l.advance(1)
		}
	}
	return out
}

// charLiteral reports whether a ' opens a Rust character literal ('a',
// '\n', '\u{1F600}') rather than a lifetime ('a).
func charLiteral(s []byte) bool {
	if len(s) >= 3 && s[1] == '\\' {
		return true
	}
	if len(s) < 3 {
		return false
	}
	// One character, possibly several bytes of UTF-8, then the closing quote.
	for n := 2; n <= 5 && n < len(s); n++ {
		if s[n] == '\'' {
			return true
		}
		if s[n]&0xC0 != 0x80 {
			break
		}
	}
	return false
}

func lineMarker(sx syntax, s []byte) string {
	for _, m := range sx.line {
		if bytes.HasPrefix(s, []byte(m)) {
			return m
		}
	}
	return ""
}

func blockMarker(sx syntax, s []byte) (string, string, bool) {
	for _, b := range sx.block {
		if bytes.HasPrefix(s, []byte(b[0])) {
			return b[0], b[1], true
		}
	}
	return "", "", false
}

// Hit is one @see in a comment.
type Hit struct {
	Key  string
	Line int // 1-based
	Col  int // 1-based, bytes: where the key starts
	// Off is the byte offset of the key.
	Off int
	// At is the offset of the "@see" that introduces it.
	At int
	// cm is the comment holding it.
	cm int
}

// seeTag introduces a link.
const seeTag = "@see"

// Scan finds the @see links in the comments of a file of a language (none
// for a language without a comment syntax here).
func Scan(language string, src []byte) ([]Hit, []comment) {
	sx, ok := syntaxes[language]
	if !ok || !bytes.Contains(src, []byte(seeTag)) {
		return nil, nil
	}
	cms := comments(sx, src)
	var hits []Hit
	for ci, cm := range cms {
		text := src[cm.start:cm.end]
		from := 0
		for {
			k := bytes.Index(text[from:], []byte(seeTag))
			if k < 0 {
				break
			}
			at := from + k
			from = at + len(seeTag)
			if at > 0 && isWordByte(text[at-1]) {
				continue
			}
			j := from
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			if j == from {
				continue // @seealso, or @see at the end of the comment
			}
			e := j
			for e < len(text) && isKeyByte(text[e]) {
				e++
			}
			for e > j && text[e-1] == '.' {
				e-- // a sentence ending after the key
			}
			key := string(text[j:e])
			if key == "" || !ValidKey(key) || (e < len(text) && !endsKey(text[e:])) {
				continue
			}
			off := cm.start + j
			line, col := position(src, off)
			hits = append(hits, Hit{Key: key, Line: line, Col: col, Off: off, At: cm.start + at, cm: ci})
		}
	}
	return hits, cms
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isKeyByte(c byte) bool { return isWordByte(c) || c == '.' || c == '/' || c == '-' }

// endsKey reports whether what follows a key ends it: blanks, the end of a
// comment or punctuation. A key followed by #, (, : or { is something else
// (a Javadoc member reference, a URL, a JSDoc type).
func endsKey(rest []byte) bool {
	switch rest[0] {
	case ' ', '\t', '\r', '\n', '*', ',', ';', ')', ']', '"', '\'':
		return true
	case '.':
		return len(rest) == 1 || rest[1] == ' ' || rest[1] == '\n' || rest[1] == '\r' || rest[1] == '*'
	}
	return false
}

// position turns an offset into a 1-based line and byte column.
func position(src []byte, off int) (int, int) {
	line := 1 + bytes.Count(src[:off], []byte("\n"))
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return line, off - start + 1
}

// decoratorLine reports whether a line sits between a doc comment and the
// definition it documents: an annotation, decorator or attribute.
func decoratorLine(s string) bool {
	t := strings.TrimSpace(s)
	return strings.HasPrefix(t, "@") || strings.HasPrefix(t, "#[") || strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]")
}
