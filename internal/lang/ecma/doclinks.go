package ecma

import (
	"strings"

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
// link); anything else, a URL or a member of no named type, stays prose
// for the documentation sweep.
func docLinks(v *lang.View, f *lang.Facts) {
	var top, imports map[string]int32
	var names *lang.NameTable
	var add []lang.Ref
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "comment" || !strings.HasPrefix(v.Text(n), "/**") {
			continue
		}
		text, at := v.Text(n), v.Start(n)
		for _, l := range jsDoc.DocLinks(text) {
			if top == nil {
				top, imports, names = f.TopDefs(), f.ImportByName(), lang.NewNameTable(f)
			}
			add = append(add, linkRefs(f, names, top, imports, l, text, at)...)
		}
	}
	langutil.AddRefs(f, add)
}

// linkRefs are the references of a link: X bound to the definition or
// import of that name, and the member m of X.m on X. None when X names
// neither.
func linkRefs(f *lang.Facts, names *lang.NameTable, top, imports map[string]int32, l langutil.DocLink, text string, start lang.Pos) []lang.Ref {
	at := langutil.OffsetPos(text, start, l.HeadAt)
	r := lang.Ref{Name: names.ID(l.Head), Pos: at, Role: lang.RoleDoc, Enclosing: langutil.Enclosing(f, at), Scope: langutil.InnermostScope(f, at),
		BindLocal: -1, BindDef: -1, BindImp: -1}
	if d, ok := top[l.Head]; ok {
		r.BindDef = d
	} else if im, ok := imports[l.Head]; ok {
		r.BindImp = im
	} else {
		return nil
	}
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
