// Package ruby registers Ruby with the syntactic layer: its grammar, its query
// (tags.scm) and the hooks for what the query cannot say by itself.
//
// Choices:
//   - def inside a class or module is a method, elsewhere a function; def
//     self.x is a method of the class (path Class.x), as are the defs of a
//     class << self block. Both kinds of method share the class's namespace
//     (Class.x), so an instance and a singleton method of the same name are
//     duplicates (Dup 1).
//   - attr_accessor/attr_reader/attr_writer/attr :a, :b define properties a, b.
//   - FOO = ... (and FOO ||= ...) defines a constant.
//   - class A::B nests under A in the path (A.B) although Ruby's lexical
//     nesting is only A::B.
//   - Visibility: a def after a bare private/protected/public in the same
//     body, or wrapped in private def ..., gets that visibility; private :a,
//     :b marks those names of the enclosing class afterwards. protected is
//     internal; singleton methods are public unless named by
//     private_class_method; module_function is not followed.
//   - require/load "x" import module "x"; require_relative "x" imports "./x"
//     (a path relative to the file, as in JavaScript); autoload :X, "x" is a
//     named import of X from "x".
//   - include/extend/prepend M inside a class or module are type relations
//     (embeds: the mixin's methods become the class's, as Go embedding
//     promotes them), not imports.
//   - Locals follow Ruby's rules: method, class and module bodies do not see
//     the locals around them (blocks and lambdas do); a local exists from its
//     first assignment on, and assigning it again (also from a block) writes
//     the same variable. A bare identifier that is no local is a method call.
//   - A qualifier A::B is reported as the path "A.B".
package ruby

