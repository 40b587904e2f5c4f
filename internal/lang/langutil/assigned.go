package langutil

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// A member that no declaration names but a method assigns (Python's
// self.x = v, JavaScript's this.x = v, Ruby's @x = v) is defined by that
// assignment: its span is its name only, so that it holds none of the
// method's code (Facts.DefAt steps over it), and its signature is the
// assignment.

// AssignedDef is the definition of member name of definition class that
// assignment node stmt declares, nameNode being the assigned name.
func AssignedDef(v *lang.View, f *lang.Facts, kind lang.DefKind, class int32, name string, nameNode, stmt int, vis lang.Visibility) lang.Def {
	start, end := v.Bytes(stmt)
	ns, ne := v.Bytes(nameNode)
	span := v.Span(nameNode)
	return lang.Def{Kind: kind, Name: name, Path: f.ChildPath(class, name), Parent: class, Span: span, NameSpan: span,
		Visibility: vis,
		Signature:  lang.Truncate(strings.Join(strings.Fields(string(v.Src()[start:end])), " "), lang.MaxSignature),
		BodyHash:   lang.BodyHash(v.Src(), start, end, ns, ne)}
}

// DeclareAssigned adds the definitions AssignedDef made; the references at
// their names, which are the definitions', go.
func DeclareAssigned(f *lang.Facts, defs []lang.Def) {
	at := make(map[lang.Pos]bool, len(defs))
	for _, d := range defs {
		at[d.NameSpan.Start] = true
	}
	DropRefsAt(f, at)
	InsertDefs(f, defs)
}

// HasMember reports whether definition class has a member named name.
func HasMember(f *lang.Facts, class int32, name string) bool {
	for _, d := range f.Defs {
		if d.Parent == class && d.Name == name {
			return true
		}
	}
	return false
}
