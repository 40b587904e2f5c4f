// Package lang is the syntactic layer: it turns one file's bytes into Facts with
// tree-sitter, and it says how a language links its references across files.
// A language is a Language value registered by its own package under lang/;
// the engine here is shared. A language provides:
//
//   - a grammar and a .scm query using the captures below (or, for data
//     files, an Extract function instead of both);
//   - extraction hooks, each optional: Visibility, Package, Imports,
//     Redirect, Unwrap, Refine, Constraint, DynamicCalls and Surfaces;
//   - linking hooks, each optional: Linker, which resolves the language's
//     references across files (link.go), Stdlib, which recognises its
//     standard library among the imports, and AccessorNames and
//     RenameAccessor, the names under which other languages' code uses its
//     symbols (Kotlin's b.foo for Java's getFoo()) and how a rename
//     respells them;
//   - TestFile, optional: the naming convention that makes a file hold
//     tests (affected tests, impact and semantic_diff read it), TestLayout
//     the broader one map_repo describes, with
//     InlineTests and ModuleTests where tests live in the code they test
//     or exercise a whole module;
//   - facts about the language the engines read instead of its name:
//     Aliases and Dialects (the names filters take), NameSeparators (how
//     its users spell a member in a name: Parser::parse), Initializer (the
//     method a call of the class runs), Family (the languages
//     whose files reference each other's symbols), Ecosystem (the
//     manifests of its modules), Packages, PackageSpace, ApartSuffix and
//     NamespaceImports (which files see each other without an import),
//     Headers (files that declare what others define), Modules (dotted
//     module names and submodule imports), ItemPaths (how
//     its code names an item by its module path: crate::hir::Hir), Mains (where
//     its programs start), Dispatch and RelatedRefs (which methods a call
//     may run, which references a method's include), SharedAttributes
//     (a subclass's field of its base's field's name is that field),
//     CalledByName (members the runtime calls by name), MethodsApart and
//     TypeCallsConvert (Go's receivers and conversions), FieldType and
//     ParamTypes (declared types read from signatures), Builds (how one
//     package compiles under several builds), Overloads (same-named
//     members are overloads, not variants), PartialTypes (a type declared
//     in parts), StructuralInterfaces, the
//     ClassInterface hook and the Types checker (how types satisfy its
//     interfaces), VisibilityRule (how far its Visibility hook is to be
//     trusted), and the NotAPI and APISignature hooks (what of it
//     semantic_diff treats as API).
//
// Languages of one family share a package that holds what they have in
// common, and their own packages point their Language values at it:
// lang/ecma (JavaScript, TypeScript and TSX: imports, refinement, surfaces,
// linking), lang/classlang (Java, Kotlin and C#: signatures, docs, member
// binding, linking by package), lang/cfamily (C and C++: the query itself,
// the hooks, linking through includes) and lang/native (Rust, C and C++:
// tree navigation, refinement, symbols by lexical path). Packages that hooks
// of any language share: lang/surface (Surfaces), lang/langutil (Refine),
// lang/link (Linker).
//
// The .scm query of a language uses these capture names:
//
//	@definition.<kind> @name [@receiver]     a definition (kind: function, method, class, ...)
//	@reference.call @name [@receiver]        a call; @receiver is the qualifier (x in x.f())
//	@reference.member @name @receiver        a member access x.name
//	@reference.binding @name @receiver       a member x.name that a name reads where it
//	                                         also binds a local or names a definition
//	                                         (const { name } = x)
//	@reference.write @name                   an assignment target
//	@reference.import @name                  the imported name in an import or re-export
//	                                         specifier (import {name as alias}); bound to the
//	                                         import the Imports hook reports inside the node
//	@import [@source] [@name] [@alias]       an import (or use Language.Imports for complex forms)
//	@local.scope                             a lexical scope
//	@local.definition                        a local binding (parameter, variable)
//	@local.init                              with @local.definition: the initialiser of a
//	                                         BlockScoped binding (x := v), which does not
//	                                         see it (Local.From)
//	@local.type                              with @local.definition: the type the source declares
//	                                         for it, a type name ("T", "pkg.T") with at most a
//	                                         leading * and trailing type arguments (Local.Type);
//	                                         with @definition.field or .property: the declared
//	                                         type of the field (Def.Type)
//	@relation.extends|implements|embeds      the target type of a type relation
//	@dynamic.<kind>                          a dynamic site (kind: subscript_call, getattr,
//	                                         setattr, eval), e.g. a call through obj[name]
//	@ignore                                  an identifier that is neither a definition nor a reference
//
// Every node whose kind is in RefKinds and that is not a definition's name, a
// local definition or ignored becomes a Ref. The package must not touch the store.
//
// A language without a tree-sitter grammar (data files: JSON, YAML, TOML,
// Markdown) sets Language.Extract instead of Grammar and Query: the extractor
// then calls it with the file's bytes and uses the Facts it returns (Lang is
// filled in); none of the query machinery or the other hooks run. Such an
// extractor reports input it cannot parse as Facts with ParseErrors > 0, not as
// an error.
//
// Extensions are suffixes of a file's base name (".rb"); an entry without a
// leading dot names a whole base name ("Rakefile", "Gemfile").
//
// Adding a language with a maintained grammar takes one package with a .scm
// file (or, for a language of a family above, a package that uses the
// family's):
//
//  1. go get the grammar module at an exact version; its bindings/go package
//     gives the language pointer.
//  2. Create internal/lang/<name> with a tags.scm using the captures above
//     (start from internal/lang/golang/tags.scm) and a Go file that embeds it
//     and calls Register from init with the Language value: Name, Extensions,
//     Grammar, Query, RefKinds (the identifier node kinds), BodyKinds (where a
//     signature stops), CommentKinds and, when needed, the Visibility,
//     Imports, Refine and Surfaces hooks. Do not use text predicates (#eq?, #match?):
//     the engine does not evaluate them.
//  3. For references across files, write the language's Linker (below) in
//     a link.go of the package, and its Stdlib hook; without a Linker, the
//     language's references keep their same-file bindings only.
//  4. Import the package in internal/lang/all.
//  5. Add testdata/*.txtar fixtures and a test calling langtest.Run; run it
//     with -update to write the goldens, then read every line of them; and
//     testdata/script fixtures for what links across files.
//
// Surfaces (where code meets the outside world: HTTP routes, configuration
// keys, database tables, DI registrations, thrown exceptions, log templates)
// come from the Language.Surfaces hook, which runs after Refine with the
// file's View and Facts. A hook walks the nodes once (they are in pre-order)
// and reports Surface values; package lang/surface holds what hooks share: a
// Finder that walks the nodes and sets each surface's position and enclosing
// definition (Facts.DefAt), the SQL scanner for string literals and +
// concatenations (surface.Strings), the rules for frameworks, configuration
// keys, loggers, HTTP methods, route joining and ORM naming. The conventions:
//
//   - Value is what the outside world sees (route pattern, key, table,
//     registered type, exception type, message template); Method qualifies it
//     (HTTP method, log level, SQL verb, lifetime, accessor); Framework names
//     the library or mechanism; Detail adds the handler, implementation,
//     entity or message.
//   - Confidence is ConfHigh for a value written literally and ConfLow for one
//     built at run time (then Value is the expression's text) or derived from
//     a naming convention (a Django or JPA table without an explicit name).
//   - Def is the innermost definition around the surface; decorators and
//     annotations are attributed to the definition they decorate.
//   - A value that depends on the file's path (Next.js route files, Django
//     app labels) is flagged (SurfPathRoute, SurfAppTable) and completed by
//     queries: facts depend only on the bytes.
//   - Frameworks are recognised from the file's imports where the callee
//     names are generic (r.GET is gin only when gin is imported), so a hook
//     never needs text predicates.
//
// An Extract language (no grammar) may fill Facts.Surfaces itself (Prisma
// schemas do). The engine trims, sorts, de-duplicates and caps surfaces.
//
// Linking resolves references beyond their same-file bindings (DESIGN §5
// reference tiers). The index drives it for one batch of changes: once the
// batch's symbols are known, it starts one BatchLinker per Linker value
// (languages that share a value share the batch, and whatever their linker
// learns about other files in it), asks it to resolve each import of its
// files (import edges) and to link each file, in path order. A linker learns
// about the rest of the worktree only through the Resolver the index gives
// it: files and directories, modules, how qualified names begin, the batch's
// symbols, other files' facts, another file's imports (resolved by that
// file's language) and which imports lead outside the repository. It returns
// links with a tier: proven for a binding in the file, strong through an
// explicit import chain, unknown with no target for a reference that leads
// outside the repository. Like extraction it never touches the store; unlike
// extraction its output depends on other files, so the index relinks every
// file whose resolution may have changed.
package lang

