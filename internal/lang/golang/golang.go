// Package golang registers Go with the syntactic layer: its grammar, its query
// (tags.scm) and the rules for visibility and package names.
package golang

import (
	_ "embed"
	"unicode"
	"unicode/utf8"
	"unsafe"

	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
)

//go:embed tags.scm
var query string

// Language is Go.
var Language = &lang.Language{
	Name:         "go",
	Extensions:   []string{".go"},
	Grammar:      func() unsafe.Pointer { return tsgo.Language() },
	Query:        query,
	RefKinds:     []string{"identifier", "type_identifier", "field_identifier", "package_identifier"},
	BodyKinds:    []string{"block", "field_declaration_list", "method_elem", "type_elem"},
	CommentKinds: []string{"comment"},
	DocStyle:     lang.DocComments,
	BlockScoped:  true,
	Visibility: func(v *lang.View, d lang.DefNode) lang.Visibility {
		return Visibility(d.Def.Name)
	},
	Package: func(v *lang.View) string {
		for _, c := range v.Children(v.Root()) {
			if v.Kind(c) == "package_clause" {
				if id := v.ChildOfKind(c, "package_identifier"); id >= 0 {
					return v.Text(id)
				}
			}
		}
		return ""
	},
	Surfaces: Surfaces,
}

// Visibility is Go's rule: an upper-case first letter exports a name.
func Visibility(name string) lang.Visibility {
	r, _ := utf8.DecodeRuneInString(name)
	if unicode.IsUpper(r) {
		return lang.VisPublic
	}
	return lang.VisPrivate
}

func init() { lang.Register(Language) }
