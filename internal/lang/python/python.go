// Package python registers Python with the syntactic layer: its grammar, its
// query (tags.scm), the import forms that bind several names per statement and
// the rules for visibility, constants and name binding.
package python

import (
	_ "embed"
	"regexp"
	"strings"
	"unsafe"

	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

//go:embed tags.scm
var query string

// Modules: a.b is a/b.py or the package a/b/__init__.py.
var Modules = &lang.DottedModules{Ext: ".py", Package: "__init__.py"}

// mainGuard runs a module as a script.
var mainGuard = regexp.MustCompile(`(?m)^[ \t]*if\s+__name__\s*==\s*['"]__main__['"]\s*:`)

// Language is Python.
var Language = &lang.Language{
	Name:             "python",
	Extensions:       []string{".py", ".pyi"},
	Ecosystem:        "python",
	Modules:          Modules,
	Dispatch:         lang.DispatchUntyped,
	SharedAttributes: true,
	CalledByName:     special,
	Mains:            &lang.Mains{Guard: mainGuard, Word: "__main__", File: "__main__.py"},
	Aliases:          []string{"py"},
	Grammar:          func() unsafe.Pointer { return tspython.Language() },
	Query:            query,
	RefKinds:         []string{"identifier"},
	BodyKinds:        []string{"block"},
	CommentKinds:     []string{"comment"},
	DocStyle:         lang.DocString,
	SelfNames:        []string{"self", "cls"},
	// An entry point's object reference: pkg.cli:main, app.main:app.
	NameSeparators: []string{":"},
	Initializer:    "__init__",
	BlockScoped:    false,
	Visibility: func(v *lang.View, d lang.DefNode) lang.Visibility {
		return Visibility(d.Def.Name)
	},
	Imports: Imports,
	Refine:  refine,
	DynamicCalls: map[string]lang.DynKind{
		"getattr": lang.DynGetattr, "setattr": lang.DynSetattr, "delattr": lang.DynSetattr,
		"eval": lang.DynEval, "exec": lang.DynEval, "__import__": lang.DynEval, "import_module": lang.DynEval,
	},
	Surfaces:   Surfaces,
	TestFile:   testFile,
	TestLayout: testLayout,
	Linker:     linker,
	Stdlib:     stdlib,
	Builtins:   builtins,

	ClassInterface: classInterface,
}

func init() { lang.Register(Language) }

// Visibility is Python's naming convention: dunder names (__x__) are public,
// __x is private (name-mangled in classes), _x is internal, the rest public.
func Visibility(name string) lang.Visibility {
	switch {
	case len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__"):
		return lang.VisPublic
	case strings.HasPrefix(name, "__"):
		return lang.VisPrivate
	case strings.HasPrefix(name, "_"):
		return lang.VisInternal
	}
	return lang.VisPublic
}

// Imports expands one import statement into the names it binds:
//
//	import a.b          module "a.b" name=a     (binds a)
//	import a.b as c     module "a.b" as=c
//	from .m import X    named ".m" name=X
//	from m import Y as Z named "m" name=Y as=Z
//	from m import *     all "m"
func Imports(v *lang.View, n int) []lang.Import {
	var out []lang.Import
	switch v.Kind(n) {
	case "import_statement":
		for _, c := range v.Children(n) {
			if v.Field(c) != "name" {
				continue
			}
			switch v.Kind(c) {
			case "dotted_name":
				src := dotted(v, c)
				if src == "" {
					continue
				}
				first, _, _ := strings.Cut(src, ".")
				out = append(out, lang.Import{Kind: lang.ImportModule, Source: src, Name: first, Pos: v.Start(c)})
			case "aliased_import":
				src, alias := dotted(v, v.Child(c, "name")), v.Child(c, "alias")
				if src == "" || alias < 0 {
					continue
				}
				out = append(out, lang.Import{Kind: lang.ImportModule, Source: src, Alias: v.Text(alias), Pos: v.Start(c)})
			}
		}
	case "import_from_statement", "future_import_statement":
		src := "__future__"
		if v.Kind(n) == "import_from_statement" {
			src = moduleName(v, v.Child(n, "module_name"))
			if src == "" {
				return nil
			}
		}
		for _, c := range v.Children(n) {
			switch {
			case v.Kind(c) == "wildcard_import":
				out = append(out, lang.Import{Kind: lang.ImportAll, Source: src, Pos: v.Start(c)})
			case v.Field(c) != "name":
			case v.Kind(c) == "dotted_name":
				if name := dotted(v, c); name != "" {
					out = append(out, lang.Import{Kind: lang.ImportNamed, Source: src, Name: name, Pos: v.Start(c)})
				}
			case v.Kind(c) == "aliased_import":
				name, alias := dotted(v, v.Child(c, "name")), v.Child(c, "alias")
				if name != "" && alias >= 0 {
					out = append(out, lang.Import{Kind: lang.ImportNamed, Source: src, Name: name, Alias: v.Text(alias), Pos: v.Start(c)})
				}
			}
		}
	}
	return out
}

// dotted joins the identifiers of a dotted_name ("a.b.c"), ignoring whitespace
// and comments between them; "" for a missing node.
func dotted(v *lang.View, n int) string {
	if n < 0 {
		return ""
	}
	if v.Kind(n) == "identifier" {
		return v.Text(n)
	}
	var parts []string
	for _, c := range v.Children(n) {
		if v.Kind(c) == "identifier" {
			parts = append(parts, v.Text(c))
		}
	}
	return strings.Join(parts, ".")
}

// moduleName is the text of a from-import's module: "m.sub", ".", "..pkg".
func moduleName(v *lang.View, n int) string {
	switch v.Kind(n) {
	case "dotted_name":
		return dotted(v, n)
	case "relative_import":
		var b strings.Builder
		for _, c := range v.Children(n) {
			switch v.Kind(c) {
			case "import_prefix":
				b.WriteString(strings.Map(func(r rune) rune {
					if r == '.' {
						return r
					}
					return -1
				}, v.Text(c)))
			case "dotted_name":
				b.WriteString(dotted(v, c))
			}
		}
		return b.String()
	}
	return ""
}

// refine applies the Python rules the query cannot express.
func refine(v *lang.View, f *lang.Facts) {
	for i := range f.Defs {
		if f.Defs[i].Kind == lang.KindVariable && f.Defs[i].Parent < 0 && isConstantName(f.Defs[i].Name) {
			f.Defs[i].Kind = lang.KindConstant
		}
	}
	signatures(v, f)
	returnTypes(v, f)
	literalTypes(v, f)
	rebindings(v, f)
	attributes(v, f)
	blankCalls(v, f)
	bindNested(f)
	exportList(v, f)
}

// literalKinds are the literals whose value has a built-in type.
var literalKinds = map[string]string{
	"list": "list", "list_comprehension": "list",
	"dictionary": "dict", "dictionary_comprehension": "dict",
	"set": "set", "set_comprehension": "set",
	"string": "str", "concatenated_string": "str", "tuple": "tuple",
	"integer": "int", "float": "float",
}

// literalTypes gives a local assigned a literal (x = [], s = "a", d = {})
// the built-in type of its value, as a call of a class gives the class: a
// member of it (x.append) is the language's, not a symbol to look for in
// the repository. A name bound again to a value of another type has none
// (rebindings).
func literalTypes(v *lang.View, f *lang.Facts) {
	if len(f.Locals) == 0 {
		return
	}
	typed := map[lang.Pos]string{}
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "assignment" || v.Child(n, "type") >= 0 {
			continue
		}
		left, right := v.Child(n, "left"), v.Child(n, "right")
		if left < 0 || right < 0 || v.Kind(left) != "identifier" {
			continue
		}
		if t, ok := literalKinds[v.Kind(right)]; ok {
			typed[v.Start(left)] = t
		}
	}
	for i := range f.Locals {
		if lo := &f.Locals[i]; lo.Type == "" {
			lo.Type = typed[lo.Pos]
		}
	}
}

