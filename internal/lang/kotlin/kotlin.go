// Package kotlin registers Kotlin (.kt, .kts) with the syntactic layer: its
// grammar, its query (tags.scm), imports, the package header that qualifies
// every symbol (com.example.Point.move) and the visibility modifiers.
//
// Definitions: classes, data/sealed/inner classes and objects (kind class),
// interfaces, enum classes (enum) and their entries, functions (methods inside
// a class or object body), properties (constructor parameters declared val or
// var, class members; top-level ones are variables, const val is a constant)
// and type aliases (type). Members of a companion object belong to the
// enclosing class (Point.create), as Kotlin code calls them. Secondary
// constructors are not symbols.
//
// Visibility: public (the default) is public; protected and internal are
// internal; private is private; declarations local to a function are private.
//
// Imports: import a.b.C is named {Source: "a.b", Name: "C"}, import a.b.C as D
// adds Alias "D", import a.b.* imports all of "a.b". Type relations: a
// supertype called with arguments (Base()) is extended, the others implemented;
// the supertypes of an interface are extended. Parameters, constructor
// parameters, properties and locals record the type they declare (Foo, Foo?),
// else the class their initialiser constructs (val c = Counter(1): a
// capitalised callee); the linker reads it for x.m. A vararg parameter (an
// array) and a binding initialised by a function call (val m = make()) record
// none. An extension function or property (fun Box.twice(), val Box.area;
// top-level or a member) records the type it extends (Def.Extends): the
// linker ties b.twice() to it when b's type declares no twice.
package kotlin

