// Package ecma holds what JavaScript, TypeScript and TSX share: the query
// patterns of common.scm and jsx.scm (Query) and the language hooks: import
// expansion (ES modules, CommonJS require, re-exports), the visibility rules
// of modules and classes, and the clean-ups of Refine. The grammars differ in
// details (class names are identifiers in JavaScript and type identifiers in
// TypeScript, fields are field_definition or public_field_definition), so the
// hooks go by node kinds that both use.
package ecma

import (
	"strings"
	"unsafe"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// refKinds are the identifier-like node kinds that become references.
func refKinds(typed bool) []string {
	k := []string{"identifier", "property_identifier", "shorthand_property_identifier", "private_property_identifier"}
	if typed {
		k = append(k, "type_identifier")
	}
	return k
}

// NewLanguage is a language of the family: the hooks, the linker, the
// standard library and the globals are the family's. A dialect gives its
// names, grammar and query, whether it writes types (typed: type
// identifiers are references too), the node kinds that start a body and
// its refinement.
func NewLanguage(name, title string, exts []string, grammar func() unsafe.Pointer, query string, typed bool, bodyKinds []string, refine func(*lang.View, *lang.Facts)) *lang.Language {
	return &lang.Language{
		Name:           name,
		Title:          title,
		Extensions:     exts,
		Family:         "ecma",
		Ecosystem:      "javascript",
		VisibilityRule: lang.RuleModifiers,
		Grammar:        grammar,
		Query:          query,
		RefKinds:       refKinds(typed),
		BodyKinds:      bodyKinds,
		CommentKinds:   []string{"comment"},
		DocStyle:       lang.DocComments,
		SelfNames:      SelfNames,
		// MDN's spelling of an instance member: Array.prototype.map.
		NameSeparators: []string{".prototype."},
		ItemPaths:      ItemPaths,
		BlockScoped:    true,
		// TypeScript's interfaces are structural; JavaScript has none.
		StructuralInterfaces: typed,
		MergesDeclarations:   typed,
		// new C() runs the method named constructor
		CalledByName: func(name string) bool { return name == "constructor" },
		Visibility:   Visibility,
		Imports:      Imports,
		Refine:       refine,
		DynamicCalls: DynamicCalls,
		Surfaces:     Surfaces,
		TestFile:     TestFile,
		TestLayout:   TestLayout,
		RelatedRefs:  lang.RelatedFamily,
		Linker:       Linker,
		Stdlib:       Stdlib,
		Builtins:     Globals,
	}
}

// SelfNames are the receivers that mean the enclosing class.
var SelfNames = []string{"this"}

// DynamicCalls are the calls that reach names chosen at run time.
var DynamicCalls = map[string]lang.DynKind{
	"eval": lang.DynEval, "Function": lang.DynEval,
	"Reflect.get": lang.DynGetattr, "Reflect.apply": lang.DynGetattr, "Reflect.construct": lang.DynGetattr,
	"Reflect.set": lang.DynSetattr, "Reflect.defineProperty": lang.DynSetattr, "Object.defineProperty": lang.DynSetattr,
}

// Imports expands one @import node: an import statement, a re-export, a
// require call bound by a declarator or standing alone, or a dynamic import().
func Imports(v *lang.View, n int) []lang.Import {
	switch v.Kind(n) {
	case "import_statement":
		return importStatement(v, n)
	case "export_statement":
		return reexport(v, n)
	case "variable_declarator":
		return requireDeclarator(v, n)
	case "call_expression":
		src := requireSource(v, n)
		if src < 0 {
			return nil
		}
		im := lang.Import{Source: lang.Unquote(v.Text(src)), Kind: lang.ImportSideEffect, Pos: v.Start(src)}
		if v.Kind(langutil.Child(v, n, "function")) == "import" {
			im.Kind = lang.ImportModule // import("./x"): the module, bound to nothing by name
		}
		return []lang.Import{im}
	}
	return nil
}

func importStatement(v *lang.View, n int) []lang.Import {
	srcNode := langutil.Child(v, n, "source")
	var out []lang.Import
	for _, c := range langutil.Children(v, n) {
		switch v.Kind(c) {
		case "import_clause":
			if srcNode < 0 {
				return nil
			}
			out = appendClause(v, out, c, lang.Unquote(v.Text(srcNode)))
		case "import_require_clause": // TypeScript: import fs = require("fs")
			s := langutil.Child(v, c, "source")
			id := langutil.ChildOfKind(v, c, "identifier")
			if s < 0 || id < 0 {
				return nil
			}
			out = append(out, lang.Import{Source: lang.Unquote(v.Text(s)), Alias: v.Text(id), Kind: lang.ImportModule, Pos: v.Start(id)})
		}
	}
	if out == nil && srcNode >= 0 && langutil.ChildOfKind(v, n, "import_clause") < 0 {
		out = append(out, lang.Import{Source: lang.Unquote(v.Text(srcNode)), Kind: lang.ImportSideEffect, Pos: v.Start(srcNode)})
	}
	return out
}

func appendClause(v *lang.View, out []lang.Import, clause int, source string) []lang.Import {
	for _, c := range langutil.Children(v, clause) {
		switch v.Kind(c) {
		case "identifier": // import X from
			out = append(out, lang.Import{Source: source, Name: "default", Alias: v.Text(c), Kind: lang.ImportDefault, Pos: v.Start(c)})
		case "namespace_import": // import * as ns from
			if id := langutil.ChildOfKind(v, c, "identifier"); id >= 0 {
				out = append(out, lang.Import{Source: source, Alias: v.Text(id), Kind: lang.ImportNamespace, Pos: v.Start(id)})
			}
		case "named_imports": // import {A, B as C} from
			for _, s := range langutil.Children(v, c) {
				if v.Kind(s) == "import_specifier" {
					out = appendSpecifier(v, out, s, source)
				}
			}
		}
	}
	return out
}

// appendSpecifier adds one import or export specifier {name as alias}.
func appendSpecifier(v *lang.View, out []lang.Import, s int, source string) []lang.Import {
	name := langutil.Child(v, s, "name")
	if name < 0 {
		return out
	}
	im := lang.Import{Source: source, Name: lang.Unquote(v.Text(name)), Kind: lang.ImportNamed, Pos: v.Start(name)}
	if alias := langutil.Child(v, s, "alias"); alias >= 0 {
		if a := lang.Unquote(v.Text(alias)); a != im.Name {
			im.Alias = a
		}
		im.Pos = v.Start(alias)
	}
	return append(out, im)
}

// reexport records export ... from "m" as imports, so the dependency exists.
func reexport(v *lang.View, n int) []lang.Import {
	srcNode := langutil.Child(v, n, "source")
	if srcNode < 0 {
		return nil
	}
	source := lang.Unquote(v.Text(srcNode))
	var out []lang.Import
	for _, c := range langutil.Children(v, n) {
		switch v.Kind(c) {
		case "export_clause":
			for _, s := range langutil.Children(v, c) {
				if v.Kind(s) == "export_specifier" {
					out = appendSpecifier(v, out, s, source)
				}
			}
			if out == nil { // export {} from "m"
				out = append(out, lang.Import{Source: source, Kind: lang.ImportSideEffect, Pos: v.Start(srcNode)})
			}
			return out
		case "namespace_export": // export * as ns from "m"
			if id := langutil.Children(v, c); len(id) > 0 {
				return []lang.Import{{Source: source, Alias: lang.Unquote(v.Text(id[0])), Kind: lang.ImportNamespace, Pos: v.Start(id[0])}}
			}
		}
	}
	return []lang.Import{{Source: source, Kind: lang.ImportAll, Pos: v.Start(srcNode)}}
}

// requireSource returns the string argument of require("m") or import("m"),
// or -1 when call is not such a call.
func requireSource(v *lang.View, call int) int {
	if v.Kind(call) != "call_expression" {
		return -1
	}
	fn := langutil.Child(v, call, "function")
	switch v.Kind(fn) {
	case "identifier":
		if v.Text(fn) != "require" {
			return -1
		}
	case "import":
	default:
		return -1
	}
	args := langutil.Child(v, call, "arguments")
	if args < 0 {
		return -1
	}
	kids := langutil.Children(v, args)
	if len(kids) != 1 || v.Kind(kids[0]) != "string" {
		return -1
	}
	return kids[0]
}

// requireCall reports the require call that a declarator's value is, directly
// or through one member access (require("m").x), and that member's node.
func requireCall(v *lang.View, decl int) (src, member int) {
	value := langutil.Child(v, decl, "value")
	member = -1
	if v.Kind(value) == "member_expression" {
		member = langutil.Child(v, value, "property")
		value = langutil.Child(v, value, "object")
	}
	src = requireSource(v, value)
	if src < 0 || v.Kind(langutil.Child(v, value, "function")) != "identifier" {
		return -1, -1
	}
	return src, member
}

// requireDeclarator expands const x = require("m"), const {a, b: c} = require("m")
// and const x = require("m").y.
func requireDeclarator(v *lang.View, n int) []lang.Import {
	src, member := requireCall(v, n)
	if src < 0 {
		return nil
	}
	source := lang.Unquote(v.Text(src))
	name := langutil.Child(v, n, "name")
	switch {
	case member >= 0:
		if v.Kind(name) != "identifier" {
			return nil
		}
		im := lang.Import{Source: source, Name: v.Text(member), Kind: lang.ImportNamed, Pos: v.Start(name)}
		if a := v.Text(name); a != im.Name {
			im.Alias = a
		}
		return []lang.Import{im}
	case v.Kind(name) == "identifier":
		return []lang.Import{{Source: source, Alias: v.Text(name), Kind: lang.ImportModule, Pos: v.Start(name)}}
	case v.Kind(name) == "object_pattern":
		var out []lang.Import
		for _, c := range langutil.Children(v, name) {
			switch v.Kind(c) {
			case "shorthand_property_identifier_pattern":
				out = append(out, lang.Import{Source: source, Name: v.Text(c), Kind: lang.ImportNamed, Pos: v.Start(c)})
			case "pair_pattern":
				key, val := langutil.Child(v, c, "key"), langutil.Child(v, c, "value")
				if key >= 0 && v.Kind(val) == "identifier" {
					out = append(out, lang.Import{Source: source, Name: lang.Unquote(v.Text(key)), Alias: v.Text(val), Kind: lang.ImportNamed, Pos: v.Start(val)})
				}
			}
		}
		if out != nil {
			return out
		}
	}
	return []lang.Import{{Source: source, Kind: lang.ImportModule, Pos: v.Start(src)}}
}

// requireBindings lists the binding identifiers of a require declarator and
// the member names it takes from the module (destructuring keys, require("m").x).
func requireBindings(v *lang.View, decl int) (names, keys []int) {
	src, member := requireCall(v, decl)
	if src < 0 {
		return nil, nil
	}
	if member >= 0 {
		keys = append(keys, member)
	}
	name := langutil.Child(v, decl, "name")
	switch v.Kind(name) {
	case "identifier":
		names = append(names, name)
	case "object_pattern":
		for _, c := range langutil.Children(v, name) {
			switch v.Kind(c) {
			case "shorthand_property_identifier_pattern":
				names = append(names, c)
			case "pair_pattern":
				if val := langutil.Child(v, c, "value"); v.Kind(val) == "identifier" {
					names = append(names, val)
					keys = append(keys, langutil.Child(v, c, "key"))
				}
			}
		}
	}
	return names, keys
}

// Visibility classifies a definition. Module-level declarations are public when
// exported (or ambient: declare ...), private otherwise; class members follow
// their accessibility modifier or #private name; interface, type-literal and
// enum members are public.
func Visibility(v *lang.View, d lang.DefNode) lang.Visibility {
	n := d.Node
	switch v.Kind(n) {
	case "method_definition", "public_field_definition", "field_definition", "abstract_method_signature",
		"required_parameter", "optional_parameter": // parameter properties
		return memberVisibility(v, n)
	case "method_signature", "property_signature":
		if v.Kind(v.Parent(n)) == "class_body" {
			return memberVisibility(v, n)
		}
		return lang.VisPublic
	}
	if d.Def.Kind == lang.KindEnumMember {
		return lang.VisPublic
	}
	p := v.Parent(n)
	if v.Kind(n) == "variable_declarator" {
		p = v.Parent(p)
	}
	switch v.Kind(p) {
	case "export_statement", "ambient_declaration":
		return lang.VisPublic
	}
	for ; p >= 0; p = v.Parent(p) {
		switch v.Kind(p) {
		case "ambient_declaration": // inside declare module / namespace / global
			return lang.VisPublic
		case "statement_block", "class_body":
			switch v.Kind(v.Parent(p)) {
			case "internal_module", "module", "ambient_declaration":
			default:
				return lang.VisPrivate // local to a function or class
			}
		}
	}
	return lang.VisPrivate
}

func memberVisibility(v *lang.View, n int) lang.Visibility {
	// modifiers come before the name; stop there rather than walk the body
	for j := n + 1; j < v.Len() && v.Parent(j) >= n; j++ {
		if v.Parent(j) != n {
			continue
		}
		switch v.Kind(j) {
		case "accessibility_modifier":
			if vis := langutil.Access(strings.TrimSpace(v.Text(j))); vis != lang.VisPublic {
				return vis
			}
		case "private_property_identifier":
			if f := v.Field(j); f == "name" || f == "property" {
				return lang.VisPrivate
			}
		}
		if f := v.Field(j); f == "name" || f == "property" || f == "pattern" {
			return lang.VisPublic
		}
	}
	return lang.VisPublic
}

// Refine runs after extraction:
//   - a method named constructor becomes a constructor, and its parameter
//     properties (constructor(private x: T)) properties of its class;
//   - module-level definitions named in export {...}, export default X,
//     export = X, module.exports or exports.X become public;
//   - variables bound by require(...) are imports, not definitions: their
//     definitions are dropped and references to them bind to the import;
//   - lower-case JSX tags (<div>) are intrinsic elements, not references, and
//     neither are the member names a require takes ({a: b} = require("m"));
//   - comments inside a signature (JSDoc on the overloads of a typed const)
//     are left out of it;
//   - a member reached through a non-null assertion (x!.m, this.x!.m) is
//     qualified as without it (x.m, this.x.m), as x?.m already is;
//   - the definition the module exports as a whole (export default, export
//     =, module.exports = X) is its DefaultExport (exports.go);
//
// JavaScript adds ThisProperties (TypeScript declares its fields: there a
// this.x no class body declares is a base class's).
func Refine(v *lang.View, f *lang.Facts) {
	cleanSignatures(v, f)
	nonNull(v, f)
	exported := map[string]bool{}
	requires := map[lang.Pos]bool{}
	dropRef := map[lang.Pos]bool{} // references that are not references
	root := v.Root()
	for i := 0; i < v.Len(); i++ {
		switch v.Kind(i) {
		case "export_statement":
			if v.Parent(i) == root && langutil.Child(v, i, "source") < 0 {
				exportNames(v, i, exported)
			}
		case "assignment_expression":
			if st := v.Parent(i); v.Kind(st) == "expression_statement" && v.Parent(st) == root {
				commonJSExports(v, i, exported)
			}
		case "variable_declarator":
			names, keys := requireBindings(v, i)
			for _, b := range names {
				requires[v.Start(b)] = true
				if v.Kind(b) == "shorthand_property_identifier_pattern" {
					dropRef[v.Start(b)] = true // const { a } = require("m") imports a
				}
			}
			for _, k := range keys {
				dropRef[v.Start(k)] = true // the member a require destructures or selects
			}
		case "jsx_opening_element", "jsx_self_closing_element":
			if name := langutil.Child(v, i, "name"); v.Kind(name) == "identifier" {
				if t := v.Text(name); t != "" && (t[0] >= 'a' && t[0] <= 'z' || strings.Contains(t, "-")) {
					dropRef[v.Start(name)] = true
				}
			}
		}
	}
	var drop []bool
	for i := range f.Defs {
		d := &f.Defs[i]
		if d.Kind == lang.KindMethod && d.Name == "constructor" && d.Parent >= 0 && f.Defs[d.Parent].Kind == lang.KindClass {
			d.Kind = lang.KindConstructor
		}
		if d.Kind == lang.KindProperty && d.Parent >= 0 && f.Defs[d.Parent].Kind == lang.KindConstructor {
			// a parameter property: a property of the constructor's class
			d.Parent = f.Defs[d.Parent].Parent
			d.Path = f.ChildPath(d.Parent, d.Name)
		}
		if d.Parent >= 0 {
			continue
		}
		if d.Visibility == lang.VisPrivate && exported[d.Name] {
			d.Visibility = lang.VisPublic
		}
		if requires[d.NameSpan.Start] && (d.Kind == lang.KindVariable || d.Kind == lang.KindFunction) {
			if drop == nil {
				drop = make([]bool, len(f.Defs))
			}
			drop[i] = true
		}
	}
	langutil.DropRefsAt(f, dropRef)
	if drop != nil {
		dropDefs(f, drop)
	}
	callValues(f)
	defaultExport(v, f)
	docLinks(v, f)
}

// nonNull qualifies the member references whose receiver is a non-null
// assertion of a name, this, or a dotted path by the expression asserted.
func nonNull(v *lang.View, f *lang.Facts) {
	inner := map[lang.Pos]int{} // member name position -> asserted expression
	for i := 0; i < v.Len(); i++ {
		if v.Kind(i) != "member_expression" {
			continue
		}
		obj, prop := langutil.Child(v, i, "object"), langutil.Child(v, i, "property")
		if obj < 0 || prop < 0 || v.Kind(obj) != "non_null_expression" {
			continue
		}
		for _, c := range langutil.Children(v, obj) {
			// the grammar reads a - b!.m as (a - b)!.m: the assertion is b's
			for c >= 0 && v.Kind(c) == "binary_expression" {
				c = langutil.Child(v, c, "right")
			}
			if c < 0 {
				break
			}
			if k := v.Kind(c); k == "identifier" || k == "this" || k == "member_expression" {
				inner[v.Start(prop)] = c
				break
			}
		}
	}
	if len(inner) == 0 {
		return
	}
	refAt := map[lang.Pos]int{}
	for i, r := range f.Refs {
		if _, ok := refAt[r.Pos]; !ok {
			refAt[r.Pos] = i
		}
	}
	var names map[string]uint32
	name := func(s string) uint32 {
		if names == nil {
			names = make(map[string]uint32, len(f.Names))
			for i, n := range f.Names {
				if _, ok := names[n]; !ok {
					names[n] = uint32(i)
				}
			}
		}
		if id, ok := names[s]; ok {
			return id
		}
		names[s] = uint32(len(f.Names))
		f.Names = append(f.Names, s)
		return names[s]
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		n, ok := inner[r.Pos]
		if !ok || r.Shape != lang.QualExpr {
			continue
		}
		text := v.Text(n)
		switch v.Kind(n) {
		case "this":
			r.Shape = lang.QualSelf
		case "identifier":
			r.Shape = lang.QualIdent
		default:
			if !dottedPath(text) {
				continue
			}
			r.Shape = lang.QualPath
		}
		r.Qualifier = name(text)
		if r.Shape == lang.QualSelf {
			continue
		}
		// the qualifier binds as its first name does
		if j, ok := refAt[v.Start(n)]; ok {
			q := f.Refs[j]
			switch {
			case q.BindLocal >= 0 || q.BindDef >= 0:
				r.QualBound = true
			case q.BindImp >= 0:
				r.BindImp = q.BindImp
			}
		}
	}
}

// dottedPath reports whether s is names joined by dots (this.a.b).
func dottedPath(s string) bool {
	parts := strings.Split(s, ".")
	for _, p := range parts {
		if p == "" {
			return false
		}
		for _, c := range p {
			if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c > 127) {
				return false
			}
		}
	}
	return len(parts) > 1
}