// returnTypes gives functions and methods the class their return
// annotation names (-> Session, -> "Session", -> Optional[Session],
// -> Session | None): a member of their call's result is looked up in it.
func returnTypes(v *lang.View, f *lang.Facts) {
	nodes := langutil.DefNodes(v, f, langutil.KindSet(v, "function_definition"))
	for i, n := range nodes {
		d := &f.Defs[i]
		if n < 0 || (d.Kind != lang.KindFunction && d.Kind != lang.KindMethod) || d.Type != "" {
			continue
		}
		if t := v.Child(n, "return_type"); t >= 0 {
			d.Type = annotatedClass(v.Text(t))
		}
	}
}

// annotatedClass is the class an annotation names, without quotes and
// without Optional or a union with None; "" for anything else.
func annotatedClass(s string) string {
	s = strings.Trim(strings.TrimSpace(s), `"'`)
	for _, opt := range []string{"Optional[", "typing.Optional["} {
		if inner, ok := strings.CutPrefix(s, opt); ok && strings.HasSuffix(inner, "]") {
			s = strings.TrimSuffix(inner, "]")
		}
	}
	if a, b, ok := strings.Cut(s, "|"); ok {
		switch {
		case strings.TrimSpace(b) == "None":
			s = a
		case strings.TrimSpace(a) == "None":
			s = b
		default:
			return ""
		}
	}
	s = strings.Trim(strings.TrimSpace(s), `"'`)
	if s == "None" || !lang.IsDottedPath(s) && !lang.IsIdentifier(s) {
		return ""
	}
	return s
}