import (
	_ "embed"
	"strings"
	"unicode"
	"unsafe"

	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

//go:embed tags.scm
var query string

var (
	bodyKinds    = []string{"class_body", "enum_class_body", "function_body", "getter", "setter", "property_delegate"}
	commentKinds = []string{"line_comment", "block_comment"}
	body         = classlang.NewSet(bodyKinds...)
	comments     = classlang.NewSet(commentKinds...)
	// cut leaves annotations and comments out of signatures
	cut   = classlang.NewSet("annotation", "line_comment", "block_comment")
	ident = classlang.NewSet("identifier")
)

// Language is Kotlin.
var Language = classlang.JVM(&lang.Language{
	Name:         "kotlin",
	Extensions:   []string{".kt", ".kts"},
	Aliases:      []string{"kt"},
	Grammar:      func() unsafe.Pointer { return tskotlin.Language() },
	Query:        query,
	RefKinds:     []string{"identifier"},
	BodyKinds:    bodyKinds,
	CommentKinds: commentKinds,
	DocStyle:     lang.DocComments,
	// A companion object's members are the class's: Foo.Companion.make is
	// Foo.make.
	NameSeparators: []string{".Companion."},
	// The scanner of tree-sitter-kotlin 1.1.0 loops forever when the input
	// ends with an annotation where a property accessor may follow
	// ("val x = 1\n@Suppress(\"X\")" without a final newline).
	FinalNewline: true,
	Visibility:   visibility,
	Package:      packageName,
	Imports:      imports,
	Refine:       refine,
})

func init() { lang.Register(Language) }

func visibility(v *lang.View, d lang.DefNode) lang.Visibility {
	n := d.Node
	if v.Kind(n) == "enum_entry" {
		return lang.VisPublic
	}
	words := classlang.Modifiers(v, n, cut)
	switch {
	case classlang.Has(words, "private"):
		return lang.VisPrivate
	case classlang.Has(words, "protected"), classlang.Has(words, "internal"):
		return lang.VisInternal
	case classlang.Has(words, "public"):
		return lang.VisPublic
	}
	for p := v.Parent(n); p >= 0; p = v.Parent(p) {
		switch v.Kind(p) {
		case "function_body", "block", "lambda_literal", "anonymous_initializer":
			return lang.VisPrivate // local to a function
		}
	}
	return lang.VisPublic
}

// packageName is the file's package header: "com.example.app".
func packageName(v *lang.View) string {
	if h := v.ChildOfKind(v.Root(), "package_header"); h >= 0 {
		return classlang.Dotted(v, v.ChildOfKind(h, "qualified_identifier"), ident)
	}
	return ""
}

// imports expands one import header.
func imports(v *lang.View, n int) []lang.Import {
	q := v.ChildOfKind(n, "qualified_identifier")
	if q < 0 {
		return nil
	}
	full := classlang.Dotted(v, q, ident)
	if full == "" {
		return nil
	}
	_, qe := v.Bytes(q)
	_, ne := v.Bytes(n)
	if strings.Contains(string(v.Src()[qe:ne]), "*") {
		return []lang.Import{classlang.DottedImport(full, true, v.Start(q))}
	}
	im := classlang.DottedImport(full, false, v.Start(q))
	if ids := v.Children(q); len(ids) > 0 {
		im.Pos = v.Start(ids[len(ids)-1])
	}
	if alias := v.ChildOfKind(n, "identifier"); alias >= 0 && v.Text(alias) != im.Name {
		im.Alias = v.Text(alias)
	}
	return []lang.Import{im}
}

// refine applies the rules the query cannot express: signatures without
// annotations, KDoc summaries and links, constants, the types extension
// functions extend, the relations of interfaces, import
// references, this inside object expressions, and bare names bound to members
// of enclosing types.
func refine(v *lang.View, f *lang.Facts) {
	nodes := classlang.Prepare(v, f, body, cut, comments, classlang.KDoc)
	for i := range f.Defs {
		d := &f.Defs[i]
		if (d.Kind == lang.KindVariable || d.Kind == lang.KindProperty) && nodes[i] >= 0 &&
			classlang.Has(classlang.Modifiers(v, nodes[i], cut), "const") {
			d.Kind = lang.KindConstant
		}
		if nodes[i] >= 0 {
			d.Extends = extendedType(v, nodes[i])
		}
	}
	for i := range f.TypeRels {
		if f.Defs[f.TypeRels[i].Def].Kind == lang.KindInterface {
			f.TypeRels[i].Kind = lang.RelExtends
		}
	}
	var decls, anon []lang.Span
	varargs := map[lang.Pos]bool{}
	callees := map[lang.Pos]lang.Pos{} // a binding a call initialises -> the callee's name
	var delegations []classlang.Delegation
	var headerCalls []int // the constructor invocations of class headers
	for n := 0; n < v.Len(); n++ {
		switch v.Kind(n) {
		case "package_header", "import":
			decls = append(decls, v.Span(n))
		case "object_literal":
			anon = append(anon, v.Span(n))
		case "constructor_delegation_call": // constructor(…) : this(…) or : super(…)
			delegations = append(delegations, classlang.Delegation{At: v.Start(n), Super: strings.HasPrefix(v.Text(n), "super"), Args: valueArgs(v, n)})
		case "constructor_invocation": // class A(x: Int) : Base(x)
			if v.Kind(v.Parent(n)) == "delegation_specifier" {
				headerCalls = append(headerCalls, n)
			}
		case "parameter_modifiers":
			if p := varargParameter(v, n); p >= 0 {
				varargs[v.Start(p)] = true
			}
		case "property_declaration":
			// val x = a.f(): x is what f returns; val x = a.b: x is what b
			// holds (Local.Via)
			decl := v.ChildOfKind(n, "variable_declaration")
			init := passedOn(v, initialiser(v, n, decl))
			name, from := v.ChildOfKind(decl, "identifier"), valueName(v, init)
			if from < 0 && v.Kind(init) == "call_expression" {
				from = calleeName(v, init)
			}
			if name >= 0 && from >= 0 {
				callees[v.Start(name)] = v.Start(from)
			}
		}
	}
	for i := range f.Locals {
		if varargs[f.Locals[i].Pos] || !className(f.Locals[i].Type) {
			f.Locals[i].Type = "" // vararg xs: T is an array of T
		}
	}
	for i := range f.Defs {
		if !className(f.Defs[i].Type) {
			f.Defs[i].Type = ""
		}
	}
	kdocLinks(v, f)
	classlang.Finish(f, decls, anon)
	baseConstructorCalls(v, f, headerCalls)
	classlang.ConstructorCalls(f, delegations)
	refAt := classlang.RefsByPos(f)
	classlang.Chains(v, f, refAt, func(n int) (int, int) { return chained(v, n) })
	classlang.CallLocals(f, refAt, callees)
	localValues(f)
	scopeFunctions(v, f, refAt)
	smartCasts(v, f)
	forLoops(v, f)
}

// extendedType is the type extension function or property n extends,
// without type arguments and nullability: Box of fun Box.twice(), a.Box of
// fun a.Box.f(), List of fun <T> List<T>.second(), String of fun
// String?.orEmpty(), Box of val Box.area; "" for other declarations.
func extendedType(v *lang.View, n int) string {
	switch v.Kind(n) {
	case "function_declaration", "property_declaration":
	default:
		return ""
	}
	for _, c := range v.Children(n) {
		switch v.Kind(c) {
		case "identifier", "variable_declaration", "multi_variable_declaration", "function_value_parameters":
			return "" // the name, with no receiver type before it
		case "user_type":
			return classlang.StripTypeArgs(v.Text(c))
		case "nullable_type":
			if u := v.ChildOfKind(c, "user_type"); u >= 0 {
				return classlang.StripTypeArgs(v.Text(u))
			}
		}
	}
	return ""
}

// calleeName is the name node of the function that call_expression n
// calls (f of f(x), a.f(x), a?.f(x)), or -1.
func calleeName(v *lang.View, n int) int {
	if n < 0 {
		return -1
	}
	cs := v.Children(n)
	if len(cs) == 0 {
		return -1
	}
	switch f := cs[0]; v.Kind(f) {
	case "identifier":
		return f
	case "navigation_expression":
		if parts := v.Children(f); len(parts) > 1 && v.Kind(parts[len(parts)-1]) == "identifier" {
			return parts[len(parts)-1]
		}
	}
	return -1
}

// joinedBy reports whether n is a binary expression x op y.
func joinedBy(v *lang.View, n int, op string) bool {
	cs := v.Children(n)
	if v.Kind(n) != "binary_expression" || len(cs) != 2 {
		return false
	}
	_, e := v.Bytes(cs[0])
	return strings.HasPrefix(strings.TrimSpace(string(v.Src()[e:])), op)
}

// passedOn is the expression whose value expression n passes on: x of x!!
// and of x ?: return; n itself for any other (-1 for none).
func passedOn(v *lang.View, n int) int {
	for n >= 0 {
		switch {
		case joinedBy(v, n, "?:"), v.Kind(n) == "unary_expression" && strings.HasSuffix(v.Text(n), "!!"):
			n = v.Children(n)[0]
		default:
			return n
		}
	}
	return n
}

// localValues gives a local that another local's value initialises (val x
// = y ?: return, y!!, checkNotNull(y)) the type the source declares for y.
func localValues(f *lang.Facts) {
	for i := range f.Locals {
		lo := &f.Locals[i]
		if lo.Via <= 0 || lo.Type != "" {
			continue
		}
		if r := f.Refs[lo.Via-1]; r.Role != lang.RoleCall && r.BindLocal >= 0 && f.Locals[r.BindLocal].Type != "" {
			lo.Type, lo.Via = f.Locals[r.BindLocal].Type, 0
		}
	}
}

// initialiser is the expression that initialises property declaration n
// (after its variable_declaration decl), or -1.
func initialiser(v *lang.View, n, decl int) int {
	if cs := v.Children(n); len(cs) > 1 && cs[len(cs)-1] != decl {
		return cs[len(cs)-1]
	}
	return -1
}

// notNullChecks are the standard functions that return their argument.
var notNullChecks = map[string]bool{"checkNotNull": true, "requireNotNull": true}

// valueName is the name node of the member or property whose declared type
// an initialiser's value has (after passedOn): b of a.b and a?.b, of
// checkNotNull(a.b) and requireNotNull(a.b), of a bare b; -1 for any other
// expression (a call's result is its callee's: calleeName).
func valueName(v *lang.View, n int) int {
	if n < 0 {
		return -1
	}
	cs := v.Children(n)
	switch v.Kind(n) {
	case "identifier":
		return n
	case "navigation_expression":
		if len(cs) > 1 && v.Kind(cs[len(cs)-1]) == "identifier" {
			return cs[len(cs)-1]
		}
	case "call_expression":
		if len(cs) > 0 && v.Kind(cs[0]) == "call_expression" {
			return valueName(v, cs[0]) // requireNotNull(x) { "message" }
		}
		if len(cs) == 2 && v.Kind(cs[0]) == "identifier" && notNullChecks[v.Text(cs[0])] {
			if args := v.Children(cs[1]); len(args) > 0 {
				if arg := v.Children(args[0]); len(arg) == 1 {
					return valueName(v, passedOn(v, arg[0]))
				}
			}
		}
	}
	return -1
}

// chained gives, for a member read or call on a call's result (f().m,
// a.f().m()), the name node of m and of f; -1, -1 for any other node.
func chained(v *lang.View, n int) (name, callee int) {
	if v.Kind(n) != "navigation_expression" {
		return -1, -1
	}
	parts := v.Children(n)
	if len(parts) < 2 || v.Kind(parts[0]) != "call_expression" || v.Kind(parts[len(parts)-1]) != "identifier" {
		return -1, -1
	}
	if c := calleeName(v, parts[0]); c >= 0 {
		return parts[len(parts)-1], c
	}
	return -1, -1
}

// className reports whether a recorded type may name a class: a declared
// type (Foo, a.b.Foo) or the callee of a constructor call, which Kotlin
// writes capitalised; val m = make() calls a function, whose result type
// the source does not say there.
func className(typ string) bool {
	return typ == "" || strings.Contains(typ, ".") || unicode.IsUpper([]rune(typ)[0])
}

// varargParameter is the name of the parameter that modifiers n declare
// vararg, or -1.
func varargParameter(v *lang.View, n int) int {
	if !strings.Contains(v.Text(n), "vararg") {
		return -1
	}
	kids := v.Children(v.Parent(n))
	for i, c := range kids {
		if c == n && i+1 < len(kids) && v.Kind(kids[i+1]) == "parameter" {
			return v.ChildOfKind(kids[i+1], "identifier")
		}
	}
	return -1
}

// baseConstructorCalls makes the name of the class a class header's
// constructor invocations call (Base of class A(x: Int) : Base(x)) a call
// passing their arguments, as Base(x) is in a body: it runs the
// constructor of Base that takes them.
func baseConstructorCalls(v *lang.View, f *lang.Facts, ns []int) {
	for _, n := range ns {
		typ := v.ChildOfKind(n, "user_type")
		if typ < 0 {
			continue
		}
		name, _, _ := strings.Cut(v.Text(typ), "<")
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		name, span, args := strings.TrimSpace(name), v.Span(typ), valueArgs(v, n)
		for i := range f.Refs {
			if r := &f.Refs[i]; span.Contains(r.Pos) && f.Names[r.Name] == name {
				r.Role, r.Args = lang.RoleCall, args
			}
		}
	}
}

// valueArgs is 1 + the number of arguments of call-like node n (Ref.Args).
func valueArgs(v *lang.View, n int) uint16 {
	return 1 + uint16(len(langutil.Children(v, v.ChildOfKind(n, "value_arguments"))))
}
