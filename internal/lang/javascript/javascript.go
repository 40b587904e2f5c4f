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
var Language = ecma.NewLanguage("javascript", "JavaScript", []string{".js", ".jsx", ".mjs", ".cjs"}, func() unsafe.Pointer { return tsjs.Language() },
	query, false, []string{"statement_block", "class_body"}, refine)

// refine is the ECMAScript refinement plus what JavaScript classes need
// not declare: constructor functions' prototype methods, and the
// properties that methods assign through this; the locals that hold
// this (ThisAliases); the locals a literal types; and the names that
// instanceof narrows.
func refine(v *lang.View, f *lang.Facts) {
	ecma.Refine(v, f)
	fns := ecma.PrototypeMethods(v, f)
	ecma.ThisProperties(v, f, fns)
	ecma.ThisAliases(v, f, fns)
	ecma.LiteralTypes(v, f)
	ecma.Narrowing(v, f)
	untypeReassigned(f)
}

// untypeReassigned forgets the type of a binding that code assigns again
// (let x = new A(); x = other): nothing says the new value is an A.
func untypeReassigned(f *lang.Facts) {
	for _, r := range f.Refs {
		switch {
		case r.Role != lang.RoleWrite || r.Shape != lang.QualNone:
		case r.BindLocal >= 0:
			f.Locals[r.BindLocal].Type = ""
		case r.BindDef >= 0 && f.Defs[r.BindDef].Kind == lang.KindVariable:
			f.Defs[r.BindDef].Type = ""
		}
	}
}

func init() {
	Language.Aliases = []string{"js"}
	lang.Register(Language)
}
