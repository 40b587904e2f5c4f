package rust

import (
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// A binding initialised by a call without a declared type (let p =
// Parser::new(..)) has the type the called function declares it returns
// (Def.Type), when that is Self or a type of the callee's file: the linker
// follows Local.Via to the callee and reads it there.

// returnType is the type function n declares it returns, when it is a type
// name or path ("Self", "Span", "ast::Span"); "" for any other type.
func returnType(v *lang.View, n int) string {
	return namedType(v, langutil.Child(v, n, "return_type"))
}

// namedType is the type that type node n names behind references, type
// arguments and smart pointers (&'a mut Foo<T> is Foo, &ast::Span is
// ast::Span, Box<Node> is Node); "" for any other type (tuples, arrays,
// functions, impl Trait).
func namedType(v *lang.View, n int) string {
	for {
		switch v.Kind(n) {
		case "reference_type":
			n = langutil.Child(v, n, "type")
		case "generic_type":
			t := langutil.Child(v, n, "type")
			if args := langutil.Child(v, n, "type_arguments"); args >= 0 && pointers[v.Text(t)] {
				if cs := v.Children(args); len(cs) > 0 {
					t = cs[0] // members read through a Box are its content's
				}
			}
			n = t
		case "type_identifier":
			return v.Text(n)
		case "scoped_type_identifier":
			return typePathOf(v, n)
		default:
			return ""
		}
	}
}

// typePathOf is a type path as written, "ast::Span"; "" when a segment is
// no name.
func typePathOf(v *lang.View, n int) string {
	if s, e := v.Bytes(n); e-s > maxQualPath {
		return ""
	}
	if q := strings.Join(segments(v, n), "::"); !strings.Contains(q, "?") {
		return q
	}
	return ""
}

// readChain reads field_expression n: where its field is and where the
// name of the function whose call is its value is (f().m, T::f().m,
// x.f().m, f()?.m); false when its value is no call of a name.
func readChain(v *lang.View, n int) (m, callee lang.Pos, ok bool) {
	val, field := tried(v, langutil.Child(v, n, "value")), langutil.Child(v, n, "field")
	if v.Kind(val) != "call_expression" || field < 0 {
		return m, callee, false
	}
	fn := calleeName(v, val)
	if fn < 0 {
		return m, callee, false
	}
	return v.Start(field), v.Start(fn), true
}

// calleeName is the name node of the function call_expression n calls
// (f, new of T::new, m of x.m, with or without turbofish), or -1.
func calleeName(v *lang.View, n int) int {
	fn := langutil.Child(v, n, "function")
	if v.Kind(fn) == "generic_function" {
		fn = langutil.Child(v, fn, "function")
	}
	switch v.Kind(fn) {
	case "scoped_identifier":
		return langutil.Child(v, fn, "name")
	case "field_expression":
		return langutil.Child(v, fn, "field")
	case "identifier":
		return fn
	}
	return -1
}

// chainRefs sets Ref.Via of the members read from a call's result to the
// reference to the called function.
func chainRefs(f *lang.Facts, chains map[lang.Pos]lang.Pos, calls map[lang.Pos]int) {
	for i := range f.Refs {
		r := &f.Refs[i]
		// f()?.m: the qualifier is no call, but reads one's result
		if callee, ok := chains[r.Pos]; ok && (r.Shape == lang.QualCall || r.Shape == lang.QualExpr) {
			if ci, ok := calls[callee]; ok {
				r.Shape, r.Via = lang.QualCall, int32(ci)+1
			}
		}
	}
}

// callLet is let x = f(..), let x = T::f(..) or let x = y.f(..): where x
// and the name of the callee are.
type callLet struct{ local, callee lang.Pos }

// readCallLet reads let_declaration n; false unless it binds one name,
// declares no type and is initialised by a call of a name, path or method
// (or its result through ?: let x = f()?).
func readCallLet(v *lang.View, n int) (callLet, bool) {
	pat, val := langutil.Child(v, n, "pattern"), langutil.Child(v, n, "value")
	if v.Kind(pat) == "mut_pattern" {
		pat = v.ChildOfKind(pat, "identifier")
	}
	val = tried(v, val)
	if v.Kind(pat) != "identifier" || langutil.Child(v, n, "type") >= 0 || v.Kind(val) != "call_expression" {
		return callLet{}, false
	}
	fn := calleeName(v, val)
	if fn < 0 {
		return callLet{}, false
	}
	return callLet{local: v.Start(pat), callee: v.Start(fn)}, true
}

// declaredType reads a parameter or let n that declares its binding's type:
// the binding's position, the type it names (e: &'e ast::Error, let h:
// hir::Hir<T>), which the query's captures, names alone, leave out for a
// path, and the type's node.
func declaredType(v *lang.View, n int) (pos lang.Pos, name string, node int) {
	pat := langutil.Child(v, n, "pattern")
	if v.Kind(pat) == "mut_pattern" {
		pat = v.ChildOfKind(pat, "identifier")
	}
	node = langutil.Child(v, n, "type")
	if pat < 0 || v.Kind(pat) != "identifier" || node < 0 {
		return lang.Pos{}, "", -1
	}
	return v.Start(pat), namedType(v, node), node
}

// callLocals sets Local.Via of the untyped bindings that lets initialise
// to the reference to their callee (calls: call references by position).
func callLocals(f *lang.Facts, lets []callLet, calls map[lang.Pos]int) {
	if len(lets) == 0 {
		return
	}
	locals := map[lang.Pos]int{}
	for i, lo := range f.Locals {
		if lo.Type == "" {
			locals[lo.Pos] = i
		}
	}
	for _, l := range lets {
		li, ok1 := locals[l.local]
		ri, ok2 := calls[l.callee]
		if ok1 && ok2 {
			f.Locals[li].Via = int32(ri) + 1
		}
	}
}

// callsByPos indexes the call references of f by position.
func callsByPos(f *lang.Facts) map[lang.Pos]int {
	calls := map[lang.Pos]int{}
	for i, r := range f.Refs {
		if r.Role == lang.RoleCall {
			calls[r.Pos] = i
		}
	}
	return calls
}

// A binding of a tuple variant's pattern (Ast::Literal(ref x) => x.span)
// has the type the variant declares at that place (Literal(Literal)):
// Refine writes Local.Type as the variant's path and the place,
// "Ast::Literal(0)", which the linker reads in the variant's file.

// variantBinding is a binding at place index of a tuple struct pattern
// whose type is path.
type variantBinding struct {
	local lang.Pos
	typ   string // "Ast::Literal(0)"
}

// readVariantBindings lists the bindings of tuple_struct_pattern n that
// are a bare name (x, ref x, mut x, ref mut x) at their place.
func readVariantBindings(v *lang.View, n int, out []variantBinding) []variantBinding {
	typ := langutil.Child(v, n, "type")
	if typ < 0 {
		return out
	}
	q := typePathOf(v, typ)
	if q == "" {
		return out
	}
	place := 0
	for _, c := range langutil.Children(v, n) {
		if c == typ {
			continue
		}
		if id := boundName(v, c); id >= 0 {
			out = append(out, variantBinding{local: v.Start(id), typ: q + "(" + strconv.Itoa(place) + ")"})
		}
		place++
	}
	return out
}

// boundName is the identifier that pattern n binds, behind ref and mut
// (ref mut x), or -1 when it binds no single name.
func boundName(v *lang.View, n int) int {
	for k := v.Kind(n); k == "ref_pattern" || k == "mut_pattern"; k = v.Kind(n) {
		inner := langutil.Children(v, n) // [mutable_specifier] pattern
		if len(inner) == 0 {
			return -1
		}
		n = inner[len(inner)-1]
	}
	if v.Kind(n) != "identifier" {
		return -1
	}
	return n
}

// variantLocals types the untyped bindings of tuple variant patterns.
func variantLocals(f *lang.Facts, bs []variantBinding) {
	if len(bs) == 0 {
		return
	}
	at := map[lang.Pos]string{}
	for _, b := range bs {
		at[b.local] = b.typ
	}
	for i := range f.Locals {
		if t, ok := at[f.Locals[i].Pos]; ok && f.Locals[i].Type == "" {
			f.Locals[i].Type = t
		}
	}
}

// patternPlace is where a pattern binds a local: the place of a tuple
// variant's field, or the name of a struct's field.
type patternPlace struct {
	index int
	field string
}

// variantPlace splits the type of a pattern's binding, "Ast::Literal(0)"
// or "Group{concat}", into the path of the variant or struct and the place;
// false for any other type.
func variantPlace(t string) (path string, place patternPlace, ok bool) {
	if open := strings.IndexByte(t, '{'); open > 0 && strings.HasSuffix(t, "}") {
		f := t[open+1 : len(t)-1]
		return t[:open], patternPlace{field: f}, lang.IsIdentifier(f)
	}
	open := strings.IndexByte(t, '(')
	if open <= 0 || !strings.HasSuffix(t, ")") {
		return "", place, false
	}
	n, err := strconv.Atoi(t[open+1 : len(t)-1])
	return t[:open], patternPlace{index: n}, err == nil
}

// tupleFieldType is the type written at place of a tuple variant's
// signature, "Literal(Literal)" or "Pair(u8, ast::Span)", as a name or a
// path ("" when it is no named type).
func tupleFieldType(sig string, place int) string {
	open := strings.IndexByte(sig, '(')
	if open < 0 {
		return ""
	}
	fields, _, ok := lang.Balanced(sig[open:], '(', ')')
	if parts := lang.SplitTop(fields, true); ok && place < len(parts) {
		return rustTypeName(parts[place])
	}
	return ""
}

// rustTypeName is the type a written Rust type names, paths included
// ("&ast::Literal" is "ast::Literal"); "" when it is no named type.
func rustTypeName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '<'); i > 0 && pointers[s[:i]] && strings.HasSuffix(s, ">") {
		s = s[i+1 : len(s)-1]
	}
	return strings.ReplaceAll(lang.TypeName(strings.ReplaceAll(s, "::", ".")), ".", "::")
}

// pointers are the std smart pointers that dereference to their content
// and have no fields or methods of their own that x.name would call (theirs
// are associated functions: Rc::clone(&x)).
var pointers = map[string]bool{"Box": true, "Rc": true, "Arc": true}

// tried is the operand of n when n applies the ? operator (f()?), else n.
func tried(v *lang.View, n int) int {
	if v.Kind(n) == "try_expression" {
		if cs := langutil.Children(v, n); len(cs) == 1 {
			return cs[0]
		}
	}
	return n
}