import (
	_ "embed"
	"sort"
	"strings"
	"unsafe"

	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

//go:embed tags.scm
var query string

// Language is Ruby.
var Language = &lang.Language{
	Name:             "ruby",
	Extensions:       []string{".rb", ".rake", ".gemspec", ".ru", "Rakefile", "Gemfile"},
	Ecosystem:        "ruby",
	Aliases:          []string{"rb"},
	Grammar:          func() unsafe.Pointer { return tsruby.Language() },
	Query:            query,
	RefKinds:         []string{"identifier", "constant", "instance_variable"},
	BodyKinds:        []string{"body_statement"},
	CommentKinds:     []string{"comment"},
	DocStyle:         lang.DocComments,
	SelfNames:        []string{"self"},
	NameSeparators:   []string{"::", "#"},
	BlockScoped:      true,
	SharedAttributes: true,
	CalledByName:     func(name string) bool { return protocol[name] },
	Imports:          imports,
	Refine:           refine,
	Builtins:         builtins,
	Linker:           linker,
	Stdlib:           stdlib,
	TestFile:         testFile,
}

func init() { lang.Register(Language) }

// sectionVisibility maps the visibility-changing methods to their classes.
var sectionVisibility = map[string]lang.Visibility{
	"private":   lang.VisPrivate,
	"protected": lang.VisInternal,
	"public":    lang.VisPublic,
}

// methodName is the name of a call node's method ("" when it has a receiver).
// Without a receiver the method is the call's first named child.
func methodName(v *lang.View, call int) string {
	m := call + 1
	if call < 0 || m >= v.Len() || v.Kind(call) != "call" || v.Parent(m) != call || v.Field(m) != "method" {
		return ""
	}
	return v.Text(m)
}

// visibilities sets the visibility of every definition in one pass: the
// nearest bare private/protected/public before a def, attr_* or alias in the
// same body, or the call that wraps it (private def x); public otherwise.
func visibilities(v *lang.View, f *lang.Facts, nodes []int) {
	defOf := make(map[int][]int, len(nodes)) // attr_accessor :a, :b: two defs, one node
	for i, n := range nodes {
		if n >= 0 {
			defOf[n] = append(defOf[n], i)
		}
	}
	section := map[int]lang.Visibility{} // body node -> current section
	for i := 0; i < v.Len(); i++ {
		p := v.Parent(i)
		switch v.Kind(i) {
		case "identifier":
			if vis, ok := sectionVisibility[v.Text(i)]; ok && isBody(v, p) {
				section[p] = vis
			}
		case "call":
			if vis, ok := sectionVisibility[methodName(v, i)]; ok && isBody(v, p) && v.Child(i, "arguments") < 0 {
				section[p] = vis
			}
		}
		defs, ok := defOf[i]
		if !ok {
			continue
		}
		vis := lang.VisPublic
		switch v.Kind(i) {
		case "method", "call", "alias":
			if v.Kind(p) == "argument_list" { // private def x / private attr_reader :x
				if s, ok := sectionVisibility[methodName(v, v.Parent(p))]; ok {
					vis = s
					break
				}
			}
			if s, ok := section[p]; ok {
				vis = s
			}
		}
		for _, d := range defs {
			f.Defs[d].Visibility = vis
		}
	}
}

func isBody(v *lang.View, n int) bool {
	k := v.Kind(n)
	return k == "body_statement" || k == "program"
}

// stringArg is the text of a plain string literal node ("" when it
// interpolates or is not a string).
func stringArg(v *lang.View, n int) (string, bool) {
	if v.Kind(n) != "string" {
		return "", false
	}
	kids := v.Children(n)
	if len(kids) != 1 || v.Kind(kids[0]) != "string_content" {
		return "", false
	}
	return v.Text(kids[0]), true
}

func imports(v *lang.View, n int) []lang.Import {
	name := methodName(v, n)
	args := v.Child(n, "arguments")
	if args < 0 {
		return nil
	}
	kids := v.Children(args)
	switch name {
	case "require", "load", "require_relative":
		if len(kids) != 1 {
			return nil
		}
		src, ok := stringArg(v, kids[0])
		if !ok || src == "" {
			return nil
		}
		if name == "require_relative" && !strings.HasPrefix(src, ".") && !strings.HasPrefix(src, "/") {
			src = "./" + src
		}
		return []lang.Import{{Kind: lang.ImportModule, Source: src, Pos: v.Start(kids[0])}}
	case "autoload":
		if len(kids) != 2 || v.Kind(kids[0]) != "simple_symbol" {
			return nil
		}
		src, ok := stringArg(v, kids[1])
		if !ok || src == "" {
			return nil
		}
		return []lang.Import{{Kind: lang.ImportNamed, Source: src, Name: strings.TrimPrefix(v.Text(kids[0]), ":"), Pos: v.Start(kids[0])}}
	}
	return nil
}

// attrMethods define properties.
var attrMethods = map[string]bool{"attr_accessor": true, "attr_reader": true, "attr_writer": true, "attr": true}

// defNodeKinds are the node kinds that carry definitions.
var defNodeKinds = []string{"class", "module", "method", "singleton_method", "alias", "assignment", "operator_assignment", "call"}

// gateKinds are the scopes that do not see the locals around them.
var gateKinds = []string{"method", "singleton_method", "class", "module", "singleton_class"}

func refine(v *lang.View, f *lang.Facts) {
	nodes := langutil.DefNodes(v, f, langutil.KindSet(v, defNodeKinds...))
	// calls with symbol arguments that are not attr_*: no definitions
	drop := make([]bool, len(f.Defs))
	for i, n := range nodes {
		d := &f.Defs[i]
		if d.Kind != lang.KindProperty {
			continue
		}
		if n < 0 || !attrMethods[methodName(v, n)] {
			drop[i] = true
			continue
		}
		d.Name = strings.TrimPrefix(d.Name, ":")
		d.NameSpan.Start.Col++
	}
	lang.RemoveDefs(f, drop)
	nodes = compactInts(nodes, drop)
	visibilities(v, f, nodes)

	for i := range f.Defs {
		d := &f.Defs[i]
		switch d.Kind {
		case lang.KindFunction, lang.KindMethod:
			d.Kind = lang.KindFunction
			if d.Parent >= 0 && isNamespace(f.Defs[d.Parent].Kind) {
				d.Kind = lang.KindMethod
			}
		}
		if n := nodes[i]; n >= 0 {
			if sig := signature(v, n); sig != "" {
				d.Signature = sig
			}
		}
	}
	langutil.RecomputePaths(f, func(i int) string {
		d := f.Defs[i]
		n := nodes[i]
		if n < 0 || (d.Kind != lang.KindClass && d.Kind != lang.KindModule) {
			return d.Name
		}
		name := v.Child(n, "name")
		if v.Kind(name) != "scope_resolution" {
			return d.Name
		}
		if scope := v.Child(name, "scope"); scope >= 0 {
			if q, ok := constantPath(v.Text(scope)); ok {
				return q + "." + d.Name
			}
		}
		return d.Name
	})
	laterVisibility(v, f)
	mixins(v, f)

	// locals: gates, rebindings, qualifiers
	gate := langutil.Gates(v, f, []string{"method", "singleton_method", "class", "module", "singleton_class", "block", "do_block", "lambda"}, gateKinds)
	ids := langutil.NodesByStart(v, langutil.KindSet(v, "identifier"))
	assign := func(i int) bool {
		n, ok := ids[f.Locals[i].Pos]
		if !ok {
			return false
		}
		switch v.Kind(v.Parent(n)) {
		case "assignment", "left_assignment_list", "rest_assignment", "destructured_left_assignment", "for", "exception_variable":
			return true
		}
		return false
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.Shape != lang.QualExpr && r.Shape != lang.QualIdent {
			continue
		}
		if q, ok := constantPath(f.Names[r.Qualifier]); ok && q != f.Names[r.Qualifier] {
			r.Qualifier = langutil.Name(f, q)
			r.Shape = lang.QualIdent
			if strings.Contains(q, ".") {
				r.Shape = lang.QualPath
			}
		}
	}
	b := langutil.NewBinder(f, gate)
	b.Rebind(assign, true, func(q string) string { s, _, _ := strings.Cut(q, "."); return s })
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.Shape == lang.QualNone && r.BindLocal < 0 && r.Role == lang.RoleRead && !isConstant(f.Names[r.Name]) && !isIvar(f.Names[r.Name]) {
			r.Role = lang.RoleCall // a bare identifier that is no local calls a method of self
		}
	}
	instanceVariables(v, f, nodes)
	bindLexical(f)
	constructedLocals(v, f)
}

