// Package cfamily holds what C and C++ share: the query (common.scm, and
// cpp.scm for C++, templates expanded here because C declarators nest: *x,
// x[], (*x)() and x = v all name x), the import forms, and the rules for
// visibility, paths and name binding.
//
// Definitions: function definitions and prototypes (function; a prototype is
// dropped when the file also defines the function), global variables
// (variable), struct and union (struct), enum (enum) and enumerators
// (enum_member), typedefs (type), fields (field), #define NAME (constant) and
// #define NAME(args) (function). C++ adds classes (class), namespaces
// (namespace; nested ones nest their paths), methods declared or defined in
// a class (method, constructor; a destructor is the method ~Name), methods
// defined out of their class (void A::m() {} is A.m, prefixed by the enclosing
// namespaces), templates (the template declaration is the definition, so the
// signature starts with template <...>) and using aliases (type).
//
// Imports: #include "x.h" is {module, "x.h"} and #include <x.h> is
// {module, "<x.h>"}: the angle brackets stay in Source so that the linker
// resolves a quoted include relative to the including file's directory first,
// and an angled one from the repository root only. C++ using namespace a::b
// is {all, "a::b"}, using a::b::c is {named, "a::b", c}.
//
// A declaration inside a preprocessor conditional within a function body is
// taken for a global one (a variable whose parent is the function).
package cfamily

import (
	_ "embed"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
	"github.com/cairnhq/cairn/internal/lang/native"
)

//go:embed common.scm
var commonQuery string

//go:embed cpp.scm
var cppQuery string

// Query returns the expanded query of C (cpp false) or C++.
func Query(cpp bool) string {
	if cpp {
		return expand(cppQuery, true) + "\n" + expand(commonQuery, true)
	}
	return expand(commonQuery, false)
}

