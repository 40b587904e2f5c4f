package java

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
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

// primitive are Java's primitive types, which name no class.
var primitive = map[string]bool{"boolean": true, "byte": true, "char": true, "short": true, "int": true, "long": true, "float": true, "double": true, "void": true}

// javadocLinks adds the names that Javadoc comments link to as references
// of role doc, the way javadoc and the IDEs resolve them: X as a type name
// where it stands (an import, the file's own types, its package), X#m as
// the member m of X, #m as the member m of the class the comment is in or
// documents (classlang.DocLinkRefs). A rename then changes the link,
// which javadoc's doclint would otherwise report as broken.
func javadocLinks(v *lang.View, f *lang.Facts) {
	names := langutil.NewDocNames(f)
	var add []lang.Ref
	javadoc.Each(v, "block_comment", func(l langutil.DocLink, text string, n int) {
		add = append(add, classlang.DocLinkRefs(f, names, l, text, v.Start(n), v.End(n), primitive)...)
	})
	langutil.AddRefs(f, add)
}
