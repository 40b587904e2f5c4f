package ecma

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// jsDoc is how JSDoc links: {@link X}, {@linkcode X.m}, {@linkplain X
// text}, and the type of a block tag, @throws {X} or @param {X} name.
var jsDoc = langutil.DocSyntax{
	Inline: []string{"@link", "@linkcode", "@linkplain"},
	TypeTags: []string{"@throws", "@throw", "@exception", "@param", "@arg", "@argument", "@returns", "@return", "@type",
		"@typedef", "@property", "@prop", "@template", "@yields", "@yield", "@augments", "@extends", "@implements", "@see"},
	MemberSep: '.',
}

// docLinks adds the names that JSDoc comments link to as references, the
// way the TypeScript language service resolves them (jsDoc), when the name
// is one name or a dotted one. A name counts where it names a top-level
// definition or an import of the file (a rename of X then changes the
// link), or, failing those, a member of the class or interface the comment
// is in ({@link finalize} beside finalize); anything else, a URL or a
// member of no named type, stays prose for the documentation sweep.
func docLinks(v *lang.View, f *lang.Facts) {
	names := langutil.NewDocNames(f)
	var members langutil.Members
	ownMember := func(at lang.Pos, name string) int32 {
		if members == nil {
			members = langutil.NewMembers(f, nil)
		}
		for d := langutil.Enclosing(f, at); d >= 0; d = f.Defs[d].Parent {
			if f.Defs[d].Kind.IsTypeLike() {
				return members.Of(d, name)
			}
		}
		return -1
	}
	var add []lang.Ref
	jsDoc.Each(v, "comment", func(l langutil.DocLink, text string, n int) {
		add = append(add, linkRefs(f, names, ownMember, l, text, v.Start(n))...)
	})
	langutil.AddRefs(f, add)
}

// linkRefs are the references of a link: X bound to the definition or
// import of that name (else, for a bare X, to the member ownMember finds),
// and the member m of X.m on X. None when X names none of them.
func linkRefs(f *lang.Facts, names *langutil.DocNames, ownMember func(at lang.Pos, name string) int32, l langutil.DocLink, text string, start lang.Pos) []lang.Ref {
	at := langutil.OffsetPos(text, start, l.HeadAt)
	def, imp := names.Bind(l.Head)
	if def < 0 && imp < 0 && l.Member == "" {
		def = ownMember(at, l.Head)
	}
	if def < 0 && imp < 0 {
		return nil
	}
	r := lang.Ref{Name: names.ID(l.Head), Pos: at, Role: lang.RoleDoc, Enclosing: langutil.Enclosing(f, at), Scope: langutil.InnermostScope(f, at),
		BindLocal: -1, BindDef: def, BindImp: imp}
	out := []lang.Ref{r}
	if l.Member != "" {
		m := r
		m.Name, m.Pos = names.ID(l.Member), langutil.OffsetPos(text, start, l.MemberAt)
		m.Shape, m.Qualifier = lang.QualIdent, names.ID(l.Head)
		m.BindDef, m.QualBound = -1, r.BindDef >= 0
		out = append(out, m)
	}
	return out
}
