// Package rust registers Rust (.rs) with the syntactic layer: its grammar, its
// query (tags.scm), the use/extern crate/mod declarations as imports, and the
// rules for visibility, documentation and name binding.
//
// Definitions: fn (function; method inside impl and trait blocks), struct and
// union (struct), enum (enum) and its variants (enum_member), trait
// (interface), type aliases and associated types (type), const (constant),
// static (variable), mod with a body (module; nested items get the module in
// their path), macro_rules! (function: a macro is called like a function) and
// named struct fields (field). Members of impl T { } get the lexical path
// T.member, like Go methods (Receiver is T, prefixed by enclosing modules).
// Items that a macro invocation wraps in item position (ast_struct! { pub
// struct Expr … }, thread_local! { static X … }) are read as the items they
// expand to (macro_items.go).
//
// Imports: use a::b::C is {named, "a::b", C}; use a::b::c, whose last segment
// starts with a lower-case letter, is a module import binding c ({module,
// "a::b::c", c}) — a lower-case name may also be a function, which the linker
// tries next; use a::b::* is {all, "a::b"}; extern crate x and mod x; are
// {module, "x", x}, and #[path = "p.rs"] mod x; is {module, "p.rs", x}. Paths keep Rust's "::" separator, and so do the
// qualifiers of a::b::c references ("a::b").
//
// Types for linking members (x.name): a binding's declared type (c:
// &Counter, e: &'a ast::Error; a type parameter bound by one trait is that
// trait, as are impl Trait and &dyn Trait), the struct it is initialised
// with, the call of a function whose declared result is Self or a type of
// its file (Local.Via; T::default() and T::from(v) are T when the callee is
// derived or a std trait's), or the type a tuple variant declares where a
// pattern binds it; a later
// let shadows an earlier one from the end of its initialiser. Fields and
// functions record their declared type and result (Def.Type); f().name
// follows f (Ref.Via). Struct expressions and patterns qualify their field
// names by the struct (a shorthand gets a field reference beside its
// local), and names inside macro arguments are read as members, paths and
// struct fields as outside macros (macros.go).
package rust

import (
	_ "embed"
	"strings"
	"unsafe"

	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
	"github.com/cairnhq/cairn/internal/lang/native"
)

//go:embed tags.scm
var query string

// Language is Rust.
var Language = &lang.Language{
	Name:           "rust",
	Extensions:     []string{".rs"},
	Ecosystem:      "rust",
	Aliases:        []string{"rs"},
	VisibilityRule: lang.RuleModifiers,
	Grammar:        func() unsafe.Pointer { return tsrust.Language() },
	Query:          query,
	RefKinds:       []string{"identifier", "type_identifier", "field_identifier"},
	BodyKinds:      []string{"block", "declaration_list", "field_declaration_list", "enum_variant_list"},
	DocStyle:       lang.DocComments, // computed by Refine: attributes may stand between docs and item
	SelfNames:      []string{"self", "Self"},
	NameSeparators: []string{"::"},
	ItemPaths:      itemPaths,
	BlockScoped:    true,
	Visibility:     visibility,
	Imports:        Imports,
	Unwrap:         unwrap,
	Refine:         refine,
	Linker:         linker,
	Stdlib:         stdlib,
	TestFile:       testFile,
	InlineTests:    "#[cfg(test)]",
	ModuleTests:    true,
}

func init() { lang.Register(Language) }

// modifier classifies a node's own visibility_modifier: pub is public,
// pub(crate), pub(super) and pub(in path) are internal, pub(self) and none private.
func modifier(v *lang.View, n int) lang.Visibility {
	m := langutil.ChildOfKind(v, n, "visibility_modifier")
	if m < 0 {
		return lang.VisPrivate
	}
	t := strings.Join(strings.Fields(v.Text(m)), "")
	switch {
	case t == "pub":
		return lang.VisPublic
	case t == "pub(self)":
		return lang.VisPrivate
	}
	return lang.VisInternal
}

// visibility: items follow their modifier; enum variants and their fields
// follow the enum, trait members the trait, members of a trait impl are public.
func visibility(v *lang.View, d lang.DefNode) lang.Visibility {
	n := d.Node
	switch v.Kind(n) {
	case "enum_variant":
		return modifier(v, native.Ancestor(v, n, "enum_item"))
	case "field_declaration":
		if e := native.Ancestor(v, n, "enum_variant", "struct_item", "union_item"); v.Kind(e) == "enum_variant" {
			return modifier(v, native.Ancestor(v, e, "enum_item"))
		}
		return modifier(v, n)
	case "macro_definition":
		for s := native.PrevSibling(v, n); s >= 0 && v.Kind(s) == "attribute_item"; s = native.PrevSibling(v, s) {
			if strings.Contains(v.Text(s), "macro_export") {
				return lang.VisPublic
			}
		}
		return lang.VisPrivate
	}
	if p := v.Parent(n); v.Kind(p) == "declaration_list" {
		switch owner := v.Parent(p); v.Kind(owner) {
		case "trait_item":
			return modifier(v, owner)
		case "impl_item":
			if langutil.Child(v, owner, "trait") >= 0 {
				return lang.VisPublic
			}
		}
	}
	return modifier(v, n)
}