// signatures rebuilds the signatures of definitions whose header holds comments.
// Comments between "def f():" and the first statement belong to the function
// node but come before its body block, so the engine's signature would run on
// into them; comments inside a parameter list or a multi-line value are dropped.
func signatures(v *lang.View, f *lang.Facts) {
	byStart := map[lang.Pos]int{}
	comments := false
	for i := 0; i < v.Len(); i++ {
		switch v.Kind(i) {
		case "comment":
			comments = true
		case "function_definition", "class_definition", "assignment", "type_alias_statement":
			if p := v.Start(i); byStart[p] == 0 {
				byStart[p] = i + 1
			}
		}
	}
	if !comments {
		return
	}
	for i := range f.Defs {
		d := &f.Defs[i]
		n := byStart[d.Span.Start] - 1
		if n < 0 || v.End(n) != d.Span.End {
			continue
		}
		if sig, ok := header(v, n); ok {
			d.Signature = sig
		}
	}
}

// header returns the text of definition node n up to its body without comments,
// normalised like the engine's signatures; ok is false when n has no comment
// before its body (the engine's signature is right then).
func header(v *lang.View, n int) (sig string, ok bool) {
	start, stop := v.Bytes(n)
	var cuts [][2]int
	for j := n + 1; j < v.Len(); j++ {
		sb, eb := v.Bytes(j)
		if sb >= stop {
			break
		}
		if v.Parent(j) == n && (v.Field(j) == "body" || v.Kind(j) == "comment") {
			if v.Kind(j) == "comment" {
				ok = true
			}
			stop = sb
			break
		}
		if v.Kind(j) == "comment" {
			cuts = append(cuts, [2]int{sb, eb})
			ok = true
		}
	}
	if !ok {
		return "", false
	}
	sig = lang.CollapseSpace(langutil.Without(v.Src(), start, stop, cuts))
	sig = strings.TrimSpace(strings.TrimSuffix(sig, ":"))
	return lang.Truncate(sig, lang.MaxSignature), true
}

// isConstantName reports whether a name follows the ALL_CAPS constant convention.
func isConstantName(s string) bool {
	upper := 0
	for _, c := range s {
		switch {
		case c >= 'A' && c <= 'Z':
			upper++
		case c == '_' || (c >= '0' && c <= '9'):
		default:
			return false
		}
	}
	return upper > 0 && len(s) > 1
}

