package data

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// extractTOML outlines TOML tables and keys with a line scanner: [table] and
// [[array.table]] headers, key = value lines (dotted and quoted keys), and
// values that span lines (multi-line strings, arrays, inline tables) skipped
// as a whole. A line that is none of these is a parse error.
func extractTOML(src []byte) (*lang.Facts, error) {
	o := newOutline(src)
	t := &tomlScanner{o: o, src: o.src}
	t.run()
	return o.facts(), nil
}

type tomlScanner struct {
	o        *outline
	src      []byte
	table    int32 // the current table's definition, -1 at the root
	tables   map[string]int32
	comments []string // the comment lines right above the current line
	open     int32    // the table whose span is still open
	skip     bool     // the current table is not outlined (too deep, or the file is full)
}

func (t *tomlScanner) run() {
	t.table, t.open = -1, -1
	t.tables = map[string]int32{}
	off := 0
	for off < len(t.src) {
		next := t.lineStartAfter(off)
		ls := skipSpace(t.src, off)
		switch {
		case ls >= len(t.src) || t.src[ls] == '\n' || t.src[ls] == '\r':
			t.comments = nil
		case t.src[ls] == '#':
			t.comments = append(t.comments, string(t.src[ls:t.o.lineEnd(ls)]))
		case t.src[ls] == '[':
			t.header(ls)
			t.comments = nil
		default:
			if end, ok := t.keyValue(ls); ok {
				next = t.lineStartAfter(end)
			} else {
				t.o.fail(ls)
			}
			t.comments = nil
		}
		off = next
	}
	t.closeTable(len(t.src))
}

// lineStartAfter is the start of the line after the one holding off.
func (t *tomlScanner) lineStartAfter(off int) int {
	for off < len(t.src) && t.src[off] != '\n' {
		off++
	}
	return off + 1
}

func skipSpace(src []byte, off int) int {
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	return off
}

func (t *tomlScanner) closeTable(end int) {
	if t.open >= 0 {
		t.o.setEnd(t.open, t.o.trimBack(end, "#"))
		t.open = -1
	}
}

// header handles [a.b] and [[a.b]].
func (t *tomlScanner) header(ls int) {
	array := strings.HasPrefix(string(t.src[ls:]), "[[")
	open := ls + 1
	if array {
		open++
	}
	keys, nameStart, nameEnd, after, ok := t.key(open)
	closeTok := "]"
	if array {
		closeTok = "]]"
	}
	if !ok || !strings.HasPrefix(string(t.src[after:]), closeTok) {
		t.o.fail(ls)
		return
	}
	after += len(closeTok)
	if rest := skipSpace(t.src, after); rest < len(t.src) && t.src[rest] != '\n' && t.src[rest] != '\r' && t.src[rest] != '#' {
		t.o.fail(rest)
	}
	t.closeTable(ls)
	path := strings.Join(keys, ".")
	parent := int32(-1)
	for i := len(keys) - 1; i > 0; i-- { // the longest table declared before that is a prefix
		if p, ok := t.tables[strings.Join(keys[:i], ".")]; ok {
			parent = p
			break
		}
	}
	t.table, t.skip = -1, true
	if t.depth(parent) >= MaxDepth {
		return
	}
	idx := t.o.add(def{kind: lang.KindNamespace, name: keys[len(keys)-1], path: path, parent: parent,
		start: ls, end: t.o.lineEnd(ls), nameStart: nameStart, nameEnd: nameEnd,
		sig: string(t.src[ls:after]), doc: t.doc()})
	if idx >= 0 {
		t.table, t.open, t.skip = idx, idx, false
		t.tables[path] = idx
	}
}

// depth is the nesting level of a definition (0 for none).
func (t *tomlScanner) depth(i int32) int {
	n := 0
	for ; i >= 0; i = t.o.f.Defs[i].Parent {
		n++
	}
	return n
}

func (t *tomlScanner) doc() string {
	if len(t.comments) == 0 {
		return ""
	}
	return commentDoc(t.comments, "#")
}

