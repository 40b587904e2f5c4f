package java

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// javadoc is how Javadoc links: {@link X}, {@link X#m(int)}, {@linkplain
// #m label}, and the name after @see, @throws and @exception.
var javadoc = langutil.DocSyntax{
	Inline:    []string{"@link", "@linkplain", "@value"},
	NameTags:  []string{"@see", "@throws", "@exception"},
	MemberSep: '#',
	OwnMember: true,
}

// javadocLinks adds the names that Javadoc comments link to as references
// of role doc, the way javadoc and the IDEs resolve them: X as a type name
// where it stands (an import, the file's own types, its package), X#m as
// the member m of X, #m as the member m of the class the comment is in or
// documents. A rename then changes the link, which javadoc's doclint would
// otherwise report as broken.
func javadocLinks(v *lang.View, f *lang.Facts) {
	names := langutil.NewDocNames(f)
	var add []lang.Ref
	javadoc.Each(v, "block_comment", func(l langutil.DocLink, text string, n int) {
		start := v.Start(n)
		at := langutil.OffsetPos(text, start, l.HeadAt)
		enclosing := documented(f, at, v.End(n))
		r := typeRef(0, at, enclosing, -1, -1)
		if l.Head != "" {
			def, imp := names.Bind(l.Head)
			r = typeRef(names.ID(l.Head), at, enclosing, def, imp)
			add = append(add, r)
		}
		if l.Member == "" {
			return
		}
		for _, t := range l.Types {
			if !primitive[t.Name] {
				def, imp := names.Bind(t.Name)
				add = append(add, typeRef(names.ID(t.Name), langutil.OffsetPos(text, start, t.At), enclosing, def, imp))
			}
		}
		m := r
		m.Name, m.Pos, m.BindDef = names.ID(l.Member), langutil.OffsetPos(text, start, l.MemberAt), -1
		if l.Params >= 0 {
			m.Args = uint16(l.Params) + 1 // #m(int, String) names the overload of two parameters
		}
		if l.Head == "" {
			m.Shape, m.Qualifier = lang.QualSelf, names.ID("this")
		} else {
			m.Shape, m.Qualifier, m.QualBound = lang.QualIdent, names.ID(l.Head), r.BindDef >= 0
		}
		add = append(add, m)
	})
	langutil.AddRefs(f, add)
}

// primitive are Java's primitive types, which name no class.
var primitive = map[string]bool{"boolean": true, "byte": true, "char": true, "short": true, "int": true, "long": true, "float": true, "double": true, "void": true}

// typeRef is a doc reference to a type name: bound to the file's own
// definition def or its import imp (-1 for none), else left to the
// package's names.
func typeRef(name uint32, at lang.Pos, enclosing, def, imp int32) lang.Ref {
	return lang.Ref{Name: name, Pos: at, Role: lang.RoleDoc, Enclosing: enclosing, Scope: -1, BindLocal: -1, BindDef: def, BindImp: imp}
}

// documented is the definition whose members a link in a comment at pos
// (ending at end) names without a class: the type the comment documents
// when one starts right after it, else the definition the comment is in.
func documented(f *lang.Facts, pos, end lang.Pos) int32 {
	next := int32(-1)
	for i, d := range f.Defs {
		if !d.Span.Start.Before(end) && (next < 0 || d.Span.Start.Before(f.Defs[next].Span.Start)) {
			next = int32(i)
		}
	}
	if next >= 0 {
		switch f.Defs[next].Kind {
		case lang.KindClass, lang.KindInterface, lang.KindEnum:
			return next
		}
	}
	return langutil.Enclosing(f, pos)
}
