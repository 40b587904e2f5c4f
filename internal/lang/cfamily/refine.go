package cfamily

import (
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
	"github.com/cairnhq/cairn/internal/lang/native"
)

// RefineC is Refine for C.
func RefineC(v *lang.View, f *lang.Facts) { refine(v, f, false) }

// RefineCPP is Refine for C++.
func RefineCPP(v *lang.View, f *lang.Facts) { refine(v, f, true) }

// refine applies the rules the query cannot express:
//   - a struct, union or enum declared inside a typedef or a variable
//     declaration belongs to the enclosing scope (in C, a tag nested in a
//     struct too: C has one tag namespace);
//   - namespace a::b { } is the namespace b with the path a.b;
//   - void A::B::m() {} gets the receiver A.B (prefixed by the enclosing
//     namespaces) and the path A.B.m; it is a function when A.B is a
//     namespace of the file, a constructor when m is B;
//   - a method named like its class is a constructor;
//   - a prototype (or an in-class method declaration) is dropped when the
//     file defines the same path; references to it move to the definition;
//   - signatures lose a trailing ";"; a macro's signature is its #define line
//     up to the value for function-like macros;
//   - C++: a::b::c references get the qualifier "a::b" (and are calls when
//     the qualified name is called).
func refine(v *lang.View, f *lang.Facts, cpp bool) {
	if cpp {
		innermostNames(f)
	}
	nodes := langutil.NodesBySpan(v, langutil.DefSpans(f), func(i int) bool { return defKinds[v.Kind(i)] })
	paths(f, cpp)
	isDef := make([]bool, len(f.Defs))
	defined := map[string]int32{}
	for i := range f.Defs {
		d := &f.Defs[i]
		d.Signature = strings.TrimSpace(strings.TrimSuffix(d.Signature, ";"))
		n, ok := nodes[d.Span]
		if !ok {
			continue
		}
		k := v.Kind(n)
		if k == "template_declaration" {
			if kids := langutil.Children(v, n); len(kids) > 0 {
				k = v.Kind(kids[len(kids)-1])
			}
		}
		if strings.Contains(d.Signature, "//") || strings.Contains(d.Signature, "/*") {
			d.Signature = native.Signature(v, n, bodyKinds, "comment")
		}
		switch k {
		case "preproc_def", "preproc_function_def":
			d.Signature = macroSignature(v, n)
		case "function_definition":
			isDef[i] = true
			if _, ok := defined[d.Path]; !ok {
				defined[d.Path] = int32(i)
			}
		}
	}
	target := make([]int32, len(f.Defs))
	drop := false
	var locals []lang.Def
	for i, d := range f.Defs {
		target[i] = int32(i)
		if d.Kind == lang.KindVariable && d.Parent >= 0 {
			switch f.Defs[d.Parent].Kind {
			case lang.KindFunction, lang.KindMethod, lang.KindConstructor:
				// a declaration under #if in a function body: a local
				target[i], drop = -1, true
				locals = append(locals, d)
				continue
			}
		}
		switch d.Kind {
		case lang.KindFunction, lang.KindMethod, lang.KindConstructor:
			if j, ok := defined[d.Path]; ok && !isDef[i] && d.Span != f.Defs[j].Span {
				target[i] = j
				drop = true
			}
		}
	}
	if drop {
		langutil.DropDefs(f, target)
	}
	addLocals(f, locals)
	prototypeParams(v, f)
	if cpp {
		qualifiedRefs(v, f)
	}
	declaredTypes(v, f)
}

// declaredTypes gives locals, parameters and fields the class or struct
// their declaration names (Base b, const Base& r, Base* p, ns::Base b,
// Foo<int> f, struct S s; auto p = new Base()), as written but without
// template arguments: the members read through them are looked up in it.
// Arrays and function pointers name no such type.
func declaredTypes(v *lang.View, f *lang.Facts) {
	if len(f.Locals) == 0 && len(f.Defs) == 0 {
		return
	}
	names := langutil.NodesByStart(v, langutil.KindSet(v, "identifier", "field_identifier"))
	for i := range f.Locals {
		if n, ok := names[f.Locals[i].Pos]; ok && f.Locals[i].Type == "" {
			f.Locals[i].Type = declaredType(v, n)
		}
	}
	for i := range f.Defs {
		d := &f.Defs[i]
		n, ok := names[d.NameSpan.Start]
		if !ok || d.Type != "" {
			continue
		}
		switch d.Kind {
		case lang.KindField:
			d.Type = declaredType(v, n)
		case lang.KindFunction, lang.KindMethod:
			d.Type = returnType(v, n)
		}
	}
	refAt := classlang.RefsByPos(f)
	classlang.Chains(v, f, refAt, func(n int) (int, int) { return chained(v, n) })
}