// keyValue handles key = value and returns the end of the value.
func (t *tomlScanner) keyValue(ls int) (int, bool) {
	keys, nameStart, nameEnd, after, ok := t.key(ls)
	if !ok {
		return 0, false
	}
	after = skipSpace(t.src, after)
	if after >= len(t.src) || t.src[after] != '=' {
		return 0, false
	}
	vs := skipSpace(t.src, after+1)
	end, ok := tomlValue(t.src, vs)
	if !ok {
		t.o.fail(vs)
		end = t.o.lineEnd(vs)
	}
	if t.skip || t.depth(t.table)+1 > MaxDepth || t.o.full {
		return end, true
	}
	path := strings.Join(keys, ".")
	if t.table >= 0 {
		path = t.o.f.Defs[t.table].Path + "." + path
	}
	t.o.add(def{kind: lang.KindField, name: keys[len(keys)-1], path: path, parent: t.table,
		start: ls, end: end, nameStart: nameStart, nameEnd: nameEnd,
		sig: string(t.src[ls:end]), doc: t.doc()})
	return end, true
}

// key reads a dotted key (bare or quoted parts) from off: its parts, the span
// of its last part and where it stops.
func (t *tomlScanner) key(off int) (keys []string, ns, ne, after int, ok bool) {
	src := t.src
	for {
		off = skipSpace(src, off)
		if off >= len(src) {
			return nil, 0, 0, 0, false
		}
		ns = off
		switch c := src[off]; {
		case c == '"' || c == '\'':
			end := closeQuote(src, off)
			if end < 0 {
				return nil, 0, 0, 0, false
			}
			keys = append(keys, unquoteKey(string(src[off:end])))
			ns, ne = off+1, end-1
			off = end
		case isBareKey(c):
			for off < len(src) && isBareKey(src[off]) {
				off++
			}
			keys = append(keys, string(src[ns:off]))
			ne = off
		default:
			return nil, 0, 0, 0, false
		}
		off = skipSpace(src, off)
		if off < len(src) && src[off] == '.' {
			off++
			continue
		}
		return keys, ns, ne, off, true
	}
}

func isBareKey(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// closeQuote is the offset just past the string starting at off (one line),
// or -1.
func closeQuote(src []byte, off int) int {
	q := src[off]
	for i := off + 1; i < len(src) && src[i] != '\n'; i++ {
		if q == '"' && src[i] == '\\' {
			i++
			continue
		}
		if src[i] == q {
			return i + 1
		}
	}
	return -1
}

func unquoteKey(s string) string {
	if len(s) >= 2 {
		s = s[1 : len(s)-1]
	}
	return s
}

// tomlValue finds the end of the value starting at off: a (multi-line)
// string, an array or inline table (which may span lines), or a bare value
// up to a comment or the end of the line.
func tomlValue(src []byte, off int) (int, bool) {
	if off >= len(src) || src[off] == '\n' || src[off] == '\r' || src[off] == '#' {
		return off, false
	}
	switch src[off] {
	case '"', '\'':
		delim := string(src[off : off+1])
		if strings.HasPrefix(string(src[off:min(off+3, len(src))]), delim+delim+delim) {
			end := strings.Index(string(src[off+3:]), delim+delim+delim)
			if end < 0 {
				return len(src), false
			}
			end += off + 6
			for end < len(src) && string(src[end:end+1]) == delim { // """a"""" ends with the last quotes
				end++
			}
			return end, true
		}
		end := closeQuote(src, off)
		return end, end >= 0
	case '[', '{':
		depth := 0
		for i := off; i < len(src); i++ {
			switch src[i] {
			case '[', '{':
				depth++
			case ']', '}':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			case '"', '\'':
				if e, ok := tomlValue(src, i); ok {
					i = e - 1
				} else {
					return len(src), false
				}
			case '#':
				for i < len(src) && src[i] != '\n' {
					i++
				}
			}
		}
		return len(src), false
	}
	end := off
	for end < len(src) && src[end] != '\n' && src[end] != '#' {
		end++
	}
	for end > off && (src[end-1] == ' ' || src[end-1] == '\t' || src[end-1] == '\r') {
		end--
	}
	return end, true
}
