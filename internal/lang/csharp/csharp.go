// Package csharp registers C# with the syntactic layer: its grammar, its query
// (tags.scm), using directives, the namespace that qualifies every symbol
// (Acme.Shop.Order.Add) and the visibility rules of its modifiers.
//
// Definitions: classes and records (kind class), structs and record structs
// (struct), interfaces, enums, delegates (type), methods, constructors,
// properties and events with accessors (property), fields and field-like
// events (field; const fields are constants), enum members and the positional
// parameters of records (properties). Nested types have lexical paths
// (Outer.Inner.Method); overloads share a path and differ by their Dup
// ordinal. Operators, indexers, destructors and local functions are not symbols
// (local functions are local bindings).
//
// Namespaces: Facts.Package is the namespace of the file's types (block or
// file-scoped; nested namespaces join with "."). When a file declares types in
// several namespaces, Package is their longest common prefix and the rest leads
// the lexical path (namespace A { namespace B { class C {} } } beside another
// namespace A.D gives Package "A" and the path B.C).
//
// Visibility: public is public; protected, internal and their combinations are
// internal; private is private. Without a modifier, members of classes,
// structs and records are private, members of interfaces and enum members are
// public, top-level types are internal and nested types private.
//
// Imports: using A.B imports all of "A.B"; using static A.B.C imports all of
// "A.B.C" (its static members); using X = A.B.C is named
// {Source: "A.B", Name: "C", Alias: "X"}.
//
// Extension methods (static T M(this Box b, ...)) record the type they
// extend (Def.Extends: Box), without type arguments and nullability; the
// linker ties b.M() to one when b's type declares no M.
//
// Type relations: syntax cannot tell a base class from an interface, so the
// first base of a class or record is recorded as extends and the others as
// implements; the bases of a struct are implements and those of an interface
// extends.
package csharp

