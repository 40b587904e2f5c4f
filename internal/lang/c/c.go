// Package c registers C (.c and .h: a header is taken for C; C++ headers
// named .h parse with C's grammar, with parse errors where C++ syntax
// appears) with the syntactic layer. The query and hooks are shared with C++
// in package cfamily.
package c

import (
	"unsafe"

	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/cfamily"
)

// Language is C.
var Language = &lang.Language{
	Name:         "c",
	Extensions:   []string{".c", ".h"},
	Grammar:      func() unsafe.Pointer { return tsc.Language() },
	Query:        cfamily.Query(false),
	RefKinds:     []string{"identifier", "type_identifier", "field_identifier"},
	BodyKinds:    []string{"compound_statement", "field_declaration_list", "enumerator_list"},
	CommentKinds: []string{"comment"},
	DocStyle:     lang.DocComments,
	BlockScoped:  true,
	Visibility:   cfamily.Visibility,
	Imports:      cfamily.Imports,
	Refine:       cfamily.RefineC,
}

func init() { lang.Register(Language) }
