// Package golang registers Go with the syntactic layer: its grammar, its query
// (tags.scm) and the rules for visibility and package names.
package golang

import (
	_ "embed"
	"strings"
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
	Name:                 "go",
	Extensions:           []string{".go"},
	Ecosystem:            "go",
	StructuralInterfaces: true,
	Types:                newChecker,
	Aliases:              []string{"golang"},
	VisibilityRule:       lang.RuleExport,
	Grammar:              func() unsafe.Pointer { return tsgo.Language() },
	Query:                query,
	RefKinds:             []string{"identifier", "type_identifier", "field_identifier", "package_identifier"},
	BodyKinds:            []string{"block", "field_declaration_list", "method_elem", "type_elem"},
	CommentKinds:         []string{"comment"},
	DocStyle:             lang.DocComments,
	RenamesDocComment:    true,
	BlockScoped:          true,
	Packages:             lang.PackageDirectory,
	ApartSuffix:          "_test",
	Mains:                &lang.Mains{Func: "main", Package: "main"},
	Dispatch:             lang.DispatchMethodSet,
	TypeCallsConvert:     true,
	MethodsApart:         true,
	FieldType:            fieldType,
	ParamTypes:           paramTypes,
	RelatedRefs:          lang.RelatedDispatch,
	Visibility: func(v *lang.View, d lang.DefNode) lang.Visibility {
		return Visibility(d.Def.Name)
	},
	Constraint: constraint,
	Builds:     builds,
	DynamicCalls: map[string]lang.DynKind{
		"MethodByName": lang.DynGetattr, "FieldByName": lang.DynGetattr, "FieldByNameFunc": lang.DynGetattr,
		"plugin.Open": lang.DynEval,
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
	Refine:       refine,
	Surfaces:     Surfaces,
	TestFile:     testFile,
	TestLayout:   testLayout,
	NotAPI:       notAPI,
	APISignature: apiSignature,
	Linker:       linker,
	Stdlib:       stdlib,

	ImportName: importName,
	Builtins:   builtins,
}

// Visibility is Go's rule: an upper-case first letter exports a name.
func Visibility(name string) lang.Visibility {
	r, _ := utf8.DecodeRuneInString(name)
	if unicode.IsUpper(r) {
		return lang.VisPublic
	}
	return lang.VisPrivate
}

// constraint reads a file's build constraint: the //go:build line (or the
// older // +build lines) among the comments before the package clause.
func constraint(v *lang.View) string {
	var plus []string
	for _, c := range v.Children(v.Root()) {
		if v.Kind(c) != "comment" {
			break
		}
		t := v.Text(c)
		if expr, ok := strings.CutPrefix(t, "//go:build "); ok {
			return strings.TrimSpace(expr)
		}
		if expr, ok := strings.CutPrefix(t, "// +build "); ok {
			plus = append(plus, strings.TrimSpace(expr))
		}
	}
	return strings.Join(plus, " && ")
}

func init() { lang.Register(Language) }