// constructedLocals gives a local the class its assignment constructs
// (x = Foo.new, x = Rack::Lint.new(app)), unless its scope assigns the
// name something else too: the members read through it are looked up in
// that class.
func constructedLocals(v *lang.View, f *lang.Facts) {
	byPos := map[lang.Pos]int{}
	for i, lo := range f.Locals {
		byPos[lo.Pos] = i
	}
	var assigned []langutil.Assignment
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "assignment" {
			continue
		}
		left, right := v.Child(n, "left"), v.Child(n, "right")
		if left < 0 || right < 0 || v.Kind(left) != "identifier" {
			continue
		}
		what, class := "?", constructed(v, right)
		if class != "" {
			what = "new " + class
			if i, ok := byPos[v.Start(left)]; ok && f.Locals[i].Type == "" {
				f.Locals[i].Type = class
			}
		}
		assigned = append(assigned, langutil.Assignment{Scope: langutil.InnermostScope(f, v.Start(left)), Name: v.Text(left), What: what})
	}
	langutil.Untyped(f, assigned, nil)
}

// constructed is the constant path of the class call node n constructs
// (Foo.new, A::B.new(x)); "" for any other node.
func constructed(v *lang.View, n int) string {
	if v.Kind(n) != "call" || v.Text(v.Child(n, "method")) != "new" {
		return ""
	}
	switch recv := v.Child(n, "receiver"); v.Kind(recv) {
	case "constant", "scope_resolution":
		if q, ok := constantPath(v.Text(recv)); ok {
			return q
		}
	}
	return ""
}

func compactInts(xs []int, drop []bool) []int {
	out := xs[:0]
	for i, x := range xs {
		if !drop[i] {
			out = append(out, x)
		}
	}
	return out
}

func isNamespace(k lang.DefKind) bool { return k == lang.KindClass || k == lang.KindModule }