import (
	_ "embed"
	"strings"
	"unsafe"

	tscs "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

//go:embed tags.scm
var query string

var (
	bodyKinds = []string{"block", "declaration_list", "accessor_list", "arrow_expression_clause", "enum_member_declaration_list"}
	body      = classlang.NewSet(bodyKinds...)
	comments  = classlang.NewSet("comment")
	// cut leaves attributes and comments out of signatures
	cut       = classlang.NewSet("attribute_list", "comment")
	typeDecls = classlang.NewSet("class_declaration", "struct_declaration", "interface_declaration",
		"enum_declaration", "record_declaration", "delegate_declaration")
)

// Language is C#.
var Language = &lang.Language{
	Name:           "csharp",
	Title:          "C#",
	Extensions:     []string{".cs"},
	Ecosystem:      "dotnet",
	Aliases:        []string{"cs", "c#"},
	VisibilityRule: lang.RuleModifiers,
	Grammar:        func() unsafe.Pointer { return tscs.Language() },
	Query:          query,
	RefKinds:       []string{"identifier"},
	BodyKinds:      bodyKinds,
	CommentKinds:   []string{"comment"},
	DocStyle:       lang.DocComments,
	SelfNames:      []string{"this"},
	NameSeparators: []string{"::"},
	// A C# local is in scope in its whole block (using it before its
	// declaration is an error), and a generic method's type parameters are
	// used before they are declared: T Get<T>().
	BlockScoped:  false,
	Overloads:    true,
	PartialTypes: "partial",
	Packages:     lang.PackageDeclared,
	// A using directive brings in a whole namespace.
	NamespaceImports: true,
	Visibility:       visibility,
	Package:          packageName,
	Imports:          imports,
	Refine:           refine,
	Surfaces:         Surfaces,
	Linker:           classlang.Linker,
	Stdlib:           stdlib,
	TestFile:         testFile,
}

func init() { lang.Register(Language) }

// modifiers lists the modifier keywords of a declaration.
func modifiers(v *lang.View, n int) []string {
	var out []string
	for _, c := range v.Children(n) {
		if v.Kind(c) == "modifier" {
			out = append(out, strings.TrimSpace(v.Text(c)))
		}
	}
	return out
}

func visibility(v *lang.View, d lang.DefNode) lang.Visibility {
	n := d.Node
	switch v.Kind(n) {
	case "enum_member_declaration", "parameter":
		return lang.VisPublic
	}
	words := modifiers(v, n)
	switch {
	case classlang.Has(words, "public"):
		return lang.VisPublic
	case classlang.Has(words, "protected"), classlang.Has(words, "internal"):
		return lang.VisInternal
	case classlang.Has(words, "private"):
		return lang.VisPrivate
	}
	if v.ChildOfKind(n, "explicit_interface_specifier") >= 0 {
		return lang.VisPublic // void IFoo.M(): reached through the interface
	}
	switch v.Kind(declaredIn(v, n)) {
	case "interface_declaration":
		return lang.VisPublic
	case "namespace_declaration", "compilation_unit", "file_scoped_namespace_declaration":
		return lang.VisInternal
	}
	return lang.VisPrivate
}

// nsName is the text of a namespace declaration's name: "Acme.Shop".
func nsName(v *lang.View, n int) string {
	name := v.Child(n, "name")
	if name < 0 {
		return ""
	}
	return strings.Join(strings.Fields(v.Text(name)), "")
}

// namespaceOf is the full namespace a node is declared in.
func namespaceOf(v *lang.View, n int, fileScoped string) string {
	var parts []string
	for p := v.Parent(n); p >= 0; p = v.Parent(p) {
		if v.Kind(p) == "namespace_declaration" {
			if s := nsName(v, p); s != "" {
				parts = append(parts, s)
			}
		}
	}
	if fileScoped != "" {
		parts = append(parts, fileScoped)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, ".")
}

// fileScopedNamespace is the name of a file-scoped namespace declaration.
func fileScopedNamespace(v *lang.View) string {
	if n := v.ChildOfKind(v.Root(), "file_scoped_namespace_declaration"); n >= 0 {
		return nsName(v, n)
	}
	return ""
}

// declaredIn is the node a declaration is declared in: the type or
// namespace whose declaration_list holds it, else its parent (a compilation
// unit, a file-scoped namespace).
func declaredIn(v *lang.View, n int) int {
	p := v.Parent(n)
	if v.Kind(p) == "declaration_list" {
		return v.Parent(p)
	}
	return p
}

// topTypes lists the type declarations that are not nested in a type.
func topTypes(v *lang.View) []int {
	var out []int
	for n := 0; n < v.Len(); n++ {
		if !typeDecls[v.Kind(n)] {
			continue
		}
		switch v.Kind(declaredIn(v, n)) {
		case "compilation_unit", "namespace_declaration":
			out = append(out, n)
		}
	}
	return out
}

// packageName is the namespace of the file's top-level types: their longest
// common prefix when they live in several.
func packageName(v *lang.View) string {
	fs := fileScopedNamespace(v)
	types := topTypes(v)
	if len(types) == 0 {
		if fs != "" {
			return fs
		}
		for n := 0; n < v.Len(); n++ {
			if v.Kind(n) == "namespace_declaration" {
				return namespaceOf(v, n, "") + dotIf(namespaceOf(v, n, "")) + nsName(v, n)
			}
		}
		return ""
	}
	common := strings.Split(namespaceOf(v, types[0], fs), ".")
	for _, t := range types[1:] {
		parts := strings.Split(namespaceOf(v, t, fs), ".")
		k := 0
		for k < len(common) && k < len(parts) && common[k] == parts[k] {
			k++
		}
		common = common[:k]
	}
	return strings.Join(common, ".")
}

func dotIf(s string) string {
	if s == "" {
		return ""
	}
	return "."
}

// typeName is the name a using directive's target denotes: type arguments,
// spaces and the global:: alias removed, other aliases (x::A) joined by a dot.
func typeName(v *lang.View, n int) string {
	s := classlang.StripTypeArgs(v.Text(n))
	s = strings.TrimPrefix(s, "global::")
	return strings.ReplaceAll(s, "::", ".")
}

// lastName is the identifier that ends a (qualified, generic) name, or -1.
func lastName(v *lang.View, n int) int {
	for n >= 0 {
		switch v.Kind(n) {
		case "identifier":
			return n
		case "qualified_name", "alias_qualified_name":
			n = v.Child(n, "name")
		case "generic_name":
			n = v.ChildOfKind(n, "identifier")
		default:
			return -1
		}
	}
	return -1
}

// imports expands one using directive.
func imports(v *lang.View, n int) []lang.Import {
	alias := v.Child(n, "name")
	target := -1
	for _, c := range v.Children(n) {
		if c != alias && v.Kind(c) != "comment" {
			target = c
		}
	}
	if target < 0 {
		return nil
	}
	full := typeName(v, target)
	if full == "" {
		return nil
	}
	if alias < 0 {
		return []lang.Import{classlang.DottedImport(full, true, v.Start(target))}
	}
	im := classlang.DottedImport(full, false, v.Start(target))
	im.Alias = v.Text(alias)
	if last := lastName(v, target); last >= 0 {
		im.Pos = v.Start(last)
	}
	if im.Alias == im.Name {
		im.Alias = ""
	}
	return []lang.Import{im}
}

// refine applies the rules the query cannot express: signatures without
// attributes, XML doc summaries, constants, namespaces below the file's
// package in lexical paths, the receivers this and base, import references,
// and bare names bound to members of enclosing types.
func refine(v *lang.View, f *lang.Facts) {
	nodes := classlang.Prepare(v, f, body, cut, comments, classlang.XMLDoc)
	for i := range f.Defs {
		d := &f.Defs[i]
		if d.Kind == lang.KindField && nodes[i] >= 0 && v.Kind(nodes[i]) == "field_declaration" &&
			classlang.Has(modifiers(v, nodes[i]), "const") {
			d.Kind = lang.KindConstant
		}
		if d.Kind == lang.KindMethod && nodes[i] >= 0 {
			d.Extends = extendedType(v, nodes[i])
		}
		if d.Type == "void" {
			d.Type = "" // a predefined type, but no value's
		}
	}
	namespacePaths(v, f, nodes)
	localFunctions(v, f)

	byPos := make(map[lang.Pos]int, len(f.Refs))
	for i, r := range f.Refs {
		byPos[r.Pos] = i
	}
	var decls []lang.Span
	callees := map[lang.Pos]lang.Pos{} // var x = F(): x -> F's name (Local.Via)
	for n := 0; n < v.Len(); n++ {
		switch v.Kind(n) {
		case "using_directive", "extern_alias_directive":
			decls = append(decls, v.Span(n))
		case "variable_declarator":
			if name, call := v.Child(n, "name"), v.ChildOfKind(n, "invocation_expression"); name >= 0 && call >= 0 &&
				v.Kind(v.Child(v.Parent(n), "type")) == "implicit_type" {
				fn := v.Child(call, "function")
				if v.Kind(fn) == "member_access_expression" {
					fn = v.Child(fn, "name")
				}
				if fn = lastName(v, fn); fn >= 0 {
					callees[v.Start(name)] = v.Start(fn)
				}
			}
		case "namespace_declaration", "file_scoped_namespace_declaration":
			if name := v.Child(n, "name"); name >= 0 {
				decls = append(decls, v.Span(name))
			}
		case "assignment_expression":
			// new T { Member = x }: a member of the new object, written
			if v.Kind(v.Parent(n)) != "initializer_expression" {
				continue
			}
			if left := v.Child(n, "left"); v.Kind(left) == "identifier" {
				if i, ok := byPos[v.Start(left)]; ok {
					f.Refs[i].Shape, f.Refs[i].Qualifier = lang.QualExpr, langutil.Name(f, "")
				}
			}
		case "member_access_expression":
			if v.Child(n, "expression") >= 0 {
				continue
			}
			name := lastName(v, v.Child(n, "name"))
			if name < 0 {
				continue
			}
			i, ok := byPos[v.Start(name)]
			if !ok {
				continue
			}
			r := &f.Refs[i]
			switch t := v.Text(n); {
			case strings.HasPrefix(t, "this"):
				r.Shape, r.Qualifier = lang.QualSelf, langutil.Name(f, "this")
			case strings.HasPrefix(t, "base"):
				r.Shape, r.Qualifier = lang.QualExpr, langutil.Name(f, "base")
			}
		}
	}
	firstBaseExtends(f)
	classlang.Finish(f, decls, nil)
	refAt := classlang.RefsByPos(f)
	classlang.Chains(v, f, refAt, func(n int) (int, int) { return chained(v, n) })
	classlang.CallLocals(f, refAt, callees)
	crefLinks(v, f)
}

// chained is, for a.F().M and F().M, the name nodes of M and F
// (classlang.Chains).
func chained(v *lang.View, n int) (name, callee int) {
	if v.Kind(n) != "member_access_expression" {
		return -1, -1
	}
	obj := v.Child(n, "expression")
	if obj < 0 || v.Kind(obj) != "invocation_expression" {
		return -1, -1
	}
	fn := v.Child(obj, "function")
	if v.Kind(fn) == "member_access_expression" {
		fn = v.Child(fn, "name")
	}
	return lastName(v, v.Child(n, "name")), lastName(v, fn)
}

// namespacePaths puts the namespaces that a top-level definition is declared
// in below the file's package at the head of its lexical path.
func namespacePaths(v *lang.View, f *lang.Facts, nodes []int) {
	fs := fileScopedNamespace(v)
	prefix := make([]string, len(f.Defs))
	found := false
	for i, d := range f.Defs {
		if d.Parent >= 0 || nodes[i] < 0 {
			continue
		}
		ns := namespaceOf(v, nodes[i], fs)
		rel := ns
		if f.Package != "" {
			if ns == f.Package {
				rel = ""
			} else {
				rel = strings.TrimPrefix(ns, f.Package+".")
			}
		}
		if rel != "" {
			prefix[i], found = rel, true
		}
	}
	if !found {
		return
	}
	for i := range f.Defs {
		d := &f.Defs[i]
		switch {
		case d.Parent >= 0:
			d.Path = f.ChildPath(d.Parent, d.Name)
		case prefix[i] != "":
			d.Path = f.JoinPath(prefix[i], d.Name)
		}
	}
	langutil.RecomputeDups(f)
}

// firstBaseExtends records the first base of a class or record as the class it
// extends: syntax cannot tell a base class from an interface, and a base class,
// when there is one, comes first.
func firstBaseExtends(f *lang.Facts) {
	seen := map[int32]bool{}
	for i := range f.TypeRels { // sorted by position
		t := &f.TypeRels[i]
		if seen[t.Def] || f.Defs[t.Def].Kind != lang.KindClass {
			continue
		}
		seen[t.Def] = true
		t.Kind = lang.RelExtends
	}
}

// localFunctions moves the name of a local function out of the function's own
// scope into the enclosing one, where the calls are, and binds those calls.
func localFunctions(v *lang.View, f *lang.Facts) {
	var moved map[uint32][]int32 // name -> moved locals
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "local_function_statement" {
			continue
		}
		name := v.Child(n, "name")
		if name < 0 {
			continue
		}
		at, own := v.Start(name), v.Span(n)
		for i := range f.Locals {
			lo := &f.Locals[i]
			if lo.Pos != at || lo.Scope < 0 || f.Scopes[lo.Scope].Span != own {
				continue
			}
			lo.Scope = f.Scopes[lo.Scope].Parent
			if moved == nil {
				moved = map[uint32][]int32{}
			}
			moved[lo.Name] = append(moved[lo.Name], int32(i))
		}
	}
	if moved == nil {
		return
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		cands, ok := moved[r.Name]
		if !ok || r.Shape != lang.QualNone || r.BindLocal >= 0 {
			continue
		}
		for s := r.Scope; s >= 0 && r.BindLocal < 0; s = f.Scopes[s].Parent {
			for _, li := range cands {
				if f.Locals[li].Scope == s {
					r.BindLocal, r.BindDef, r.BindImp = li, -1, -1
					break
				}
			}
		}
	}
}

// stdlib reports whether a using names a namespace of .NET's base library.
func stdlib(im lang.Import) bool {
	return im.Source == "System" || strings.HasPrefix(im.Source, "System.")
}

// extendedType is the type extension method n extends: the type of its
// first parameter when that parameter says this (Box of M(this Box b),
// IObservable of M<T>(this IObservable<T> s), A.Box of M(this A.Box? b)),
// else "".
func extendedType(v *lang.View, n int) string {
	params := v.Child(n, "parameters")
	if params < 0 {
		return ""
	}
	first := v.ChildOfKind(params, "parameter")
	if first < 0 {
		return ""
	}
	this := false
	for _, c := range v.Children(first) {
		if v.Kind(c) == "modifier" && v.Text(c) == "this" {
			this = true
		}
	}
	typ := v.Child(first, "type")
	if !this || typ < 0 {
		return ""
	}
	return strings.TrimSuffix(classlang.StripTypeArgs(v.Text(typ)), "?")
}
