// Package java registers Java with the syntactic layer: its grammar, its query
// (tags.scm), the import forms, the package declaration that qualifies every
// symbol (com.example.Service.run) and the visibility rules of its modifiers.
//
// Definitions: classes and records (kind class), interfaces and annotation
// types (interface), enums, methods, annotation elements (method),
// constructors, fields (static final fields and interface constants are
// constants), enum constants and record components (fields). Nested types have
// lexical paths (Outer.Inner.method); local and anonymous classes are named
// under the enclosing method (Outer.run.toString). Overloads share a path and
// differ by their Dup ordinal.
//
// Visibility: public is public; protected and package-private are internal;
// private is private; members of interfaces and annotation types without a
// modifier, enum constants and record components are public; whatever is
// declared inside a method body without a modifier is private.
//
// Imports: import a.b.C is a named import {Source: "a.b", Name: "C"};
// import a.b.* imports all of "a.b"; import static a.b.C.m is named
// {Source: "a.b.C", Name: "m"}; import static a.b.C.* imports all of "a.b.C".
// Type relations: extends (classes and interfaces) and implements.
//
// Types for linking: fields and methods carry the class type they declare
// (Def.Type: a method's result), locals theirs (Local.Type, for-each,
// try-with-resources and instanceof patterns included); m in f().m names f
// (Ref.Via); each anonymous class body names the reference to the type it
// extends (Facts.Anonymous).
package java