// returnType is the class or struct a function or method whose name is
// node n returns (Base f(), Base* f(), const Base& C::f() const); "" for
// none.
func returnType(v *lang.View, n int) string {
	p := v.Parent(n)
	if v.Kind(p) == "qualified_identifier" { // Class::method, defined out of line
		p = v.Parent(p)
	}
	if v.Kind(p) != "function_declarator" {
		return ""
	}
	for p = v.Parent(p); ; p = v.Parent(p) {
		switch v.Kind(p) {
		case "pointer_declarator", "reference_declarator":
			continue
		case "function_definition", "declaration", "field_declaration":
			return className(v, langutil.Child(v, p, "type"))
		}
		return ""
	}
}

// chained gives, for a member read on a call's result (f().m, a->f()->m,
// ns::f().m), the name node of the member and that of the callee; -1, -1
// for any other node.
func chained(v *lang.View, n int) (name, callee int) {
	if v.Kind(n) != "field_expression" {
		return -1, -1
	}
	call := langutil.Child(v, n, "argument")
	if v.Kind(call) != "call_expression" {
		return -1, -1
	}
	fn := langutil.Child(v, call, "function")
	switch v.Kind(fn) {
	case "field_expression":
		fn = langutil.Child(v, fn, "field")
	case "qualified_identifier":
		fn = langutil.Child(v, fn, "name")
	case "identifier":
	default:
		return -1, -1
	}
	if fn < 0 {
		return -1, -1
	}
	return langutil.Child(v, n, "field"), fn
}

// declaredType is the type the declaration of name node n names, "" for
// none that is a class or struct.
func declaredType(v *lang.View, n int) string {
	p := v.Parent(n)
	for p >= 0 {
		switch v.Kind(p) {
		case "pointer_declarator", "reference_declarator", "init_declarator":
			p = v.Parent(p)
			continue
		}
		break
	}
	switch v.Kind(p) {
	case "declaration", "parameter_declaration", "optional_parameter_declaration", "for_range_loop", "field_declaration":
	default:
		return ""
	}
	t := langutil.Child(v, p, "type")
	if v.Kind(t) == "placeholder_type_specifier" { // auto x = new T(...), std::make_unique<T>(...)
		t = -1
		for q := v.Parent(n); q >= 0 && q != p; q = v.Parent(q) {
			if v.Kind(q) == "init_declarator" {
				t = constructedType(v, langutil.Child(v, q, "value"))
				break
			}
		}
	}
	return className(v, t)
}

// smartPointers are the standard library's owning pointers and their
// factories: a std::unique_ptr<T> (std::make_unique<T>()) reads T's
// members through ->.
var smartPointers = map[string]bool{"unique_ptr": true, "shared_ptr": true, "weak_ptr": true,
	"make_unique": true, "make_shared": true}

// pointee is the type argument node of std::unique_ptr<T>, std::shared_ptr<T>
// or std::weak_ptr<T> (type node t), or of std::make_unique<T> and
// std::make_shared<T> (a callee); -1 for any other node.
func pointee(v *lang.View, t int) int {
	if v.Kind(t) != "qualified_identifier" || v.Text(langutil.Child(v, t, "scope")) != "std" {
		return -1
	}
	tmpl := langutil.Child(v, t, "name")
	switch v.Kind(tmpl) {
	case "template_type", "template_function":
	default:
		return -1
	}
	if !smartPointers[v.Text(langutil.Child(v, tmpl, "name"))] {
		return -1
	}
	args := langutil.Children(v, langutil.Child(v, tmpl, "arguments"))
	if len(args) != 1 || v.Kind(args[0]) != "type_descriptor" {
		return -1
	}
	return langutil.Child(v, args[0], "type")
}

// constructedType is the type node of what an initialiser constructs: new
// T(...), std::make_unique<T>(...), std::make_shared<T>(...); -1 for any
// other value.
func constructedType(v *lang.View, val int) int {
	switch v.Kind(val) {
	case "new_expression":
		return langutil.Child(v, val, "type")
	case "call_expression":
		return pointee(v, langutil.Child(v, val, "function"))
	}
	return -1
}