// expand replaces each placeholder of tmpl (<VAR @cap>, <TYPE>, ...) by its
// patterns, in one pass: the languages' queries are built when the program
// starts, so every command pays for this.
func expand(tmpl string, cpp bool) string {
	var b strings.Builder
	b.Grow(4 * len(tmpl))
	s := tmpl
	for {
		i := strings.IndexByte(s, '<')
		for i >= 0 && !isPlaceholder(s[i:]) {
			j := strings.IndexByte(s[i+1:], '<')
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := strings.IndexByte(s[i:], '>') + i
		name, capture, _ := strings.Cut(s[i+1:end], " ")
		b.WriteString(s[:i])
		b.WriteString(placeholder(name, capture, cpp))
		s = s[end+1:]
	}
}

func isPlaceholder(s string) bool {
	for _, p := range []string{"<VAR ", "<FUNC ", "<TYPE>", "<FIELD>", "<METHOD>", "<MEMBER>", "<QUALIFIED>"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// alt renders an alternation of node patterns.
func alt(items []string) string { return "[" + strings.Join(items, " ") + "]" }

// wrap nests inner under declarator wrappers: pointers, arrays, references.
func wraps(inner string, cpp, arrays bool) []string {
	out := []string{
		inner,
		"(pointer_declarator declarator: " + inner + ")",
		"(pointer_declarator declarator: (pointer_declarator declarator: " + inner + "))",
	}
	if arrays {
		out = append(out,
			"(array_declarator declarator: "+inner+")",
			"(array_declarator declarator: (array_declarator declarator: "+inner+"))",
			"(pointer_declarator declarator: (array_declarator declarator: "+inner+"))")
	}
	if cpp {
		out = append(out, "(reference_declarator "+inner+")")
	}
	return out
}

func placeholder(name, capture string, cpp bool) string {
	switch name {
	case "VAR":
		id := "(identifier) " + capture
		inner := append(wraps(id, cpp, false),
			"(array_declarator declarator: "+id+")",
			"(pointer_declarator declarator: (array_declarator declarator: "+id+"))",
			"(function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: "+id+")))")
		return alt(append(inner, "(init_declarator declarator: "+alt(inner)+")"))
	case "FUNC":
		id := "(identifier) " + capture
		if cpp {
			id = "[(identifier) (operator_name)] " + capture
		}
		return alt(wraps("(function_declarator declarator: "+id+")", cpp, false))
	case "TYPE":
		id := "(type_identifier) @name"
		return alt(append(wraps(id, cpp, true),
			"(function_declarator declarator: "+id+")",
			"(function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: "+id+")))",
			"(pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: "+id+"))))"))
	case "FIELD":
		id := "(field_identifier) @name"
		return alt(append(wraps(id, cpp, true),
			"(function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: "+id+")))"))
	case "METHOD":
		return alt(wraps("(function_declarator declarator: [(field_identifier) (identifier) (destructor_name) (operator_name)] @name)", true, false))
	case "MEMBER":
		return alt(wraps("(function_declarator declarator: [(field_identifier) (destructor_name)] @name)", true, false))
	case "QUALIFIED":
		// (_) rather than the name kinds: far cheaper to compile; it also
		// matches an inner qualified name, which Refine drops
		q := "(qualified_identifier name: [(_) @name (qualified_identifier name: (_) @name) " +
			"(qualified_identifier name: (qualified_identifier name: (_) @name))]) @receiver"
		fd := "(function_declarator declarator: " + q + ")"
		return alt([]string{fd, "(pointer_declarator declarator: " + fd + ")", "(reference_declarator " + fd + ")"})
	}
	return ""
}

// Imports expands an #include (C and C++) or a using declaration (C++).
func Imports(v *lang.View, n int) []lang.Import {
	switch v.Kind(n) {
	case "preproc_include":
		p := langutil.Child(v, n, "path")
		switch v.Kind(p) {
		case "string_literal":
			return []lang.Import{{Kind: lang.ImportModule, Source: lang.Unquote(v.Text(p)), Pos: v.Start(p)}}
		case "system_lib_string":
			return []lang.Import{{Kind: lang.ImportModule, Source: strings.TrimSpace(v.Text(p)), Pos: v.Start(p)}}
		}
	case "using_declaration":
		kids := langutil.Children(v, n)
		if len(kids) == 0 {
			return nil
		}
		target := kids[len(kids)-1]
		path := strings.Join(strings.Fields(v.Text(target)), "")
		if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(v.Text(n), "using")), "namespace") {
			return []lang.Import{{Kind: lang.ImportAll, Source: path, Pos: v.Start(target)}}
		}
		i := strings.LastIndex(path, "::")
		if i < 0 {
			return nil
		}
		return []lang.Import{{Kind: lang.ImportNamed, Source: path[:i], Name: path[i+2:], Pos: v.Start(target)}}
	}
	return nil
}

// Visibility: static file-level declarations and those in anonymous
// namespaces or function bodies are private; class members follow the access
// specifier before them (class members are private by default, struct and
// union members public; protected is internal); the rest is public.
func Visibility(v *lang.View, d lang.DefNode) lang.Visibility {
	n := d.Node
	if d.Def.Kind == lang.KindEnumMember {
		return lang.VisPublic
	}
	member := n
	if v.Kind(v.Parent(member)) == "template_declaration" {
		member = v.Parent(member)
	}
	for p := v.Parent(member); p >= 0; p = v.Parent(p) {
		switch v.Kind(p) {
		case "compound_statement":
			return lang.VisPrivate
		case "field_declaration_list":
			if v.Parent(member) == p || strings.HasPrefix(v.Kind(v.Parent(member)), "preproc_") {
				return access(v, member, p)
			}
			return lang.VisPublic
		case "namespace_definition":
			if langutil.Child(v, p, "name") < 0 {
				return lang.VisPrivate
			}
		}
	}
	for _, c := range langutil.Children(v, n) {
		if v.Kind(c) == "storage_class_specifier" && strings.TrimSpace(v.Text(c)) == "static" {
			return lang.VisPrivate
		}
		if v.Field(c) == "declarator" || v.Field(c) == "body" {
			break
		}
	}
	return lang.VisPublic
}

// access finds the access of a member of the class body list.
func access(v *lang.View, member, list int) lang.Visibility {
	// the member's own ancestor directly in the list (it may be in a conditional)
	top := member
	for v.Parent(top) != list {
		top = v.Parent(top)
	}
	for s := native.PrevSibling(v, top); s >= 0; s = native.PrevSibling(v, s) {
		if v.Kind(s) == "access_specifier" {
			return langutil.Access(strings.TrimSpace(v.Text(s)))
		}
	}
	if v.Kind(v.Parent(list)) == "class_specifier" {
		return lang.VisPrivate
	}
	return lang.VisPublic
}