// callValues binds calls and constructions of a name with several top-level
// definitions (a merged interface and const, or class) to the first one that
// is a value: the engine binds a name to its first definition, and an
// interface or a type alias cannot be called.
func callValues(f *lang.Facts) {
	var value map[string]int32
	first := map[string]int32{}
	for i, d := range f.Defs {
		if d.Parent >= 0 {
			continue
		}
		j, seen := first[d.Name]
		if !seen {
			first[d.Name] = int32(i)
			continue
		}
		if isTypeKind(f.Defs[j].Kind) && !isTypeKind(d.Kind) {
			if value == nil {
				value = map[string]int32{}
			}
			if _, ok := value[d.Name]; !ok {
				value[d.Name] = int32(i)
			}
		}
	}
	if value == nil {
		return
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.Role != lang.RoleCall || r.BindDef < 0 || r.Shape != lang.QualNone {
			continue
		}
		if v, ok := value[f.Names[r.Name]]; ok && r.BindDef == first[f.Names[r.Name]] {
			r.BindDef = v
		}
	}
}

func isTypeKind(k lang.DefKind) bool { return k == lang.KindInterface || k == lang.KindType }

// exportNames collects the local names a module-level export statement exports.
func exportNames(v *lang.View, n int, out map[string]bool) {
	for _, c := range langutil.Children(v, n) {
		switch v.Kind(c) {
		case "export_clause":
			for _, s := range langutil.Children(v, c) {
				if name := langutil.Child(v, s, "name"); v.Kind(s) == "export_specifier" && name >= 0 {
					out[v.Text(name)] = true
				}
			}
		case "identifier": // export default X; export = X
			out[v.Text(c)] = true
		}
	}
}