// binding is where a name resolves: a local (index into Facts.Locals), a
// definition or an import; -1 for none of them.
type binding struct{ local, def, imp int32 }

var unbound = binding{-1, -1, -1}

// localKey identifies a variable: a name in a scope.
type localKey struct {
	scope int32
	name  uint32
}

// rebindings keeps one local per variable. Python has one variable per name and
// scope, so a binding after the first (x = 1 ... x = 2, an assigned parameter, a
// reused loop variable) becomes a write reference to the first one. A name
// declared global or nonlocal in a scope is no local of that scope at all: its
// bindings become write references to the module-level or enclosing variable,
// and reads bound to it follow.
func rebindings(v *lang.View, f *lang.Facts) {
	if len(f.Locals) == 0 {
		return
	}
	declared := declarations(v, f) // true: global, false: nonlocal
	first := make(map[localKey]int32, len(f.Locals))
	for i, lo := range f.Locals {
		k := localKey{lo.Scope, lo.Name}
		if _, ok := declared[k]; ok {
			continue
		}
		if _, ok := first[k]; !ok {
			first[k] = int32(i)
		}
	}
	if len(first) == len(f.Locals) {
		return
	}
	outer := func(k localKey, global bool) binding {
		if !global {
			for s := f.Scopes[k.scope].Parent; s >= 0; s = f.Scopes[s].Parent {
				if j, ok := first[localKey{s, k.name}]; ok {
					return binding{j, -1, -1}
				}
			}
			return unbound
		}
		name := f.Names[k.name]
		for i, d := range f.Defs {
			if d.Parent < 0 && d.Name == name {
				return binding{-1, int32(i), -1}
			}
		}
		for i, im := range f.Imports {
			if im.LocalName() == name {
				return binding{-1, -1, int32(i)}
			}
		}
		if j, ok := first[localKey{-1, k.name}]; ok {
			return binding{j, -1, -1}
		}
		return unbound
	}
	// Where each local goes; kept locals get their new index.
	target := make([]binding, len(f.Locals))
	// A variable bound with different types (or once without one) has none.
	mixed := map[int32]bool{}
	newIndex := make([]int32, len(f.Locals))
	kept := make([]lang.Local, 0, len(first))
	for i, lo := range f.Locals {
		k := localKey{lo.Scope, lo.Name}
		newIndex[i] = -1
		if global, ok := declared[k]; ok {
			target[i] = outer(k, global)
		} else if j := first[k]; j != int32(i) {
			target[i] = binding{j, -1, -1}
			if lo.Type != f.Locals[j].Type {
				mixed[j] = true
			}
		} else {
			newIndex[i] = int32(len(kept))
			target[i] = binding{int32(i), -1, -1}
			kept = append(kept, lo)
		}
	}
	// resolve maps an old local index to the binding that replaces it.
	resolve := func(i int32) binding {
		b := target[i]
		if b.local >= 0 {
			b.local = newIndex[b.local]
		}
		return b
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.BindLocal >= 0 {
			b := resolve(r.BindLocal)
			r.BindLocal, r.BindDef, r.BindImp = b.local, b.def, b.imp
		}
	}
	for i, lo := range f.Locals {
		if newIndex[i] >= 0 {
			continue
		}
		b := resolve(int32(i))
		f.Refs = append(f.Refs, lang.Ref{
			Name: lo.Name, Pos: lo.Pos, Role: lang.RoleWrite,
			Enclosing: langutil.Enclosing(f, lo.Pos), Scope: lo.Scope,
			BindLocal: b.local, BindDef: b.def, BindImp: b.imp,
		})
	}
	for j := range mixed {
		kept[newIndex[j]].Type = ""
	}
	f.Locals = kept
	if len(kept) == 0 {
		f.Locals = nil // as the codec decodes it
	}
	langutil.SortRefs(f)
}

