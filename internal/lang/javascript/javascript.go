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
var Language = ecma.NewLanguage("javascript", []string{".js", ".jsx", ".mjs", ".cjs"}, func() unsafe.Pointer { return tsjs.Language() },
	query, false, []string{"statement_block", "class_body"}, refine)

// refine is the ECMAScript refinement plus the properties that methods
// assign through this, which JavaScript classes need not declare.
func refine(v *lang.View, f *lang.Facts) {
	ecma.Refine(v, f)
	ecma.ThisProperties(v, f)
}

func init() {
	Language.Aliases = []string{"js"}
	lang.Register(Language)
}