// commonJSExports handles module.exports = X | {a, b: c} and exports.a = X.
func commonJSExports(v *lang.View, n int, out map[string]bool) {
	left, right := langutil.Child(v, n, "left"), langutil.Child(v, n, "right")
	if v.Kind(left) != "member_expression" || right < 0 {
		return
	}
	target := v.Text(left)
	switch {
	case target == "module.exports":
		switch v.Kind(right) {
		case "identifier":
			out[v.Text(right)] = true
		case "object":
			for _, c := range langutil.Children(v, right) {
				switch v.Kind(c) {
				case "shorthand_property_identifier":
					out[v.Text(c)] = true
				case "pair":
					if val := langutil.Child(v, c, "value"); v.Kind(val) == "identifier" {
						out[v.Text(val)] = true
					}
				}
			}
		}
	case strings.HasPrefix(target, "exports.") || strings.HasPrefix(target, "module.exports."):
		if v.Kind(right) == "identifier" {
			out[v.Text(right)] = true
		}
	}
}

// dropDefs removes the marked top-level definitions and renumbers every index
// into Defs. References bound to a dropped definition bind to the import that
// brings the same name in, if any.
func dropDefs(f *lang.Facts, drop []bool) {
	target := make([]int32, len(f.Defs))
	dropped := map[string]bool{}
	for i, d := range f.Defs {
		target[i] = int32(i)
		if drop[i] {
			target[i] = -1
			dropped[d.Name] = true
		}
	}
	importByName := f.ImportByName()
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.BindDef >= 0 && drop[r.BindDef] {
			if imp, ok := importByName[f.Names[r.Name]]; ok {
				r.BindImp = imp
			}
		}
		if r.QualBound && (r.Shape == lang.QualIdent || r.Shape == lang.QualPath) {
			q, _, _ := strings.Cut(f.Names[r.Qualifier], ".")
			if dropped[q] && !bindsLocal(f, r, q) {
				r.QualBound = false
				if imp, ok := importByName[q]; ok {
					r.BindImp = imp
				}
			}
		}
	}
	langutil.DropDefs(f, target)
}

