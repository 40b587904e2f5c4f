// Package c registers C (.c and .h) with the syntactic layer. A .h header is
// taken for C unless its content shows C++ (classes, namespaces, templates,
// access specifiers, ::), then it goes to C++. The query and hooks are shared
// with C++ in package cfamily.
package c

import (
	"regexp"
	"unsafe"

	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/cfamily"
)

// Language is C.
var Language = &lang.Language{
	Name:           "c",
	Extensions:     []string{".c", ".h"},
	VisibilityRule: lang.RuleModifiers,
	Grammar:        func() unsafe.Pointer { return tsc.Language() },
	Query:          cfamily.Query(false),
	RefKinds:       []string{"identifier", "type_identifier", "field_identifier"},
	BodyKinds:      []string{"compound_statement", "field_declaration_list", "enumerator_list"},
	CommentKinds:   []string{"comment"},
	DocStyle:       lang.DocComments,
	BlockScoped:    true,
	Headers:        []string{".h"},
	Visibility:     cfamily.Visibility,
	Imports:        cfamily.Imports,
	Refine:         cfamily.RefineC,
	Linker:         cfamily.Linker,
	Stdlib:         cfamily.Stdlib,
	TestFile:       cfamily.TestFile,
	Redirect:       redirectHeader,
}

// cppMarkers are constructs that C does not have.
var cppMarkers = regexp.MustCompile(`(?m)^\s*(class\s+\w+\s*[:{]|namespace\s+[\w:]*\s*\{|template\s*<|(public|private|protected)\s*:)|\w::\w`)

// redirectHeader sends C++ headers named .h to C++.
func redirectHeader(src []byte) string {
	if cppMarkers.Match(src) {
		return "cpp"
	}
	return ""
}

func init() { lang.Register(Language) }
