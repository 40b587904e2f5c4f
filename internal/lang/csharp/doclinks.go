package csharp

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// primitive are C#'s predefined types, which name no class of the
// repository.
var primitive = map[string]bool{"bool": true, "byte": true, "sbyte": true, "char": true, "short": true, "ushort": true, "int": true,
	"uint": true, "long": true, "ulong": true, "float": true, "double": true, "decimal": true, "string": true, "object": true, "void": true}

// crefLinks adds the names that XML documentation comments link to with
// cref (<see cref="Order"/>, <see cref="Order.Add(Item)"/>,
// <exception cref="OrderError"/>) as references of role doc, as the
// compiler resolves them: a rename then changes the cref, which the
// compiler would otherwise report (CS1574) when it writes the XML
// documentation. A cref of one name, or a name and a member, with a
// parameter list or not and an optional kind prefix (T:, M:) counts; a
// longer qualified name or a generic one ({T}) stays prose.
func crefLinks(v *lang.View, f *lang.Facts) {
	names := langutil.NewDocNames(f)
	var add []lang.Ref
	langutil.DocComments(v, "comment", "///", func(text string, n int) {
		for _, l := range crefs(text) {
			add = append(add, classlang.DocLinkRefs(f, names, l, text, v.Start(n), v.End(n), primitive)...)
		}
	})
	langutil.AddRefs(f, add)
}

// crefs reads the cref attributes of a comment's text.
func crefs(text string) []langutil.DocLink {
	var out []langutil.DocLink
	for i := 0; ; {
		j := strings.Index(text[i:], `cref="`)
		if j < 0 {
			return out
		}
		at := i + j + len(`cref="`)
		end := strings.IndexByte(text[at:], '"')
		if end < 0 {
			return out
		}
		i = at + end
		value := text[at:i]
		if len(value) > 2 && value[1] == ':' && value[0] >= 'A' && value[0] <= 'Z' {
			value, at = value[2:], at+2 // T:Order, M:Order.Add
		}
		if l, ok := crefLink(value, at, text); ok {
			out = append(out, l)
		}
	}
}

// crefLink reads one cref value that starts at offset at of text.
func crefLink(value string, at int, text string) (langutil.DocLink, bool) {
	name := value
	if p := strings.IndexByte(value, '('); p >= 0 {
		name = value[:p]
	}
	head, member, hasMember := strings.Cut(name, ".")
	if !lang.IsIdentifier(head) || hasMember && !lang.IsIdentifier(member) {
		return langutil.DocLink{}, false // a qualified, generic or operator cref
	}
	l := langutil.DocLink{Head: head, HeadAt: at, Params: -1}
	switch {
	case hasMember:
		l.Member, l.MemberAt = member, at+len(head)+1
	case len(name) < len(value):
		l.Head, l.Member, l.MemberAt = "", head, at // Add(Item, int): a method of the type at hand
	default:
		return l, true
	}
	l.Params, l.Types = langutil.ParamList(text, at+len(name))
	return l, true
}