// bindsLocal reports whether name binds to a local in r's scope chain (the
// engine's rule for block-scoped languages).
func bindsLocal(f *lang.Facts, r *lang.Ref, name string) bool {
	for s := r.Scope; ; s = f.Scopes[s].Parent {
		for _, lo := range f.Locals {
			if lo.Scope == s && f.Names[lo.Name] == name && !r.Pos.Before(lo.Pos) {
				return true
			}
		}
		if s < 0 {
			return false
		}
	}
}

// bodyKinds start a definition's body in either grammar (the languages' BodyKinds).
var bodyKinds = map[string]bool{"statement_block": true, "class_body": true, "interface_body": true, "enum_body": true}

// cleanSignatures recomputes, without the comments in it, the signature of
// each definition whose signature contains one: the engine's signature is the
// definition's text up to its body, comments included. An object literal is
// the body of the variable it initialises (const api = {...} is "api = {…}"),
// and an arrow function's expression is its body (const f = (x) => x is "f = (x)").
func cleanSignatures(v *lang.View, f *lang.Facts) {
	spans := map[lang.Span]bool{}
	for _, d := range f.Defs {
		if strings.Contains(d.Signature, "/*") || strings.Contains(d.Signature, "//") ||
			d.Kind == lang.KindVariable && strings.Contains(d.Signature, "= {") ||
			(d.Kind == lang.KindFunction || d.Kind == lang.KindProperty) && strings.Contains(d.Signature, "=>") {
			spans[d.Span] = true
		}
	}
	if len(spans) == 0 {
		return
	}
	for n := 0; n < v.Len() && len(spans) > 0; n++ {
		sp := v.Span(n)
		if !spans[sp] {
			continue
		}
		delete(spans, sp) // the outermost node with the span is the definition's
		for i := range f.Defs {
			if f.Defs[i].Span == sp {
				f.Defs[i].Signature = signature(v, n)
			}
		}
	}
}

// signature is the engine's signature rule with comments cut out.
func signature(v *lang.View, n int) string {
	_, stop := v.Bytes(n)
	suffix := ""
	switch k := v.Kind(n); k {
	case "variable_declarator", "public_field_definition", "field_definition":
		switch value := langutil.Child(v, n, "value"); v.Kind(value) {
		case "object":
			if k == "variable_declarator" {
				stop, _ = v.Bytes(value)
				suffix = "{…}"
			}
		case "arrow_function":
			if body := langutil.Child(v, value, "body"); body >= 0 && !bodyKinds[v.Kind(body)] {
				stop, _ = v.Bytes(body)
			}
		}
	}
	head := langutil.Head(v, n, stop, bodyKinds, func(k string) bool { return k == "comment" })
	sig := lang.CollapseSpace(head + suffix)
	sig = strings.TrimSuffix(sig, ":")
	sig = strings.TrimSpace(strings.TrimSuffix(sig, "=>"))
	return lang.Truncate(sig, lang.MaxSignature)
}
