// Package typescript registers TypeScript (.ts, .mts, .cts, and so .d.ts) and
// TSX (.tsx) with the syntactic layer. Both grammars share one query: the
// patterns common to ECMAScript dialects (package ecma) and those of
// tags.scm; TSX adds the JSX patterns. The hooks are shared with JavaScript
// in package ecma.
package typescript

import (
	_ "embed"

	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/ecma"
)

//go:embed tags.scm
var ownQuery string

// BodyKinds start a definition's body; signatures stop before them.
var bodyKinds = []string{"statement_block", "class_body", "interface_body", "enum_body"}

// TypeScript is the .ts language.
var TypeScript = ecma.NewLanguage("typescript", "TypeScript", []string{".ts", ".mts", ".cts"}, tsts.LanguageTypescript, ecma.Query(ownQuery, false), true, bodyKinds, refine)

// TSX is TypeScript with JSX.
var TSX = ecma.NewLanguage("tsx", "TSX", []string{".tsx"}, tsts.LanguageTSX, ecma.Query(ownQuery, true), true, bodyKinds, refine)

// refine is the ECMAScript refinement plus the locals that hold this, the
// parameters and object literal keys typed by the call they are passed to,
// the values typed by declarations elsewhere or by a literal, and the names that instanceof
// and type guards narrow.
func refine(v *lang.View, f *lang.Facts) {
	ecma.Refine(v, f)
	ecma.ThisAliases(v, f, nil)
	ecma.ContextParams(v, f)
	ecma.ArgumentKeys(v, f)
	ecma.ValueTypes(v, f)
	ecma.LiteralTypes(v, f)
	ecma.Narrowing(v, f)
}

func init() {
	TypeScript.Aliases = []string{"ts"}
	TypeScript.Dialects = []string{TSX.Name} // a filter on TypeScript takes .tsx files too
	lang.Register(TypeScript)
	lang.Register(TSX)
}
