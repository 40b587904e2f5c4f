package ecma

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Values of the language's own types. A member of a string, a number, an
// array, a Map or a Date is the runtime's, whatever the repository declares
// under the same name: tags.push(x) with tags: string[], label.trim() with
// const label = 'q', this.byKey.set(k, v) with byKey = new Map(). The linker
// links such a member as outside the repository, so the call graph lists it
// as external and a method of the repository named push is not offered as a
// candidate. Only concrete types count: a value typed by an interface
// (Iterator, PromiseLike) may be a class of the repository.

// builtinTypes are the concrete types of ECMAScript and its usual hosts
// whose values' members are the runtime's.
var builtinTypes = link.Set(`string number boolean bigint symbol String Number Boolean BigInt Symbol
	Array ReadonlyArray Map ReadonlyMap Set ReadonlySet WeakMap WeakSet WeakRef Promise Date RegExp
	Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError
	ArrayBuffer SharedArrayBuffer DataView Int8Array Int16Array Int32Array Uint8Array Uint8ClampedArray
	Uint16Array Uint32Array Float32Array Float64Array BigInt64Array BigUint64Array
	URL URLSearchParams Headers Request Response FormData Blob AbortController AbortSignal
	TextDecoder TextEncoder Buffer XMLHttpRequest`)

// arrayType is what builtinType answers for an array or a tuple.
const arrayType = "[]"

// builtinType is the built-in type a TypeScript type written t is, or ""
// for any other: "[]" for an array or a tuple (T[], readonly T[],
// [A, B], and ValueTypes' []T), "string" for a string literal type, the
// type's name for one of builtinTypes (with or without type arguments), and
// for a union, the first of its members when all of them (null and
// undefined aside) are built-in.
func builtinType(t string) string {
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "readonly "))
	if t == "" {
		return ""
	}
	if i := topIndex(t, 0, '|'); i >= 0 {
		first := ""
		for _, part := range []string{t[:i], t[i+1:]} {
			switch p := strings.TrimSpace(part); p {
			case "null", "undefined":
			default:
				b := builtinType(p)
				if b == "" {
					return ""
				}
				if first == "" {
					first = b
				}
			}
		}
		return first
	}
	switch {
	case strings.HasPrefix(t, arrayOf), strings.HasSuffix(t, "[]"),
		t[0] == '[' && matching(t, 0) == len(t)-1:
		return arrayType
	case t[0] == '\'' || t[0] == '"' || t[0] == '`':
		return "string"
	case t[0] == '(' && matching(t, 0) == len(t)-1:
		return builtinType(t[1 : len(t)-1])
	}
	if name := lang.TypeName(t); builtinTypes[name] {
		return name
	}
	return ""
}

// builtinValue reports whether the qualifier of member reference r is a
// value of a built-in type that the file declaring the type does not
// shadow with a type or an import of that name: a local (declared, or
// given its type by a value or a literal), this.x, or the result of a call.
func (l *batch) builtinValue(ctx context.Context, lf *link.File, decl *link.DeclTypes, r lang.Ref) bool {
	var t tsType
	switch {
	case r.Via > 0 && (r.Shape == lang.QualCall || r.Shape == lang.QualPath):
		var ok bool
		if t, ok = l.refType(ctx, lf, r.Via-1, 0); !ok {
			return false
		}
	case r.Shape == lang.QualIdent && r.QualBound:
		ls, found := decl.Local(r.Qualifier, r.Scope, r.Pos)
		if !found {
			return false
		}
		for _, li := range ls[1:] {
			if lf.Facts.Locals[li].Type != lf.Facts.Locals[ls[0]].Type {
				return false
			}
		}
		var ok bool
		if t, ok = l.localType(ctx, lf, ls[0], 0); !ok {
			return false
		}
	default:
		return false
	}
	name := builtinType(t.text)
	return name != "" && (name == arrayType || !declares(t.facts, name))
}

// declares reports whether a file defines or imports a top-level name.
func declares(facts *lang.Facts, name string) bool {
	for _, d := range facts.Defs {
		if d.Parent < 0 && d.Path == name {
			return true
		}
	}
	for _, im := range facts.Imports {
		if im.LocalName() == name {
			return true
		}
	}
	return false
}

// LiteralTypes gives a local declared with a literal the literal's type
// (const seen = [], let label = 'q'), and a rest parameter or element an
// array's (...args, [head, ...tail]). JavaScript forgets it again where code assigns the local
// another value.
func LiteralTypes(v *lang.View, f *lang.Facts) {
	localAt := make(map[lang.Pos]int, len(f.Locals))
	for i, lo := range f.Locals {
		localAt[lo.Pos] = i
	}
	give := func(name int, typ string) {
		if li, ok := localAt[v.Start(name)]; ok && f.Locals[li].Type == "" {
			f.Locals[li].Type = typ
		}
	}
	for n := 0; n < v.Len(); n++ {
		switch v.Kind(n) {
		case "variable_declarator":
			name, val := langutil.Child(v, n, "name"), langutil.Child(v, n, "value")
			if v.Kind(name) == "identifier" && val >= 0 && langutil.Child(v, n, "type") < 0 {
				give(name, literalType(v.Kind(val)))
			}
		case "rest_pattern":
			// f(...args), [head, ...tail]: an array whatever the elements
			// ({ a, ...others } is an object)
			if c := langutil.Children(v, n); len(c) == 1 && v.Kind(c[0]) == "identifier" && v.Kind(v.Parent(n)) != "object_pattern" {
				give(c[0], arrayType)
			}
		}
	}
}

// literalType is the built-in type of a literal of kind k (const seen =
// [], const label = 'q'), or "" for any other expression.
func literalType(k string) string {
	switch k {
	case "array":
		return arrayType
	case "string", "template_string":
		return "string"
	case "number":
		return "number"
	case "true", "false":
		return "boolean"
	case "regex":
		return "RegExp"
	}
	return ""
}