// declarations finds the names declared global (true) or nonlocal (false), by
// the scope that declares them.
func declarations(v *lang.View, f *lang.Facts) map[localKey]bool {
	var out map[localKey]bool
	var ids map[string]uint32
	for i := 0; i < v.Len(); i++ {
		kind := v.Kind(i)
		if kind != "global_statement" && kind != "nonlocal_statement" {
			continue
		}
		if ids == nil {
			out = map[localKey]bool{}
			ids = make(map[string]uint32, len(f.Names))
			for id, n := range f.Names {
				ids[n] = uint32(id)
			}
		}
		scope := langutil.InnermostScope(f, v.Start(i))
		for _, c := range v.Children(i) {
			if id, ok := ids[v.Text(c)]; ok && v.Kind(c) == "identifier" {
				out[localKey{scope, id}] = kind == "global_statement"
			}
		}
	}
	return out
}

// blankCalls adds the calls of a function named _, which the engine drops as
// Go's blank identifier: in Python _ is an ordinary name, by convention the
// gettext function (from django.utils.translation import gettext as _).
func blankCalls(v *lang.View, f *lang.Facts) {
	var calls []lang.Ref
	for i := 0; i < v.Len(); i++ {
		if v.Kind(i) != "identifier" || v.Field(i) != "function" || v.Kind(v.Parent(i)) != "call" {
			continue
		}
		if sb, eb := v.Bytes(i); eb-sb != 1 || v.Src()[sb] != '_' {
			continue
		}
		p := v.Start(i)
		calls = append(calls, lang.Ref{
			Pos: p, Role: lang.RoleCall, Enclosing: langutil.Enclosing(f, p), Scope: langutil.InnermostScope(f, p),
			BindLocal: -1, BindDef: -1, BindImp: -1,
		})
	}
	if len(calls) == 0 {
		return
	}
	name := uint32(len(f.Names))
	for id, n := range f.Names {
		if n == "_" {
			name = uint32(id)
			break
		}
	}
	if name == uint32(len(f.Names)) {
		f.Names = append(f.Names, "_")
	}
	b := unbound
	for i, d := range f.Defs {
		if d.Parent < 0 && d.Name == "_" {
			b.def = int32(i)
			break
		}
	}
	if b.def < 0 {
		for i, im := range f.Imports {
			if im.LocalName() == "_" {
				b.imp = int32(i)
				break
			}
		}
	}
	locals := map[int32]int32{} // scope -> its local _
	for i, lo := range f.Locals {
		if _, ok := locals[lo.Scope]; !ok && lo.Name == name {
			locals[lo.Scope] = int32(i)
		}
	}
	for i := range calls {
		r := &calls[i]
		r.Name, r.BindDef, r.BindImp = name, b.def, b.imp
		for s := r.Scope; ; s = f.Scopes[s].Parent { // a local _ in the scope chain wins
			if li, ok := locals[s]; ok {
				r.BindLocal, r.BindDef, r.BindImp = li, -1, -1
				break
			}
			if s < 0 {
				break
			}
		}
	}
	f.Refs = append(f.Refs, calls...)
	langutil.SortRefs(f)
}

// bindNested binds bare names (and the first name of qualifiers) to functions and
// classes defined in an enclosing function or class body, which the engine only
// does for top-level definitions. Python's rule: a function sees the names of
// enclosing functions, but not those of an enclosing class body.
func bindNested(f *lang.Facts) {
	nested := langutil.NewMembers(f, nil)
	if len(nested) == 0 {
		return
	}
	langutil.BindNested(f, func(from int32, name string) int32 {
		crossed := false
		for d := from; d >= 0; d = f.Defs[d].Parent {
			kind := f.Defs[d].Kind
			if kind == lang.KindClass && crossed {
				continue
			}
			if i := nested.Of(d, name); i >= 0 {
				return i
			}
			if kind == lang.KindFunction || kind == lang.KindMethod {
				crossed = true
			}
		}
		return -1
	})
}

// special reports whether name is a special method's or attribute's,
// __name__, which Python looks up by its name (__str__, __eq__, __all__).
func special(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}