import (
	"path"
	"slices"
	"sort"
	"strings"
	"unsafe"
)

// ExtractorVersion changes whenever extraction output may change for the same
// bytes; it is part of the blob key, so a new version re-parses everything once.
const ExtractorVersion = 129

// DocStyle says where a language keeps documentation.
type DocStyle uint8

// Documentation styles.
const (
	DocComments DocStyle = iota // comments immediately above the definition
	DocString                   // the first string statement of the body (Python)
)

// Language describes one language to the engine.
type Language struct {
	Name string // stable id: "go", "python", "typescript", "tsx", "javascript", "java", "csharp", "kotlin"
	// Title is the name people write ("TypeScript", "C#"); "" when it is
	// Name with a capital (Go, Python).
	Title      string
	Extensions []string // file name suffixes, with the dot
	// Aliases are other names users give the language in filters ("ts",
	// "py"); Dialects are the languages a filter on this one includes too
	// (TypeScript's: tsx).
	Aliases  []string
	Dialects []string
	// Family names the languages whose files reference each other's
	// symbols as one language would (TypeScript, TSX and JavaScript:
	// "ecma"); "" for a language alone.
	Family string
	// VisibilityRule says how the Visibility hook decides: RuleExport or
	// RuleModifiers; "" when it is a naming convention or there is no hook.
	VisibilityRule string
	// NotAPI says why a definition that Visibility and its enclosing
	// definitions mark public is still not its module's API (Go: a package
	// under internal/ or package main, a method of an unexported type), or
	// "" when it is; semantic_diff reports the reason as its visibility.
	// nil: the marks decide.
	NotAPI func(p string, f *Facts, def int32) string
	// APISignature trims from a definition's signature what its callers do
	// not depend on (Go: a method's receiver name). nil: all of it counts.
	APISignature func(sig string) string
	// Ecosystem is the family of manifests that declare the language's
	// modules, as module kinds name it: go, javascript, python, jvm,
	// dotnet, rust, ruby, php; "" for none.
	Ecosystem    string
	Grammar      func() unsafe.Pointer
	Query        string   // the language's .scm query
	RefKinds     []string // identifier-like node kinds that are references
	BodyKinds    []string // node kinds that start a definition's body
	CommentKinds []string
	DocStyle     DocStyle
	SelfNames    []string // receiver names that mean the enclosing class: this, self
	// NameSeparators are the ways the language's own code and docs spell
	// the step from a scope to a name in it, besides '.': Rust's and C++'s
	// "::", PHP's namespace \, Ruby's "#" before an instance method. A
	// name a user spells so, Parser::parse, names the symbol stored as
	// Parser.parse (Dotted).
	NameSeparators []string
	// Initializer names the method that initialises a new instance where
	// the extractor gives it an ordinary method's kind (Python's __init__;
	// other languages' constructors have KindConstructor): calling the
	// class runs it.
	Initializer string
	// BlockScoped languages bind a name only after its declaration.
	BlockScoped bool
	// Overloads: same-named members of one type are distinct overloads
	// (Java, Kotlin, C#, C++), never variants of one declaration.
	Overloads bool
	// PartialTypes is the modifier that declares a type in several parts,
	// each of them the one type (C#'s partial class Form1); "" for none.
	PartialTypes string
	// MergesDeclarations: the declarations of one name in one scope are one
	// symbol whatever their kinds (TypeScript's interface and const, class
	// and namespace), searched by meaning: a type's uses are the
	// interface's, a construction's the const's, and an import or export
	// of the name is every one's.
	MergesDeclarations bool
	// Packages says which files see each other's definitions without
	// importing them (affected tests, impact); PackageSpace names the
	// package namespace a PackageDeclared language shares with another
	// ("java" for Kotlin; "" for its own name).
	Packages     PackageScope
	PackageSpace string
	// ApartSuffix ends the name of a package that shares a directory
	// package's directory but stands apart from it (Go's external test
	// packages: "_test"); "" for none.
	ApartSuffix string
	// Modules, when set, names the language's modules by dotted paths
	// (Python's packages and submodules); nil: modules are files.
	Modules *DottedModules
	// ItemPaths, when set, reads a dotted name as a module path and an item,
	// the way the language's code names items (Rust: crate::ast::parse::Parser
	// is Parser in src/ast/parse.rs): ItemPath readings, the likeliest first.
	// exists says which files the worktree has; packages are the packages of
	// the language's ecosystem.
	ItemPaths func(dotted string, exists func(path string) bool, packages []Package) []ItemPath
	// Headers are the extensions of the files that declare what other
	// files define (C, C++: a function's prototype in a header, its
	// definition in a source file): one function under two file-scoped
	// symbols, which every answer about it covers.
	Headers []string
	// NamespaceImports languages import a namespace, and a file depends on
	// every file that declares the namespace it imports (C#'s using, the
	// JVM's import a.b.*).
	NamespaceImports bool
	// StructuralInterfaces: a type satisfies an interface by its method
	// set, whether it declares so or not (Go, TypeScript); otherwise only
	// by declaration.
	StructuralInterfaces bool
	// Types makes the language's type checker for one request (typecheck.go):
	// it decides whether a type's method set satisfies an interface by
	// comparing signatures. nil: a method of every name is enough.
	Types func(TypeSource) TypeChecker
	// MethodsApart: a type's methods may be declared apart from it, in any
	// file of its package, named Type.Method (Go's receivers).
	MethodsApart bool
	// TypeCallsConvert: calling a type or interface converts a value to it
	// (Go's T(x)); otherwise it makes an instance.
	TypeCallsConvert bool
	// Dispatch is which methods a call may run besides the one it names;
	// RelatedRefs which methods' references a reference query on a method
	// includes.
	Dispatch    MethodDispatch
	RelatedRefs RelatedReferences
	// CalledByName reports whether the language's runtime calls a member
	// of the name by that name (Python's special methods, __str__; Ruby's
	// initialize and to_s; JavaScript's constructor): renamed, it would not be called any more, and
	// a member renamed to it would start being called. nil: none.
	CalledByName func(name string) bool
	// RenamesDocComment says that a rename also renames the name where the
	// // comment above a declaration it renames mentions it, as the
	// language's own tool does (gopls: Foo in "// Foo does x."); elsewhere
	// such mentions are listed, edited only when asked for.
	RenamesDocComment bool
	// SharedAttributes: an object's attribute is one slot by its name,
	// whichever class of its hierarchy assigns it (Python's self.x, Ruby's
	// @x), so a subclass's field of a base class's field's name is that
	// field and a rename moves both; otherwise a subclass's field hides
	// its base's (Java, C#, C++).
	SharedAttributes bool
	// FieldType reads a field's declared type from its signature and name
	// (Go's "store Store"); nil: the text after a top-level colon
	// ("store: Store"). ParamTypes reads a function's parameters' declared
	// types, by name, and a method's receiver's (Go's "func (s *S) F(a, b
	// int)"); nil: "name: Type" lists.
	FieldType  func(sig, name string) string
	ParamTypes func(sig, name string) map[string]string
	// InlineTests is the text that marks a file holding tests of its own
	// code (Rust's #[cfg(test)] module); "" when the language has none.
	// The engines find such files in the index's text.
	InlineTests string
	// ModuleTests: the test files (TestFile) of a module exercise every
	// file of it, not only what they import (Rust's integration tests in a
	// crate's tests/ directory).
	ModuleTests bool
	// AccessorNames are the other names under which code uses a symbol of
	// the language with the given name and kind: Kotlin reads Java's
	// getFoo() as the property foo, Java calls Kotlin's property foo as
	// getFoo() and setFoo(v). A reference search looks for the symbol under
	// them too, and a change to the symbol relinks the files that use them.
	// nil: a symbol is used only under its own name.
	AccessorNames func(name string, kind DefKind) []string
	// RenameAccessor says whether a reference in another language, spelled
	// spelled (call: as a call), uses a symbol named old under an accessor
	// name, and how it is spelled once the symbol is named new: "" when the
	// new name gives it no such use (Kotlin reads no property of a Java
	// getter renamed fetchFoo) or when renaming the symbol alone cannot keep
	// it working (a Java setter's property is named by its getter).
	RenameAccessor func(old, new, spelled string, kind DefKind, call bool) (spelling string, use bool)
	// FinalNewline makes the engine parse a file that does not end with a
	// newline as if it did (positions do not change): some grammars' scanners
	// loop forever at the end of input in the middle of a token (Kotlin).
	FinalNewline bool

	// Visibility classifies a definition; nil means VisUnknown.
	Visibility func(v *View, d DefNode) Visibility
	// Package returns the package/module name a file declares (Go, Java, Kotlin,
	// C# namespace); may be nil.
	Package func(v *View) string
	// Imports expands one @import node into imports when the generic captures are
	// not enough (Python's from-imports, JS import clauses); may be nil.
	Imports func(v *View, n int) []Import
	// Redirect names another language for a file whose extension is shared
	// (a C++ header named .h); "" keeps this one. May be nil.
	Redirect func(src []byte) string
	// Unwrap returns a copy of the file's source in which the invocations
	// of macros that wrap items are rewritten so that the items parse as
	// the items they expand to, each byte at its offset (Rust's
	// ast_struct! { pub struct Expr { … } }); nil when there is none. The
	// file's parse errors stay those of its source. May be nil.
	Unwrap func(v *View) []byte
	// Refine adjusts the facts after extraction (language-specific kinds, receivers); may be nil.
	Refine func(v *View, f *Facts)
	// Constraint returns the file's build constraint (Facts.Build); may be nil.
	Constraint func(v *View) string
	// Builds, when set, says how the language compiles one package under
	// several builds: same-named definitions in different files of a
	// package are then variants of one symbol, and answers say under which
	// build each compiles. nil: such definitions are never variants.
	Builds *Builds
	// DynamicCalls are the callees that reach a name chosen at run time
	// (getattr, MethodByName, eval), by name or by "Qualifier.name"; every
	// call to one is a dynamic site of that kind.
	DynamicCalls map[string]DynKind
	// Surfaces finds the file's surfaces (routes, configuration keys, tables,
	// DI registrations, thrown exceptions, log templates) after Refine; may be
	// nil. The engine cleans, sorts, de-duplicates and caps what it returns.
	Surfaces func(v *View, f *Facts) []Surface
	// Linker links the language's references across files (link.go); nil
	// leaves them with their same-file bindings only.
	Linker *Linker
	// Stdlib reports whether an import that does not resolve in the
	// repository names the language's standard library (import edges, and
	// references that lead outside the repository); nil: none does.
	Stdlib func(im Import) bool
	// ImportName is the name an import binds when the file does not write
	// one (Go: the package's name, guessed from its path); nil: Import.LocalName.
	ImportName func(im Import) string
	// Mains, when set, says where the language's programs start.
	Mains *Mains
	// TestFile names the convention by which a file of the language holds
	// tests ("go test (*_test.go)"), or "" when it holds none, from its
	// repository path; test data and fixture directories are left out
	// before it is asked. nil: no file holds tests.
	TestFile func(p string) string
	// TestLayout names the file-name pattern by which map_repo's test
	// layout counts p as a test ("*_test.go", "conftest.py"), more broadly
	// than TestFile; decided false leaves p to the test/ and tests/
	// directories. nil: only those directories hold tests.
	TestLayout func(p string) (pattern string, decided bool)
	// Builtins are the names a file uses without declaring or importing them
	// (Go's predeclared functions and types, Python's builtins, the
	// ECMAScript globals): a call of one that binds to nothing in the
	// repository calls the language itself. nil: none.
	Builtins map[string]bool
	// ClassInterface says whether class def of a file is an interface by its
	// bases (Python's typing.Protocol and abc.ABC), and whether types satisfy
	// it by method set (a Protocol). nil: a class never is one.
	ClassInterface func(f *Facts, def int32) (iface, structural bool)

	// Extract replaces tree-sitter for languages without a grammar (Grammar and
	// Query unset): it turns a file's bytes into Facts on its own. Input it
	// cannot parse gives Facts with ParseErrors > 0, not an error.
	Extract func(src []byte) (*Facts, error)
}

