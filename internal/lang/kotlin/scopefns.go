package kotlin

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// receiverLambdas are the scope functions whose lambda takes the receiver
// as its parameter (x.let { it.m() }, x.also { y -> y.m() }), and
// thisLambdas those whose lambda takes it as this (x.apply { m() },
// x.run { m() }, with(x) { m() }).
var (
	receiverLambdas = map[string]bool{"let": true, "also": true, "takeIf": true, "takeUnless": true}
	thisLambdas     = map[string]bool{"apply": true, "run": true, "with": true}
)

// scopeFunctions gives the parameter of the lambda passed to x.let,
// x.also, x.takeIf or x.takeUnless (it, or the one it names) the type the
// source declares for x: a local's or parameter's, a property's of this
// file (x, this.x), or the declared result of the call x is (f().let).
// The uses of it in that lambda are then bound to it; a lambda inside it
// without parameters has an it of its own, declared without a type so
// that it hides the outer one. The lambda of x.apply, x.run and with(x)
// declares this, of x's type: the linker looks up its bare names there
// first.
func scopeFunctions(v *lang.View, f *lang.Facts, refAt map[lang.Pos]int32) {
	scopeAt := langutil.ScopesBySpan(f)
	typed := map[int32]binding{} // the scope of a lambda whose it is typed -> its type
	var spans []lang.Span
	for n := 0; n < v.Len(); n++ {
		lam, recv, this := receiverLambda(v, n)
		var b binding
		switch {
		case lam >= 0:
			b = typeOf(v, f, refAt, recv)
		default:
			if lam, recv = elementLambda(v, n); lam < 0 {
				continue
			}
			b = binding{typ: elementsOf(v, n, recv)}
		}
		if b == (binding{}) {
			continue
		}
		if this {
			if s, ok := scopeAt[v.Span(lam)]; ok {
				f.Locals = append(f.Locals, lang.Local{Name: langutil.Name(f, "this"), Pos: v.Start(lam), Scope: s, Type: b.typ, Via: b.via})
			}
			continue
		}
		if ps := v.ChildOfKind(lam, "lambda_parameters"); ps >= 0 {
			typeLambdaParameter(v, f, ps, b)
		} else if s, ok := scopeAt[v.Span(lam)]; ok {
			typed[s] = b
			spans = append(spans, v.Span(lam))
		}
	}
	if len(typed) == 0 {
		return
	}
	it := langutil.Name(f, "it")
	lambdas := map[int32]bool{}
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "lambda_literal" {
			continue
		}
		s, ok := scopeAt[v.Span(n)]
		if !ok {
			continue
		}
		lambdas[s] = true
		b, own := typed[s]
		if !own && (v.ChildOfKind(n, "lambda_parameters") >= 0 || !inside(v.Start(n), spans)) {
			continue
		}
		f.Locals = append(f.Locals, lang.Local{Name: it, Pos: v.Start(n), Scope: s, Type: b.typ, Via: b.via})
	}
	for i := range f.Refs {
		if r := &f.Refs[i]; r.Shape == lang.QualIdent && r.Qualifier == it && !r.QualBound {
			r.QualBound = typedIt(f, r.Scope, typed, lambdas)
		}
	}
}

// inside reports whether p lies in one of the spans.
func inside(p lang.Pos, spans []lang.Span) bool {
	for _, sp := range spans {
		if sp.Contains(p) {
			return true
		}
	}
	return false
}

// typedIt reports whether the innermost lambda around scope is one whose
// it is typed.
func typedIt(f *lang.Facts, scope int32, typed map[int32]binding, lambdas map[int32]bool) bool {
	for s := scope; s >= 0; s = f.Scopes[s].Parent {
		if lambdas[s] {
			_, ok := typed[s]
			return ok
		}
	}
	return false
}

// elementLambdas are the collection functions whose lambda takes one
// element of the receiver as its parameter (xs.forEach { it.m() }).
var elementLambdas = map[string]bool{
	"forEach": true, "onEach": true, "filter": true, "filterNot": true, "map": true, "mapNotNull": true, "flatMap": true,
	"any": true, "all": true, "none": true, "first": true, "firstOrNull": true, "last": true, "lastOrNull": true,
	"find": true, "findLast": true, "count": true, "sumOf": true, "sortedBy": true, "sortedByDescending": true,
	"minByOrNull": true, "maxByOrNull": true, "associateBy": true, "groupBy": true, "partition": true,
	"takeWhile": true, "dropWhile": true,
}

