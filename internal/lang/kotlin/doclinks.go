package kotlin

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// kdocTags are the block tags followed by a name that KDoc links: @see
// Foo.bar, @throws IOException.
var kdocTags = langutil.DocSyntax{NameTags: []string{"@see", "@throws", "@exception"}, MemberSep: '.'}

// kdocLinks adds the names that KDoc comments link to as references of
// role doc, the way Dokka and the IDE resolve them: [Foo] and [Foo.bar]
// (also as the target of [label][Foo]), and the name after @see and
// @throws. A bare [name] is a member of the class at hand when it has one
// (BindMembers binds it), else a name of the file or package; one that
// names a parameter of the declaration the comment documents stays prose,
// as does a longer qualified name. A rename then changes the link, which
// Dokka would otherwise report as unresolved. It runs before
// classlang.Finish, which binds the bare names to members.
func kdocLinks(v *lang.View, f *lang.Facts) {
	names := langutil.NewDocNames(f)
	var add []lang.Ref
	langutil.DocComments(v, "block_comment", "/**", func(text string, n int) {
		end := v.End(n)
		params := documentedParams(f, end)
		links := append(kdocBrackets(text), kdocTags.DocLinks(text)...)
		for _, l := range links {
			if l.Member == "" && params[l.Head] {
				continue
			}
			add = append(add, classlang.DocLinkRefs(f, names, l, text, v.Start(n), end, nil)...)
		}
	})
	langutil.AddRefs(f, add)
}

// documentedParams are the names of the parameters of the declaration that
// starts first after a comment ending at end: the bindings of its own scope
// that declare no member (a class's val parameters are properties).
func documentedParams(f *lang.Facts, end lang.Pos) map[string]bool {
	next := langutil.DefAfter(f, end)
	if next < 0 {
		return nil
	}
	span := f.Defs[next].Span
	members := map[lang.Pos]bool{}
	for _, d := range f.Defs {
		if span.Contains(d.NameSpan.Start) {
			members[d.NameSpan.Start] = true
		}
	}
	var params map[string]bool
	for _, l := range f.Locals {
		if l.Scope >= 0 && f.Scopes[l.Scope].Span == span && !members[l.Pos] {
			if params == nil {
				params = map[string]bool{}
			}
			params[f.Names[l.Name]] = true
		}
	}
	return params
}

// kdocBrackets reads the [Name] and [Name.member] links of a comment's
// text, and the target of [label][Name]. Markdown links ([text](url)),
// indexing (a[i]), and brackets inside code (`a[0]`, fenced blocks) are
// not links.
func kdocBrackets(text string) []langutil.DocLink {
	var out []langutil.DocLink
	fenced := false
	off := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		body := strings.TrimLeft(line, " \t*/")
		if strings.HasPrefix(body, "```") {
			fenced = !fenced
		}
		if !fenced {
			out = append(out, lineLinks(line, off)...)
		}
		off += len(line)
	}
	return out
}

// lineLinks are the bracket links of one line of a comment starting at
// offset off.
func lineLinks(line string, off int) []langutil.DocLink {
	var out []langutil.DocLink
	code := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '`':
			code = !code
		case c != '[' || code || i > 0 && indexes(line[i-1]):
		default:
			end := strings.IndexByte(line[i+1:], ']')
			if end < 0 {
				return out
			}
			end += i + 1
			next := byte(0)
			if end+1 < len(line) {
				next = line[end+1]
			}
			if next != '(' && next != '[' { // [text](url) and [label][Name] label no link
				if l, ok := bracketLink(line[i+1:end], off+i+1); ok {
					out = append(out, l)
				}
			}
			i = end
		}
	}
	return out
}

// indexes says whether a bracket after byte c indexes a value (a[i],
// f()[0]) rather than opening a link; a ] before it ends a label.
func indexes(c byte) bool {
	return c == ')' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// bracketLink reads the name between brackets that starts at offset at:
// one name, or a name and its member.
func bracketLink(name string, at int) (langutil.DocLink, bool) {
	head, member, hasMember := strings.Cut(name, ".")
	if !lang.IsIdentifier(head) || hasMember && !lang.IsIdentifier(member) {
		return langutil.DocLink{}, false
	}
	l := langutil.DocLink{Head: head, HeadAt: at, Params: -1}
	if hasMember {
		l.Member, l.MemberAt = member, at+len(head)+1
	}
	return l, true
}