// Builds describes a language's build variants (Go's build constraints).
type Builds struct {
	// PathTags are the constraints a file's path implies (Go's
	// *_linux.go, *_arm64.go, *_test.go).
	PathTags func(path string) []string
	// InDefault reports whether a file of that path and build expression
	// (Facts.Build) is compiled by the default build.
	InDefault func(path, build string) bool
	// Repeatable names may be declared any number of times in a package,
	// each declaration its own (Go's _ and init): never variants.
	Repeatable []string
}

// The visibility rules of Language.VisibilityRule; answers name them as
// the source of a visibility.
const (
	RuleExport    = "export-rule" // Go's capitalisation
	RuleModifiers = "modifiers"   // declared modifiers and keywords
)

// DisplayName is the language's name as prose writes it.
func (l *Language) DisplayName() string {
	if l.Title != "" {
		return l.Title
	}
	return strings.ToUpper(l.Name[:1]) + l.Name[1:]
}

// Repeatable reports whether a package of the language may declare name
// any number of times, each declaration its own symbol (Builds.Repeatable).
func (l *Language) Repeatable(name string) bool {
	return l.Builds != nil && slices.Contains(l.Builds.Repeatable, name)
}

// StandsApart reports whether a package of that name stands apart from the
// directory package it shares a directory with (ApartSuffix).
func (l *Language) StandsApart(pkg string) bool {
	return l.ApartSuffix != "" && len(pkg) > len(l.ApartSuffix) && strings.HasSuffix(pkg, l.ApartSuffix)
}