// elementLambda is the lambda and the receiver of call n when n is
// xs.forEach { ... } (or another elementLambdas call), else -1, -1.
func elementLambda(v *lang.View, n int) (lam, recv int) {
	if v.Kind(n) != "call_expression" {
		return -1, -1
	}
	cs := v.Children(n)
	if len(cs) != 2 || v.Kind(cs[1]) != "annotated_lambda" || v.Kind(cs[0]) != "navigation_expression" {
		return -1, -1
	}
	if nav := v.Children(cs[0]); len(nav) == 2 && elementLambdas[v.Text(nav[1])] {
		return v.ChildOfKind(cs[1], "lambda_literal"), nav[0]
	}
	return -1, -1
}

// receiverLambda is the lambda and the receiver of call n when n is
// x.let { ... } (or another receiverLambdas call), x.apply { ... } or
// with(x) { ... } (this reports a thisLambdas call), else -1, -1.
func receiverLambda(v *lang.View, n int) (lam, recv int, this bool) {
	if v.Kind(n) != "call_expression" {
		return -1, -1, false
	}
	cs := v.Children(n)
	if len(cs) != 2 || v.Kind(cs[1]) != "annotated_lambda" {
		return -1, -1, false
	}
	lam = v.ChildOfKind(cs[1], "lambda_literal")
	switch v.Kind(cs[0]) {
	case "navigation_expression": // x.let { }
		nav := v.Children(cs[0])
		if len(nav) == 2 && (receiverLambdas[v.Text(nav[1])] || thisLambdas[v.Text(nav[1])]) {
			return lam, nav[0], thisLambdas[v.Text(nav[1])]
		}
	case "call_expression": // with(x) { }
		inner := v.Children(cs[0])
		if len(inner) == 2 && v.Text(inner[0]) == "with" && v.Kind(inner[1]) == "value_arguments" {
			if args := v.Children(inner[1]); len(args) == 1 && len(v.Children(args[0])) == 1 {
				return lam, v.Children(args[0])[0], true
			}
		}
	}
	return -1, -1, false
}

// binding is how the receiver of a scope function is typed: the type the
// source declares for it, or (via) the call whose declared result it is,
// as Local.Type and Local.Via say.
type binding struct {
	typ string
	via int32
}

// typeOf types the receiver n of a scope function: a call (f(), a.f()) by
// its callee's declared result, else as declaredTypeOf.
func typeOf(v *lang.View, f *lang.Facts, refAt map[lang.Pos]int32, n int) binding {
	if v.Kind(n) == "call_expression" {
		if callee := calleeName(v, n); callee >= 0 {
			if ri, ok := refAt[v.Start(callee)]; ok && f.Refs[ri].Role == lang.RoleCall {
				return binding{via: ri + 1}
			}
		}
		return binding{}
	}
	return binding{typ: declaredTypeOf(v, f, refAt, n)}
}

// declaredTypeOf is the type the file declares for expression n when n is
// a name bound to a local or a definition (x), or this.x for a property
// of the class around it; else "".
func declaredTypeOf(v *lang.View, f *lang.Facts, refAt map[lang.Pos]int32, n int) string {
	switch v.Kind(n) {
	case "identifier":
		ri, ok := refAt[v.Start(n)]
		if !ok {
			return ""
		}
		switch r := f.Refs[ri]; {
		case r.BindLocal >= 0:
			return f.Locals[r.BindLocal].Type
		case r.BindDef >= 0:
			return f.Defs[r.BindDef].Type
		}
	case "navigation_expression":
		cs := v.Children(n)
		if len(cs) != 2 || v.Kind(cs[0]) != "this_expression" || v.Kind(cs[1]) != "identifier" {
			return ""
		}
		ri, ok := refAt[v.Start(cs[1])]
		if !ok {
			return ""
		}
		return propertyType(f, f.Refs[ri].Enclosing, v.Text(cs[1]))
	}
	return ""
}

// propertyType is the declared type of property name of the class around
// def enc, or "".
func propertyType(f *lang.Facts, enc int32, name string) string {
	for c := enc; c >= 0; c = f.Defs[c].Parent {
		if !f.Defs[c].Kind.IsTypeLike() {
			continue
		}
		for _, d := range f.Defs {
			if d.Parent == c && d.Name == name && d.Kind == lang.KindProperty {
				return d.Type
			}
		}
		return ""
	}
	return ""
}

// typeLambdaParameter types the single parameter a receiver lambda names
// (x.also { y -> ... }).
func typeLambdaParameter(v *lang.View, f *lang.Facts, ps int, b binding) {
	decls := v.Children(ps)
	if len(decls) != 1 || v.Kind(decls[0]) != "variable_declaration" {
		return
	}
	name := v.ChildOfKind(decls[0], "identifier")
	for i := range f.Locals {
		if f.Locals[i].Pos == v.Start(name) && f.Locals[i].Type == "" && f.Locals[i].Via == 0 {
			f.Locals[i].Type, f.Locals[i].Via = b.typ, b.via
		}
	}
}