func isConstant(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// constantPath turns a constant qualifier (A, A::B, ::A::B) into a dotted path.
func constantPath(s string) (string, bool) {
	s = strings.TrimPrefix(s, "::")
	parts := strings.Split(s, "::")
	for _, p := range parts {
		if !isConstant(p) || strings.ContainsAny(p, " \t\n.()[]") {
			return "", false
		}
	}
	return strings.Join(parts, "."), true
}

// signature is a definition's header: up to the parameters of a method, the
// superclass of a class, the name of a module ("" leaves the engine's).
func signature(v *lang.View, n int) string {
	var last int
	switch v.Kind(n) {
	case "method", "singleton_method":
		if last = v.Child(n, "parameters"); last < 0 {
			last = v.Child(n, "name")
		}
	case "class":
		if last = v.Child(n, "superclass"); last < 0 {
			last = v.Child(n, "name")
		}
	case "module":
		last = v.Child(n, "name")
	default:
		return ""
	}
	if last < 0 {
		return ""
	}
	start, _ := v.Bytes(n)
	_, end := v.Bytes(last)
	return langutil.Header(v.Src(), start, end, nil)
}

// laterVisibility applies private :a, :b (and protected, public,
// private_class_method, public_class_method) to the named definitions of the
// enclosing class or module.
func laterVisibility(v *lang.View, f *lang.Facts) {
	for i := 0; i < v.Len(); i++ {
		var vis lang.Visibility
		switch methodName(v, i) {
		case "private", "private_class_method", "private_constant":
			vis = lang.VisPrivate
		case "protected":
			vis = lang.VisInternal
		case "public", "public_class_method", "public_constant":
			vis = lang.VisPublic
		default:
			continue
		}
		args := v.Child(i, "arguments")
		if args < 0 {
			continue
		}
		owner := langutil.Enclosing(f, v.Start(i))
		if owner < 0 || !isNamespace(f.Defs[owner].Kind) {
			continue
		}
		for _, a := range v.Children(args) {
			if v.Kind(a) != "simple_symbol" {
				continue
			}
			name := strings.TrimPrefix(v.Text(a), ":")
			for j := range f.Defs {
				if f.Defs[j].Parent == owner && f.Defs[j].Name == name {
					f.Defs[j].Visibility = vis
				}
			}
		}
	}
}

// mixins records include/extend/prepend M of a class or module as embeds.
func mixins(v *lang.View, f *lang.Facts) {
	added := false
	for i := 0; i < v.Len(); i++ {
		switch methodName(v, i) {
		case "include", "extend", "prepend":
		default:
			continue
		}
		args := v.Child(i, "arguments")
		owner := langutil.Enclosing(f, v.Start(i))
		if args < 0 || owner < 0 || !isNamespace(f.Defs[owner].Kind) {
			continue
		}
		for _, a := range v.Children(args) {
			if k := v.Kind(a); k == "constant" || k == "scope_resolution" {
				f.TypeRels = append(f.TypeRels, lang.TypeRel{Def: owner, Kind: lang.RelEmbeds, Target: lang.CollapseSpace(v.Text(a)), Pos: v.Start(a)})
				added = true
			}
		}
	}
	if added {
		sort.SliceStable(f.TypeRels, func(i, j int) bool { return f.TypeRels[i].Pos.Before(f.TypeRels[j].Pos) })
	}
}

// bindLexical binds bare names to definitions nested in the enclosing classes
// and modules, which the engine only does for top-level ones: a constant
// resolves through the lexical nesting (innermost first), and a method called
// without a receiver inside a method resolves to the methods and properties
// of the class or module around that method.
func bindLexical(f *lang.Facts) {
	children := langutil.NewMembers(f, nil)
	if len(children) == 0 {
		return
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.Shape != lang.QualNone || r.BindLocal >= 0 || r.Enclosing < 0 {
			continue
		}
		name := f.Names[r.Name]
		if isConstant(name) {
			for d := r.Enclosing; d >= 0; d = f.Defs[d].Parent {
				if !isNamespace(f.Defs[d].Kind) {
					continue
				}
				if c := children.Of(d, name); c >= 0 && isConstantKind(f.Defs[c].Kind) {
					r.BindDef, r.BindImp = c, -1
					break
				}
			}
			continue
		}
		// the innermost method around the reference, and its class
		for d := r.Enclosing; d >= 0; d = f.Defs[d].Parent {
			if f.Defs[d].Kind != lang.KindMethod {
				continue
			}
			if c := children.Of(f.Defs[d].Parent, name); c >= 0 {
				if k := f.Defs[c].Kind; k == lang.KindMethod || k == lang.KindProperty || k == lang.KindField && isIvar(name) {
					r.BindDef, r.BindImp = c, -1
				}
			}
			break
		}
	}
}

func isConstantKind(k lang.DefKind) bool {
	return k == lang.KindClass || k == lang.KindModule || k == lang.KindConstant
}

// protocol are the methods Ruby itself, or its core library, calls on any
// object by their names: construction and copying, conversions, printing,
// hashing, missing methods.
var protocol = map[string]bool{
	"initialize": true, "initialize_copy": true, "to_s": true, "to_str": true, "inspect": true,
	"to_ary": true, "to_hash": true, "to_proc": true, "coerce": true, "hash": true, "eql?": true,
	"method_missing": true, "respond_to_missing?": true,
}
