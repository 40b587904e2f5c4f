package classlang

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// DocLinkRefs are the references of role doc of a documentation link in a
// comment of text starting at start and ending at end: its type name
// (bound to the file's own type or import, else left to the names of the
// package or namespace), the types its member's parameter list names
// (primitive ones left out), and the member itself, on the type or, for a
// link without one (Javadoc's #m), on the class the comment is in or
// documents. A link that lists parameters carries their number (Args), so
// that it names the overload of that arity.
func DocLinkRefs(f *lang.Facts, names *langutil.DocNames, l langutil.DocLink, text string, start, end lang.Pos, primitive map[string]bool) []lang.Ref {
	var out []lang.Ref
	at := langutil.OffsetPos(text, start, l.HeadAt)
	enclosing := documented(f, at, end)
	r := docRef(0, at, enclosing, -1, -1)
	if l.Head != "" {
		def, imp := names.Bind(l.Head)
		r = docRef(names.ID(l.Head), at, enclosing, def, imp)
		out = append(out, r)
	}
	if l.Member == "" {
		return out
	}
	for _, t := range l.Types {
		if !primitive[t.Name] {
			def, imp := names.Bind(t.Name)
			out = append(out, docRef(names.ID(t.Name), langutil.OffsetPos(text, start, t.At), enclosing, def, imp))
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
	return append(out, m)
}

// docRef is a doc reference to a name bound to the file's definition def
// or its import imp (-1 for none).
func docRef(name uint32, at lang.Pos, enclosing, def, imp int32) lang.Ref {
	return lang.Ref{Name: name, Pos: at, Role: lang.RoleDoc, Enclosing: enclosing, Scope: -1, BindLocal: -1, BindDef: def, BindImp: imp}
}

// documented is the definition whose members a link in a comment at pos
// (ending at end) names without a type: the type the comment documents
// when one starts right after it, else the definition the comment is in.
func documented(f *lang.Facts, pos, end lang.Pos) int32 {
	if next := langutil.DefAfter(f, end); next >= 0 {
		switch f.Defs[next].Kind {
		case lang.KindClass, lang.KindInterface, lang.KindEnum, lang.KindStruct:
			return next
		}
	}
	return langutil.Enclosing(f, pos)
}
