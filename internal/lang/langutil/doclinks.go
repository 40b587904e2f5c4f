package langutil

import (
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// DocSyntax says how a language's documentation comments link to code:
// JSDoc's {@link X.m} and @throws {X}, Javadoc's {@link X#m} and @see X#m.
type DocSyntax struct {
	Inline    []string // inline tags whose first word is a link: "@link"
	TypeTags  []string // block tags followed by a {Type}: JSDoc's "@throws"
	NameTags  []string // block tags followed by a bare name: Javadoc's "@see"
	MemberSep byte     // what joins a name and its member: '.' or '#'
	OwnMember bool     // a link may name a member of the class at hand alone: {@link #m}
}

// DocLink is a name a documentation comment links to: Head, or Head's
// member Member (Head "" for a member of the class at hand), at byte
// offsets of the comment.
type DocLink struct {
	Head, Member     string
	HeadAt, MemberAt int
	// Params counts the parameters a member link lists (#m(int, String):
	// 2); -1 when it lists none. Types are those of them that are one name.
	Params int
	Types  []DocName
}

// DocName is a name in a link, at a byte offset of the comment.
type DocName struct {
	Name string
	At   int
}

// DocLinks finds the links of a documentation comment's text. A link that
// is not one name, or one name and one member (a URL, a longer path, a
// generic type), is prose and left out.
func (s DocSyntax) DocLinks(text string) []DocLink {
	var out []DocLink
	for i := 0; i < len(text); i++ {
		if text[i] == '{' && i+1 < len(text) && text[i+1] == '@' {
			tag, j := docTag(text, i+1)
			if !slices.Contains(s.Inline, tag) || j >= len(text) || (text[j] != ' ' && text[j] != '\t') {
				continue
			}
			if l, ok := s.link(text, skipBlanks(text, j), "} |\t\n"); ok {
				out = append(out, l)
			}
			i = j - 1
			continue
		}
		if text[i] != '@' || (i > 0 && text[i-1] == '{') {
			continue
		}
		tag, j := docTag(text, i)
		j = skipBlanks(text, j)
		switch {
		case slices.Contains(s.TypeTags, tag) && j < len(text) && text[j] == '{':
			if l, ok := s.link(text, j+1, "}"); ok {
				out = append(out, l)
			}
		case slices.Contains(s.NameTags, tag):
			if l, ok := s.link(text, j, " \t\n*"); ok {
				out = append(out, l)
			}
		}
		i = j - 1
	}
	return out
}

// Each calls fn with every link of the /** comments (nodes of kind) of a
// file, with the comment's text and node.
func (s DocSyntax) Each(v *lang.View, kind string, fn func(l DocLink, text string, comment int)) {
	DocComments(v, kind, "/**", func(text string, n int) {
		for _, l := range s.DocLinks(text) {
			fn(l, text, n)
		}
	})
}

// DocComments calls fn with the text and node of every comment (a node of
// kind) that starts with prefix; the others' text is not copied.
func DocComments(v *lang.View, kind, prefix string, fn func(text string, comment int)) {
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) == kind && v.Head(n, len(prefix)) == prefix {
			fn(v.Text(n), n)
		}
	}
}

// DocNames binds the names of a file's doc links to its top-level
// definitions and imports, looked up on first use.
type DocNames struct {
	f            *lang.Facts
	top, imports map[string]int32
	names        *lang.NameTable
}

// NewDocNames binds the names of f's doc links.
func NewDocNames(f *lang.Facts) *DocNames { return &DocNames{f: f} }

// ID is the index of name in the facts' names, added if new.
func (d *DocNames) ID(name string) uint32 {
	d.load()
	return d.names.ID(name)
}

// Bind finds the file's own top-level definition or its import of a name
// (-1 for none; a definition first).
func (d *DocNames) Bind(name string) (def, imp int32) {
	d.load()
	def, imp = -1, -1
	if i, ok := d.top[name]; ok {
		def = i
	} else if i, ok := d.imports[name]; ok {
		imp = i
	}
	return def, imp
}

func (d *DocNames) load() {
	if d.names == nil {
		d.top, d.imports, d.names = d.f.TopDefs(), d.f.ImportByName(), lang.NewNameTable(d.f)
	}
}