// RepeatableAnywhere reports whether some registered language repeats name:
// a test that needs no file's language, before the one that does.
func RepeatableAnywhere(name string) bool { return repeatable[name] }

// PackageScope is how a language groups its files into packages whose
// files see each other's definitions without an import.
type PackageScope uint8

const (
	// PackageNone: a file sees only what it imports.
	PackageNone PackageScope = iota
	// PackageDirectory: the files of one directory that declare the same
	// package (Go; an external test package x_test stands apart), which
	// other files import by the directory.
	PackageDirectory
	// PackageDeclared: the files that declare the same package or
	// namespace, wherever they are (Java, Kotlin, C#).
	PackageDeclared
)

// DefNode is what a Visibility hook sees of a definition.
type DefNode struct {
	Node int // flat node index of the definition
	Def  *Def
}

var (
	registry []*Language
	byName   = map[string]*Language{}
	byAlias  = map[string]*Language{}
	// repeatable holds the Builds.Repeatable names of every language.
	repeatable = map[string]bool{}
	// separators holds the NameSeparators of every language.
	separators []string
)

// Register adds a language. Language packages call it from init.
func Register(l *Language) {
	byName[l.Name] = l
	for _, a := range l.Aliases {
		byAlias[a] = l
	}
	if l.Builds != nil {
		for _, n := range l.Builds.Repeatable {
			repeatable[n] = true
		}
	}
	for _, sep := range l.NameSeparators {
		if !slices.Contains(separators, sep) {
			separators = append(separators, sep)
		}
	}
	// The longest first, so that "::" is not read as two ":".
	sort.SliceStable(separators, func(i, j int) bool { return len(separators[i]) > len(separators[j]) })
	registry = append(registry, l)
	sort.Slice(registry, func(i, j int) bool { return registry[i].Name < registry[j].Name })
}