// className is the name a type node gives a class or struct (Base,
// ns::Base, Foo of Foo<int>, S of struct S); "" for a built-in type.
func className(v *lang.View, t int) string {
	switch v.Kind(t) {
	case "type_identifier":
		return v.Text(t)
	case "qualified_identifier":
		if !strings.Contains(v.Text(t), "<") {
			return v.Text(t)
		}
		if inner := pointee(v, t); inner >= 0 { // std::unique_ptr<Base>: a Base
			return className(v, inner)
		}
		// ns::Foo<int>: the scope and the template's name
		scope, name := langutil.Child(v, t, "scope"), className(v, langutil.Child(v, t, "name"))
		if scope < 0 || name == "" || strings.Contains(v.Text(scope), "<") {
			return "" // ns::Foo<int>::Bar and the like
		}
		return v.Text(scope) + "::" + name
	case "template_type":
		return className(v, langutil.Child(v, t, "name"))
	case "struct_specifier", "class_specifier", "union_specifier":
		if name := langutil.Child(v, t, "name"); v.Kind(name) == "type_identifier" {
			return v.Text(name)
		}
	}
	return ""
}

// prototypeParams drops the parameters of declarators that are not function
// definitions (prototypes, function pointer types, fields and variables):
// they bind nothing, and at file scope they would capture every later use of
// their names. References that were bound to them go to the file's global
// definitions instead.
func prototypeParams(v *lang.View, f *lang.Facts) {
	var spans langutil.SpanSet
	for i := 0; i < v.Len(); i++ {
		if v.Kind(i) != "parameter_list" {
			continue
		}
		p := v.Parent(i)
		for {
			switch v.Kind(p) {
			case "function_declarator", "pointer_declarator", "reference_declarator", "parenthesized_declarator", "abstract_function_declarator":
				p = v.Parent(p)
				continue
			}
			break
		}
		switch v.Kind(p) {
		case "function_definition", "lambda_expression", "catch_clause", "template_declaration":
			continue
		}
		spans = append(spans, v.Span(i))
	}
	if len(spans) == 0 {
		return
	}
	spans.Sort()
	top := map[uint32]int32{}
	names := lang.NewNameTable(f)
	for i, d := range f.Defs {
		if d.Parent < 0 && d.Receiver == "" {
			if id, ok := names.Lookup(d.Name); ok {
				if _, seen := top[id]; !seen {
					top[id] = int32(i)
				}
			}
		}
	}
	langutil.DropLocals(f, func(i int) bool { return spans.Contains(f.Locals[i].Pos) }, func(r *lang.Ref) {
		if d, ok := top[r.Name]; ok {
			r.BindDef = d
		}
	})
}

// addLocals turns variables declared in function bodies into locals, and
// binds the unbound references to their names that follow them in their scopes.
func addLocals(f *lang.Facts, vars []lang.Def) {
	if len(vars) == 0 {
		return
	}
	names := lang.NewNameTable(f)
	byName := map[uint32][]int32{}
	for _, d := range vars {
		lo := lang.Local{Name: names.ID(d.Name), Pos: d.NameSpan.Start, Scope: langutil.InnermostScope(f, d.NameSpan.Start)}
		byName[lo.Name] = append(byName[lo.Name], int32(len(f.Locals)))
		f.Locals = append(f.Locals, lo)
	}
	// visible is the local of the name that r sees: the innermost scope
	// with a declaration before r wins.
	visible := func(r *lang.Ref, name uint32) int32 {
		cands, ok := byName[name]
		if !ok {
			return -1
		}
		for s := r.Scope; s >= 0; s = f.Scopes[s].Parent {
			best := int32(-1)
			for _, c := range cands {
				if lo := f.Locals[c]; lo.Scope == s && !r.Pos.Before(lo.Pos) {
					if best < 0 || f.Locals[best].Pos.Before(lo.Pos) {
						best = c
					}
				}
			}
			if best >= 0 {
				return best
			}
		}
		return -1
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		switch r.Shape {
		case lang.QualNone:
			if r.BindLocal < 0 {
				if l := visible(r, r.Name); l >= 0 {
					r.BindLocal, r.BindDef, r.BindImp = l, -1, -1
				}
			}
		case lang.QualIdent, lang.QualPath:
			if r.QualBound {
				continue
			}
			q := f.Names[r.Qualifier]
			if i := strings.IndexAny(q, ".:"); i >= 0 {
				q = q[:i]
			}
			if id, ok := names.Lookup(q); ok && visible(r, id) >= 0 {
				r.QualBound, r.BindImp = true, -1
			}
		}
	}
	sortLocals(f)
}