import (
	_ "embed"
	"unsafe"

	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

//go:embed tags.scm
var query string

var (
	bodyKinds    = []string{"block", "constructor_body", "class_body", "interface_body", "enum_body", "annotation_type_body"}
	commentKinds = []string{"line_comment", "block_comment"}
	body         = classlang.NewSet(bodyKinds...)
	comments     = classlang.NewSet(commentKinds...)
	// cut leaves annotations and comments out of signatures and modifiers
	cut   = classlang.NewSet("annotation", "marker_annotation", "line_comment", "block_comment")
	ident = classlang.NewSet("identifier")
)

// Language is Java.
var Language = classlang.JVM(&lang.Language{
	Name:         "java",
	Extensions:   []string{".java"},
	Grammar:      func() unsafe.Pointer { return tsjava.Language() },
	Query:        query,
	RefKinds:     []string{"identifier", "type_identifier"},
	BodyKinds:    bodyKinds,
	CommentKinds: commentKinds,
	DocStyle:     lang.DocComments,
	Visibility:   visibility,
	Package:      packageName,
	Imports:      imports,
	Refine:       refine,
	Surfaces:     Surfaces,
})

func init() { lang.Register(Language) }

func visibility(v *lang.View, d lang.DefNode) lang.Visibility {
	n := d.Node
	switch v.Kind(n) {
	case "enum_constant", "formal_parameter":
		return lang.VisPublic
	}
	words := classlang.Modifiers(v, n, cut)
	switch {
	case classlang.Has(words, "public"):
		return lang.VisPublic
	case classlang.Has(words, "private"):
		return lang.VisPrivate
	case classlang.Has(words, "protected"):
		return lang.VisInternal
	}
	parent := v.Parent(n)
	switch v.Kind(parent) {
	case "interface_body", "annotation_type_body":
		return lang.VisPublic
	case "enum_body_declarations":
		if v.Kind(n) == "constructor_declaration" {
			return lang.VisPrivate // enum constructors are private
		}
	}
	for p := parent; p >= 0; p = v.Parent(p) {
		switch v.Kind(p) {
		case "block", "constructor_body", "lambda_expression":
			return lang.VisPrivate // local to a method
		}
	}
	return lang.VisInternal
}

// packageName is the file's package declaration: "com.example.app".
func packageName(v *lang.View) string {
	for _, c := range v.Children(v.Root()) {
		if v.Kind(c) != "package_declaration" {
			continue
		}
		for _, n := range v.Children(c) {
			switch v.Kind(n) {
			case "identifier", "scoped_identifier":
				return classlang.Dotted(v, n, ident)
			}
		}
	}
	return ""
}

// imports expands one import declaration.
func imports(v *lang.View, n int) []lang.Import {
	name := -1
	for _, c := range v.Children(n) {
		switch v.Kind(c) {
		case "identifier", "scoped_identifier":
			name = c
		}
	}
	if name < 0 {
		return nil
	}
	full := classlang.Dotted(v, name, ident)
	if full == "" {
		return nil
	}
	if v.ChildOfKind(n, "asterisk") >= 0 {
		return []lang.Import{classlang.DottedImport(full, true, v.Start(name))}
	}
	im := classlang.DottedImport(full, false, v.Start(name))
	if last := v.Child(name, "name"); last >= 0 { // a.b.C: at C
		im.Pos = v.Start(last)
	}
	return []lang.Import{im}
}

// refine applies the rules the query cannot express: signatures without
// annotations, Javadoc summaries, constants, import references, this inside
// anonymous classes, and bare names bound to members of enclosing types.
func refine(v *lang.View, f *lang.Facts) {
	nodes := classlang.Prepare(v, f, body, cut, comments, classlang.Javadoc)
	for i := range f.Defs {
		d := &f.Defs[i]
		if d.Kind != lang.KindField || nodes[i] < 0 || v.Kind(nodes[i]) != "field_declaration" {
			continue
		}
		if w := classlang.Modifiers(v, nodes[i], cut); classlang.Has(w, "static") && classlang.Has(w, "final") {
			d.Kind = lang.KindConstant
		}
	}
	var decls, anon []lang.Span
	var anonBase []int // the name node of the type each anonymous class extends
	var notRefs map[lang.Pos]bool
	var callees map[lang.Pos]lang.Pos      // a binding a call initialises -> the callee's name
	var delegations []classlang.Delegation // this(...) and super(...) in a constructor
	for n := 0; n < v.Len(); n++ {
		switch v.Kind(n) {
		case "type_identifier":
			if v.Text(n) == "var" { // var x = ...: a reserved type name, not a type
				if notRefs == nil {
					notRefs = map[lang.Pos]bool{}
				}
				notRefs[v.Start(n)] = true
			}
		case "import_declaration":
			decls = append(decls, v.Span(n))
		case "identifier", "scoped_identifier":
			// names of packages and modules are not references (annotations on
			// a package declaration are)
			switch v.Kind(v.Parent(n)) {
			case "package_declaration", "module_declaration", "requires_module_directive",
				"exports_module_directive", "opens_module_directive":
				decls = append(decls, v.Span(n))
			}
		case "variable_declarator":
			// var x = f(): x is what f returns (Local.Via)
			if val := langutil.Child(v, n, "value"); v.Kind(val) == "method_invocation" && v.Text(langutil.Child(v, v.Parent(n), "type")) == "var" {
				if callees == nil {
					callees = map[lang.Pos]lang.Pos{}
				}
				callees[v.Start(langutil.Child(v, n, "name"))] = v.Start(langutil.Child(v, val, "name"))
			}
		case "explicit_constructor_invocation":
			if c := langutil.Child(v, n, "constructor"); c >= 0 && langutil.Child(v, n, "object") < 0 {
				delegations = append(delegations, classlang.Delegation{At: v.Start(c), Super: v.Kind(c) == "super", Args: 1 + uint16(len(langutil.Children(v, langutil.Child(v, n, "arguments"))))})
			}
		case "class_body":
			if p := v.Parent(n); v.Kind(p) == "object_creation_expression" {
				anon = append(anon, v.Span(n))
				anonBase = append(anonBase, typeNameNode(v, langutil.Child(v, p, "type")))
			}
		}
	}
	langutil.DropRefsAt(f, notRefs)
	classlang.Finish(f, decls, anon)
	classlang.ConstructorCalls(f, delegations)
	refAt := classlang.RefsByPos(f)
	classlang.Chains(v, f, refAt, func(n int) (int, int) { return chained(v, n) })
	classlang.CallLocals(f, refAt, callees)
	classlang.AnonymousBodies(v, f, refAt, anon, anonBase)
	javadocLinks(v, f)
}

// typeNameNode is the node of the last name of a type (T of T, a.b.T,
// T<X>), or -1.
func typeNameNode(v *lang.View, n int) int {
	for n >= 0 {
		switch v.Kind(n) {
		case "type_identifier":
			return n
		case "generic_type":
			if c := v.ChildOfKind(n, "type_identifier"); c >= 0 {
				n = c
			} else {
				n = v.ChildOfKind(n, "scoped_type_identifier")
			}
		case "scoped_type_identifier":
			c := langutil.Children(v, n)
			if len(c) == 0 {
				return -1
			}
			n = c[len(c)-1]
		default:
			return -1
		}
	}
	return -1
}

// chained is, for a.f().m and f().m, the name nodes of m and f
// (classlang.Chains).
func chained(v *lang.View, n int) (name, callee int) {
	member := ""
	switch v.Kind(n) {
	case "method_invocation":
		member = "name"
	case "field_access":
		member = "field"
	default:
		return -1, -1
	}
	obj := langutil.Child(v, n, "object")
	if obj < 0 || v.Kind(obj) != "method_invocation" {
		return -1, -1
	}
	return langutil.Child(v, n, member), langutil.Child(v, obj, "name")
}
