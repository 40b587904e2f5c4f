// Package cpp registers C++ (.cc, .cpp, .cxx, .c++, .hpp, .hh, .hxx, .h++,
// .ipp, .tpp; .h goes to C) with the syntactic layer. The query and hooks are
// shared with C in package cfamily.
package cpp

import (
	"unsafe"

	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/cfamily"
)

// Language is C++.
var Language = &lang.Language{
	Name:           "cpp",
	Title:          "C++",
	Extensions:     []string{".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp"},
	Aliases:        []string{"c++", "cxx", "cc"},
	VisibilityRule: lang.RuleModifiers,
	Grammar:        func() unsafe.Pointer { return tscpp.Language() },
	Query:          cfamily.Query(true),
	RefKinds:       []string{"identifier", "type_identifier", "field_identifier", "namespace_identifier"},
	BodyKinds:      []string{"compound_statement", "field_declaration_list", "enumerator_list", "declaration_list"},
	CommentKinds:   []string{"comment"},
	DocStyle:       lang.DocComments,
	SelfNames:      []string{"this"},
	NameSeparators: []string{"::"},
	BlockScoped:    true,
	Headers:        []string{".h", ".hpp", ".hh", ".hxx", ".h++"},
	Overloads:      true,
	Visibility:     cfamily.Visibility,
	Imports:        cfamily.Imports,
	Refine:         cfamily.RefineCPP,
	Linker:         cfamily.Linker,
	Stdlib:         cfamily.Stdlib,
	TestFile:       cfamily.TestFile,
}

func init() { lang.Register(Language) }