// sortLocals puts the locals in position order.
func sortLocals(f *lang.Facts) {
	order := make([]int, len(f.Locals))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return f.Locals[order[a]].Pos.Before(f.Locals[order[b]].Pos) })
	newIdx := make([]int32, len(order))
	sorted := make([]lang.Local, len(order))
	for n, o := range order {
		newIdx[o] = int32(n)
		sorted[n] = f.Locals[o]
	}
	f.Locals = sorted
	for i := range f.Refs {
		if b := f.Refs[i].BindLocal; b >= 0 {
			f.Refs[i].BindLocal = newIdx[b]
		}
	}
}

// innermostNames keeps, of the definitions that the out-of-class pattern
// found for one A::B::m, the one named m.
func innermostNames(f *lang.Facts) {
	keep := map[lang.Span]int32{}
	for i, d := range f.Defs {
		if d.Receiver == "" {
			continue
		}
		if k, ok := keep[d.Span]; !ok || strings.Count(d.Name, "::") < strings.Count(f.Defs[k].Name, "::") {
			keep[d.Span] = int32(i)
		}
	}
	if len(keep) == 0 {
		return
	}
	target := make([]int32, len(f.Defs))
	drop := false
	for i, d := range f.Defs {
		target[i] = int32(i)
		if d.Receiver == "" {
			continue
		}
		if k := keep[d.Span]; k != int32(i) {
			target[i], drop = k, true
			continue
		}
		segs := splitQualified(d.Name)
		f.Defs[i].Name = segs[len(segs)-1]
	}
	if drop {
		langutil.DropDefs(f, target)
	}
}

// bodyKinds are the node kinds of bodies (the languages' BodyKinds).
var bodyKinds = map[string]bool{"compound_statement": true, "field_declaration_list": true, "enumerator_list": true, "declaration_list": true}

// defKinds are the node kinds that carry definitions.
var defKinds = map[string]bool{
	"function_definition": true, "declaration": true, "field_declaration": true, "type_definition": true,
	"struct_specifier": true, "union_specifier": true, "enum_specifier": true, "enumerator": true,
	"class_specifier": true, "preproc_def": true, "preproc_function_def": true, "template_declaration": true,
	"namespace_definition": true, "alias_declaration": true,
}

// splitQualified splits A<T>::B::m into [A B m], dropping template arguments
// and spaces.
func splitQualified(s string) []string {
	var segs []string
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '<' && !strings.HasSuffix(b.String(), "operator"):
			depth++
		case c == '>' && depth > 0:
			depth--
		case depth > 0:
		case c == ':' && i+1 < len(s) && s[i+1] == ':':
			segs = append(segs, b.String())
			b.Reset()
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			b.WriteByte(c)
		}
	}
	return append(segs, b.String())
}

// paths recomputes parents, names, receivers, paths and kinds (see refine).
func paths(f *lang.Facts, cpp bool) {
	namespaces := map[string]bool{}
	for i := range f.Defs {
		d := &f.Defs[i]
		switch d.Kind {
		case lang.KindStruct, lang.KindEnum, lang.KindClass:
			d.Parent = tagParent(f, d.Parent, cpp)
		}
		prefix := ""
		if d.Parent >= 0 {
			prefix = f.Defs[d.Parent].Path + "."
		}
		switch {
		case d.Kind == lang.KindNamespace && strings.Contains(d.Name, "::"):
			segs := splitQualified(d.Name)
			d.Name = segs[len(segs)-1]
			d.Path = prefix + strings.Join(segs, ".")
		case d.Receiver != "":
			segs := splitQualified(d.Receiver)
			recv := strings.Join(segs[:len(segs)-1], ".")
			if recv == "" { // ::f() at the global scope
				d.Receiver, d.Path = "", d.Name
				d.Kind = lang.KindFunction
				break
			}
			d.Receiver = prefix + recv
			d.Path = d.Receiver + "." + d.Name
			switch {
			case namespaces[d.Receiver]:
				d.Kind, d.Receiver = lang.KindFunction, ""
			case segs[len(segs)-2] == d.Name:
				d.Kind = lang.KindConstructor
			}
		default:
			d.Path = prefix + d.Name
			if d.Kind == lang.KindMethod && d.Parent >= 0 && f.Defs[d.Parent].Name == d.Name && f.Defs[d.Parent].Kind.IsTypeLike() {
				d.Kind = lang.KindConstructor
			}
		}
		if d.Kind == lang.KindNamespace {
			namespaces[d.Path] = true
		}
	}
	langutil.RecomputeDups(f)
}