// link reads a link at offset at, ended by one of the bytes of ends.
func (s DocSyntax) link(text string, at int, ends string) (DocLink, bool) {
	end := at
	for end < len(text) && strings.IndexByte(ends, text[end]) < 0 && text[end] != '(' {
		end++
	}
	if end == len(text) && !strings.Contains(ends, " ") {
		return DocLink{}, false // an unclosed {
	}
	name := text[at:end]
	head, member, hasMember := strings.Cut(name, string(s.MemberSep))
	switch {
	case hasMember && !lang.IsIdentifier(member),
		head == "" && !(hasMember && s.OwnMember),
		head != "" && !lang.IsIdentifier(head):
		return DocLink{}, false
	}
	l := DocLink{Head: head, HeadAt: at, Params: -1}
	if hasMember {
		l.Member, l.MemberAt = member, at+len(head)+1
		l.Params, l.Types = ParamList(text, end)
	}
	return l, true
}

// ParamList reads the parameter list that starts at offset at of a
// comment ((), (int), (Conn, boolean...)): how many parameters there are
// (-1 for no list) and those that are one name, arrays and varargs
// included.
func ParamList(text string, at int) (int, []DocName) {
	if at >= len(text) || text[at] != '(' {
		return -1, nil
	}
	end := strings.IndexByte(text[at:], ')')
	if end < 0 {
		return -1, nil
	}
	inner := text[at+1 : at+end]
	if strings.TrimSpace(inner) == "" {
		return 0, nil
	}
	var types []DocName
	off := at + 1
	parts := strings.Split(inner, ",")
	for _, p := range parts {
		lead := len(p) - len(strings.TrimLeft(p, " \t"))
		name := strings.TrimSpace(p)
		name = strings.TrimSuffix(strings.TrimSuffix(name, "..."), "[]")
		if lang.IsIdentifier(name) {
			types = append(types, DocName{Name: name, At: off + lead})
		}
		off += len(p) + 1
	}
	return len(parts), types
}

// docTag is the tag (@name) at offset at and the offset after it.
func docTag(text string, at int) (string, int) {
	j := at + 1
	for j < len(text) && (text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z') {
		j++
	}
	return text[at:j], j
}

func skipBlanks(text string, j int) int {
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	return j
}

// OffsetPos is the position of byte offset off of a text that starts at
// start.
func OffsetPos(text string, start lang.Pos, off int) lang.Pos {
	line := strings.Count(text[:off], "\n")
	if line == 0 {
		return lang.Pos{Line: start.Line, Col: start.Col + uint32(off)}
	}
	return lang.Pos{Line: start.Line + uint32(line), Col: uint32(off - strings.LastIndexByte(text[:off], '\n'))}
}

// AddRefs adds references to a file's facts in position order, keeping
// every index of a reference (the Via of references and locals, the Base
// of anonymous classes) pointing at the reference it pointed at.
func AddRefs(f *lang.Facts, add []lang.Ref) {
	if len(add) == 0 {
		return
	}
	sort.SliceStable(add, func(i, j int) bool { return add[i].Pos.Before(add[j].Pos) })
	merged := make([]lang.Ref, 0, len(f.Refs)+len(add))
	moved := make([]int32, len(f.Refs)) // old index -> new index
	i, j := 0, 0
	for i < len(f.Refs) || j < len(add) {
		if j == len(add) || i < len(f.Refs) && !add[j].Pos.Before(f.Refs[i].Pos) {
			moved[i] = int32(len(merged))
			merged = append(merged, f.Refs[i])
			i++
		} else {
			merged = append(merged, add[j])
			j++
		}
	}
	remap := func(via int32) int32 {
		if via <= 0 || int(via) > len(moved) {
			return via
		}
		return moved[via-1] + 1
	}
	for k := range merged {
		merged[k].Via = remap(merged[k].Via)
	}
	for k := range f.Locals {
		f.Locals[k].Via = remap(f.Locals[k].Via)
	}
	for k := range f.Anonymous {
		f.Anonymous[k].Base = remap(f.Anonymous[k].Base+1) - 1
	}
	f.Refs = merged
}