// Imports expands a use declaration, an extern crate or a mod x; declaration.
func Imports(v *lang.View, n int) []lang.Import {
	switch v.Kind(n) {
	case "use_declaration":
		arg := langutil.Child(v, n, "argument")
		if arg < 0 {
			return nil
		}
		return useTree(v, arg, "", nil, 0)
	case "extern_crate_declaration":
		name := langutil.Child(v, n, "name")
		if name < 0 {
			return nil
		}
		im := lang.Import{Kind: lang.ImportModule, Source: v.Text(name), Name: v.Text(name), Pos: v.Start(name)}
		if a := langutil.Child(v, n, "alias"); a >= 0 {
			im.Alias = v.Text(a)
		}
		return []lang.Import{im}
	case "mod_item":
		name := langutil.Child(v, n, "name")
		if name < 0 {
			return nil
		}
		source := v.Text(name)
		if p := pathAttribute(v, n); p != "" {
			source = p
		}
		return []lang.Import{{Kind: lang.ImportModule, Source: source, Name: v.Text(name), Pos: v.Start(name)}}
	}
	return nil
}

// pathAttribute is the file that #[path = "…"] before mod item n names
// ("../gen_helper.rs"), or "".
func pathAttribute(v *lang.View, n int) string {
	for s := native.PrevSibling(v, n); s >= 0 && v.Kind(s) == "attribute_item"; s = native.PrevSibling(v, s) {
		a := v.ChildOfKind(s, "attribute")
		if a < 0 {
			continue
		}
		kids := langutil.Children(v, a)
		val := langutil.Child(v, a, "value")
		if len(kids) > 0 && v.Text(kids[0]) == "path" && val >= 0 && v.Kind(val) == "string_literal" {
			return lang.Unquote(v.Text(val))
		}
	}
	return ""
}

// filePath reports whether the source of a mod import is a file that
// #[path] names rather than the module's name.
func filePath(source string) bool {
	return strings.HasSuffix(source, ".rs") || strings.Contains(source, "/")
}

// joinPath joins two "::" paths.
func joinPath(a, b string) string { return native.Join(a, b, "::") }

// pathText is a path node's text without spaces ("crate::a::b").
func pathText(v *lang.View, n int) string {
	return strings.Join(strings.Fields(v.Text(n)), "")
}

// useTree expands one use tree under a path prefix; depth counts the lists
// it is in. Lists nested deeper than lang.MaxNesting are not expanded: each
// level adds to the prefix of everything below it.
func useTree(v *lang.View, n int, prefix string, out []lang.Import, depth int) []lang.Import {
	if depth > lang.MaxNesting {
		return out
	}
	switch v.Kind(n) {
	case "identifier", "scoped_identifier", "crate", "super", "self":
		return append(out, useItem(v, n, prefix, "", v.Start(n)))
	case "use_as_clause":
		p, a := langutil.Child(v, n, "path"), langutil.Child(v, n, "alias")
		if p < 0 || a < 0 {
			return out
		}
		return append(out, useItem(v, p, prefix, v.Text(a), v.Start(a)))
	case "use_wildcard":
		src := prefix
		if kids := langutil.Children(v, n); len(kids) > 0 {
			src = joinPath(prefix, pathText(v, kids[0]))
		}
		return append(out, lang.Import{Kind: lang.ImportAll, Source: src, Pos: v.Start(n)})
	case "scoped_use_list":
		p := prefix
		if path := langutil.Child(v, n, "path"); path >= 0 {
			p = joinPath(prefix, pathText(v, path))
		}
		return useTree(v, langutil.Child(v, n, "list"), p, out, depth+1)
	case "use_list":
		for _, c := range langutil.Children(v, n) {
			out = useTree(v, c, prefix, out, depth+1)
		}
	}
	return out
}

// useItem is the import of one path (self in a list names the prefix itself).
func useItem(v *lang.View, n int, prefix, alias string, pos lang.Pos) lang.Import {
	full := joinPath(prefix, pathText(v, n))
	full = strings.TrimSuffix(full, "::self")
	src, name := "", full
	if i := strings.LastIndex(full, "::"); i >= 0 {
		src, name = full[:i], full[i+2:]
	}
	im := lang.Import{Source: src, Name: name, Alias: alias, Pos: pos}
	if alias == name {
		im.Alias = ""
	}
	if src == "" || !native.StartsUpper(name) {
		// a module (or a function: the linker tries both), bound by its last name
		im.Kind, im.Source = lang.ImportModule, full
	} else {
		im.Kind = lang.ImportNamed
	}
	return im
}