// tagParent is where a struct, union, enum or class declared inside parent
// belongs: not to a typedef or variable it is declared with, and in C not to
// an enclosing struct either.
func tagParent(f *lang.Facts, parent int32, cpp bool) int32 {
	for parent >= 0 {
		switch f.Defs[parent].Kind {
		case lang.KindType, lang.KindVariable, lang.KindConstant, lang.KindField:
		case lang.KindStruct, lang.KindEnum, lang.KindClass:
			if cpp {
				return parent
			}
		default:
			return parent
		}
		parent = f.Defs[parent].Parent
	}
	return -1
}

// macroSignature is "#define NAME value" for an object-like macro (the value
// collapsed, line continuations removed) and "#define NAME(args)" for a
// function-like one.
func macroSignature(v *lang.View, n int) string {
	name := langutil.Child(v, n, "name")
	if name < 0 {
		return ""
	}
	sig := "#define " + v.Text(name)
	if p := langutil.Child(v, n, "parameters"); p >= 0 {
		return sig + lang.CollapseSpace(strings.ReplaceAll(v.Text(p), "\\\n", " "))
	}
	if val := langutil.Child(v, n, "value"); val >= 0 {
		sig += " " + lang.CollapseSpace(strings.ReplaceAll(v.Text(val), "\\\n", " "))
	}
	return lang.Truncate(strings.TrimSpace(sig), lang.MaxSignature)
}

// qualifiedRefs gives a::b::c references the qualifier "a::b" and marks the
// called ones as calls.
func qualifiedRefs(v *lang.View, f *lang.Facts) {
	type qual struct {
		q    string
		call bool
	}
	quals := map[lang.Pos]qual{}
	for i := 0; i < v.Len(); i++ {
		if v.Kind(i) != "qualified_identifier" || (v.Kind(v.Parent(i)) == "qualified_identifier" && v.Field(i) == "name") {
			continue
		}
		p := v.Parent(i)
		call := v.Kind(p) == "call_expression" && v.Field(i) == "function"
		var segs []string
		for cur := i; cur >= 0; {
			scope := langutil.Child(v, cur, "scope")
			seg := ""
			if scope >= 0 {
				if len(segs) > 0 {
					quals[v.Start(scope)] = qual{q: strings.Join(segs, "::")}
				}
				seg = v.Text(scope)
				if v.Kind(scope) == "template_type" {
					if nm := langutil.Child(v, scope, "name"); nm >= 0 {
						quals[v.Start(nm)] = qual{q: strings.Join(segs, "::")}
						seg = v.Text(nm)
					}
				}
			}
			segs = append(segs, seg)
			name := langutil.Child(v, cur, "name")
			switch v.Kind(name) {
			case "qualified_identifier":
				cur = name
				continue
			case "template_function", "template_type", "template_method":
				name = langutil.Child(v, name, "name")
			}
			if name >= 0 {
				quals[v.Start(name)] = qual{q: strings.Join(segs, "::"), call: call}
			}
			cur = -1
		}
	}
	if len(quals) == 0 {
		return
	}
	scopes := map[string]bool{}
	for _, d := range f.Defs {
		switch d.Kind {
		case lang.KindNamespace, lang.KindClass, lang.KindStruct, lang.KindEnum, lang.KindType:
			scopes[d.Name] = true
		}
	}
	names := lang.NewNameTable(f)
	for i := range f.Refs {
		r := &f.Refs[i]
		q, ok := quals[r.Pos]
		if !ok {
			continue
		}
		if q.call {
			r.Role = lang.RoleCall
		}
		if q.q == "" { // ::name is the global name
			r.Shape, r.Qualifier, r.QualBound = lang.QualNone, 0, false
			continue
		}
		r.BindLocal, r.BindDef, r.BindImp = -1, -1, -1
		r.Qualifier = names.ID(q.q)
		first, _, more := strings.Cut(q.q, "::")
		r.Shape = lang.QualIdent
		if more || first == "" {
			r.Shape = lang.QualPath
		}
		r.QualBound = scopes[first]
	}
}