// Dotted rewrites a name spelled with the separators of any registered
// language (NameSeparators) into the dotted form qualified names are stored
// in: Rack::Request#get_header is Rack.Request.get_header. ok is false when
// the name has none of them.
func Dotted(name string) (string, bool) {
	out := name
	for _, sep := range separators {
		if rest, ok := strings.CutPrefix(out, sep); ok {
			out = rest // the global scope: \Acme\Lib, ::std
		}
		out = strings.ReplaceAll(out, sep, ".")
	}
	return out, out != name
}

// All returns every registered language, sorted by name.
func All() []*Language { return registry }

// AccessorNamesOf are the names under which any language's code may use
// a symbol of this name and kind besides its own (Language.AccessorNames),
// whatever language declares it: what may need relinking when it changes.
func AccessorNamesOf(name string, kind DefKind) []string {
	var out []string
	for _, l := range registry {
		if l.AccessorNames != nil {
			out = append(out, l.AccessorNames(name, kind)...)
		}
	}
	return out
}

// ByName finds a registered language.
func ByName(name string) *Language { return byName[name] }

// unknown is what Of gives for a name no language is registered under.
var unknown = &Language{}

// Of is the registered language of that name, or, for an unknown name or
// "", a Language with no hooks and no facts: callers read its fields
// without a nil check, and must not change them.
func Of(name string) *Language {
	if l := byName[name]; l != nil {
		return l
	}
	return unknown
}

// Named finds a registered language by its name or one of its aliases.
func Named(name string) *Language {
	if l := byName[name]; l != nil {
		return l
	}
	return byAlias[name]
}

// ForFile picks the language of a file by its name and, where an extension is
// shared, by its content.
func ForFile(p string, src []byte) *Language {
	l := ForPath(p)
	if l != nil && l.Redirect != nil {
		if other := ByName(l.Redirect(src)); other != nil {
			return other
		}
	}
	return l
}

// ForPath picks the language of a file by its name, or nil.
func ForPath(p string) *Language {
	base := path.Base(p)
	var best *Language
	bestLen := 0
	for _, l := range registry {
		for _, ext := range l.Extensions {
			match := strings.HasSuffix(base, ext)
			if !strings.HasPrefix(ext, ".") {
				match = base == ext // a whole file name: Rakefile
			}
			if match && len(ext) > bestLen {
				best, bestLen = l, len(ext)
			}
		}
	}
	return best
}
