// Package javascript registers JavaScript (.js, .jsx, .mjs, .cjs; the grammar
// parses JSX) with the syntactic layer. The hooks are shared with TypeScript
// in package ecma.
package javascript

import (
	_ "embed"
	"unsafe"

	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/ecma"
)

// ownQuery holds JavaScript's own patterns; the rest come from package ecma.
//
//go:embed tags.scm
var ownQuery string

var query = ecma.Query(ownQuery, true)

// Language is JavaScript.
var Language = &lang.Language{
	Name:         "javascript",
	Extensions:   []string{".js", ".jsx", ".mjs", ".cjs"},
	Grammar:      func() unsafe.Pointer { return tsjs.Language() },
	Query:        query,
	RefKinds:     ecma.RefKinds(false),
	BodyKinds:    []string{"statement_block", "class_body"},
	CommentKinds: []string{"comment"},
	DocStyle:     lang.DocComments,
	SelfNames:    ecma.SelfNames,
	BlockScoped:  true,
	Visibility:   ecma.Visibility,
	Imports:      ecma.Imports,
	Refine:       ecma.Refine,
	DynamicCalls: ecma.DynamicCalls,
	Surfaces:     ecma.Surfaces,
	Linker:       ecma.Linker,
	Stdlib:       ecma.Stdlib,
	Builtins:     ecma.Globals,
}

func init() { lang.Register(Language) }
