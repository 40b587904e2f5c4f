// Package php registers PHP with the syntactic layer: its grammar (the one
// that parses <?php files with HTML around them), its query (tags.scm) and
// the hooks for imports, visibility, namespaces and variables.
//
// Choices:
//   - A namespace is a definition (kind namespace) and the file's Package
//     (the first namespace it declares); the classes and functions of a
//     namespace are not nested under it in their paths (Circle, not
//     App\Models.Circle), whether the namespace is braced or not.
//   - A trait is a class (it has bodies and properties, and $this inside it
//     means the class that uses it); use T; in a class body embeds T.
//   - Promoted constructor parameters (private float $x) are properties of
//     the class as well as parameters.
//   - Variables are named with their $ ($x) both as locals and as
//     references, so they never bind to a function or class x; a static
//     property access A::$x refers to the property x.
//   - use A\B\C; imports C from "A\B" (named), use A\B\C as D; binds D,
//     use A\B\{C, D as E}; expands, use function/const too. require/include
//     "x.php" import module "x.php"; __DIR__ . '/x.php' and
//     dirname(__FILE__) . '/x.php' import "./x.php" (relative to the file).
//   - A qualified name A\B\C refers to C with the qualifier path "A\B" (a
//     fully qualified \C has the qualifier "\").
//   - Function, method and closure bodies do not see the variables around
//     them (arrow functions do); assigning a variable again writes it.
//   - Visibility: the modifier, else public; protected is internal.
package php

import (
	_ "embed"
	"strings"
	"unsafe"

	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

//go:embed tags.scm
var query string

// Language is PHP.
var Language = &lang.Language{
	Name:           "php",
	Title:          "PHP",
	Extensions:     []string{".php"},
	Ecosystem:      "php",
	VisibilityRule: lang.RuleModifiers,
	Grammar:        func() unsafe.Pointer { return tsphp.LanguagePHP() },
	Query:          query,
	RefKinds:       []string{"name", "variable_name"},
	BodyKinds:      []string{"compound_statement", "declaration_list", "enum_declaration_list"},
	CommentKinds:   []string{"comment"},
	DocStyle:       lang.DocComments,
	SelfNames:      []string{"$this", "self", "static"},
	NameSeparators: []string{"::", `\`},
	BlockScoped:    false,
	Visibility:     visibility,
	Package:        namespace,
	Imports:        imports,
	Refine:         refine,
	Linker:         linker,
	TestFile:       testFile,
}

func init() { lang.Register(Language) }

func visibility(v *lang.View, d lang.DefNode) lang.Visibility {
	n := d.Node
	var mod int
	switch v.Kind(n) {
	case "method_declaration", "property_declaration", "const_declaration":
		mod = v.ChildOfKind(n, "visibility_modifier")
	case "property_promotion_parameter":
		mod = v.Child(n, "visibility")
	default:
		return lang.VisPublic
	}
	if mod < 0 {
		return lang.VisPublic
	}
	return langutil.Access(strings.ToLower(v.Text(mod)))
}

// namespace is the first namespace the file declares ("" for the global one).
func namespace(v *lang.View) string {
	for i := 0; i < v.Len(); i++ {
		if v.Kind(i) == "namespace_definition" {
			if name := v.Child(i, "name"); name >= 0 {
				return qualified(v.Text(name))
			}
		}
	}
	return ""
}

// qualified normalises a written name: no spaces, no leading backslash.
func qualified(s string) string {
	return strings.TrimPrefix(strings.Join(strings.Fields(s), ""), `\`)
}

func imports(v *lang.View, n int) []lang.Import {
	switch v.Kind(n) {
	case "namespace_use_declaration":
		return useDeclaration(v, n)
	case "require_expression", "require_once_expression", "include_expression", "include_once_expression":
		kids := v.Children(n)
		if len(kids) != 1 {
			return nil
		}
		if src, ok := includePath(v, kids[0]); ok {
			return []lang.Import{{Kind: lang.ImportModule, Source: src, Pos: v.Start(kids[0])}}
		}
	}
	return nil
}

func useDeclaration(v *lang.View, n int) []lang.Import {
	prefix := ""
	var clauses []int
	for _, c := range v.Children(n) {
		switch v.Kind(c) {
		case "namespace_name":
			prefix = qualified(v.Text(c))
		case "namespace_use_clause":
			clauses = append(clauses, c)
		case "namespace_use_group":
			for _, g := range v.Children(c) {
				if v.Kind(g) == "namespace_use_clause" {
					clauses = append(clauses, g)
				}
			}
		}
	}
	var out []lang.Import
	for _, c := range clauses {
		q := -1
		for _, k := range v.Children(c) {
			if v.Field(k) != "alias" && (v.Kind(k) == "name" || v.Kind(k) == "qualified_name") {
				q = k
				break
			}
		}
		if q < 0 {
			continue
		}
		full := qualified(v.Text(q))
		if prefix != "" {
			full = prefix + `\` + full
		}
		src, name := "", full
		if i := strings.LastIndexByte(full, '\\'); i >= 0 {
			src, name = full[:i], full[i+1:]
		}
		im := lang.Import{Kind: lang.ImportNamed, Source: src, Name: name, Pos: v.Start(q)}
		if a := v.Child(c, "alias"); a >= 0 && v.Text(a) != name {
			im.Alias = v.Text(a)
		}
		out = append(out, im)
	}
	return out
}

// includePath reads the path of require/include: a string literal, or
// __DIR__ (or dirname(__FILE__)) . "/x.php", which becomes "./x.php".
func includePath(v *lang.View, n int) (string, bool) {
	for v.Kind(n) == "parenthesized_expression" {
		kids := v.Children(n)
		if len(kids) != 1 {
			return "", false
		}
		n = kids[0]
	}
	switch v.Kind(n) {
	case "string", "encapsed_string":
		kids := v.Children(n)
		if len(kids) != 1 || v.Kind(kids[0]) != "string_content" {
			return "", false
		}
		s := v.Text(kids[0])
		return s, s != ""
	case "binary_expression":
		left, right := v.Child(n, "left"), v.Child(n, "right")
		if !isFileDir(v, left) {
			return "", false
		}
		s, ok := includePath(v, right)
		if !ok {
			return "", false
		}
		return "./" + strings.TrimPrefix(s, "/"), true
	}
	return "", false
}

// isFileDir reports whether n is __DIR__ or dirname(__FILE__).
func isFileDir(v *lang.View, n int) bool {
	switch v.Kind(n) {
	case "name":
		return v.Text(n) == "__DIR__"
	case "function_call_expression":
		return strings.Join(strings.Fields(v.Text(n)), "") == "dirname(__FILE__)"
	}
	return false
}

// defNodeKinds are the node kinds that carry definitions.
var defNodeKinds = []string{"namespace_definition", "class_declaration", "interface_declaration", "trait_declaration",
	"enum_declaration", "enum_case", "function_definition", "method_declaration", "property_declaration",
	"property_promotion_parameter", "const_declaration"}

func refine(v *lang.View, f *lang.Facts) {
	nodes := langutil.DefNodes(v, f, langutil.KindSet(v, defNodeKinds...))
	for i := range f.Defs {
		d := &f.Defs[i]
		if d.Kind == lang.KindNamespace {
			d.Name = qualified(d.Name)
		}
		if p := d.Parent; p >= 0 {
			switch {
			case f.Defs[p].Kind == lang.KindNamespace:
				d.Parent = f.Defs[p].Parent // braced namespaces do not nest paths
			case d.Kind == lang.KindProperty && f.Defs[p].Kind == lang.KindMethod:
				d.Parent = f.Defs[p].Parent // a promoted constructor parameter
			}
		}
		if n := nodes[i]; n >= 0 {
			if sig := signature(v, n); sig != "" {
				d.Signature = sig
			}
			d.Type = declaredType(v, n)
		}
	}
	langutil.RecomputePaths(f, func(i int) string { return f.Defs[i].Name })
	refs(v, f)
	refAt := classlang.RefsByPos(f)
	classlang.Chains(v, f, refAt, func(n int) (int, int) { return chained(v, n) })
	localTypes(v, f)
	classlang.CallLocals(f, refAt, callInitialised(v))
	untypeReassigned(v, f)
}

// localTypes gives the locals the class their declaration names as PHP
// writes it (\A\Foo, A\Foo: the query's capture keeps plain names only):
// a typed parameter's, or the one new constructs.
func localTypes(v *lang.View, f *lang.Facts) {
	byPos := map[lang.Pos]int{}
	for i, lo := range f.Locals {
		byPos[lo.Pos] = i
	}
	for n := 0; n < v.Len(); n++ {
		name, typ := -1, ""
		switch v.Kind(n) {
		case "simple_parameter", "property_promotion_parameter":
			name, typ = v.Child(n, "name"), namedType(v, v.Child(n, "type"))
		case "assignment_expression":
			if right := v.Child(n, "right"); right >= 0 && v.Kind(right) == "object_creation_expression" {
				if c := v.ChildOfKind(right, "qualified_name"); c >= 0 {
					name, typ = v.Child(n, "left"), v.Text(c)
				}
			}
		}
		if name < 0 || typ == "" {
			continue
		}
		if i, ok := byPos[v.Start(name)]; ok && f.Locals[i].Type == "" {
			f.Locals[i].Type = typ
		}
	}
}

// untypeReassigned forgets the type (and the call) a variable is declared
// or first assigned with when its function assigns it something else too
// ($x = new A(); ... $x = new B(), $s = $other for a parameter Store $s).
func untypeReassigned(v *lang.View, f *lang.Facts) {
	var assigned []langutil.Assignment
	variableAssignments(v, func(left, right int) {
		what := "?"
		if v.Kind(right) == "object_creation_expression" {
			if c := v.ChildOfKind(right, "qualified_name"); c >= 0 {
				what = "new " + v.Text(c)
			} else if c := v.ChildOfKind(right, "name"); c >= 0 {
				what = "new " + v.Text(c)
			}
		} else if c := calleeName(v, right); c >= 0 {
			what = "call " + v.Text(right)
		}
		assigned = append(assigned, langutil.Assignment{Scope: langutil.InnermostScope(f, v.Start(left)), Name: v.Text(left), What: what})
	})
	params := parameterNames(v)
	langutil.Untyped(f, assigned, func(lo lang.Local) bool { return params[lo.Pos] })
}

// variableAssignments calls fn with the two sides of every assignment to a
// variable ($x = ...).
func variableAssignments(v *lang.View, fn func(left, right int)) {
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "assignment_expression" {
			continue
		}
		left, right := v.Child(n, "left"), v.Child(n, "right")
		if left >= 0 && right >= 0 && v.Kind(left) == "variable_name" {
			fn(left, right)
		}
	}
}

// parameterNames are the positions of the parameters' names.
func parameterNames(v *lang.View) map[lang.Pos]bool {
	out := map[lang.Pos]bool{}
	for n := 0; n < v.Len(); n++ {
		switch v.Kind(n) {
		case "simple_parameter", "property_promotion_parameter", "variadic_parameter":
			if name := v.Child(n, "name"); name >= 0 {
				out[v.Start(name)] = true
			}
		}
	}
	return out
}

// namedType is the class type node t names (Foo, ?\A\Foo, Foo|null), as
// written; "" for a scalar, a union of classes or none.
func namedType(v *lang.View, t int) string {
	switch v.Kind(t) {
	case "optional_type":
		t = v.ChildOfKind(t, "named_type")
	case "union_type": // Foo|null: a Foo where it is anything
		named := -1
		for _, c := range v.Children(t) {
			switch {
			case v.Kind(c) == "named_type" && named < 0:
				named = c
			case v.Kind(c) == "primitive_type" && strings.EqualFold(v.Text(c), "null"):
			default:
				return "" // Foo|Bar, Foo|int
			}
		}
		t = named
	}
	if t < 0 || v.Kind(t) != "named_type" {
		return ""
	}
	return v.Text(t)
}

// chained gives, for a member read on a call's result (f()->m, $a->f()->m,
// A::f()->m, f()?->m), the name node of the member and that of the callee;
// -1, -1 for any other node.
func chained(v *lang.View, n int) (name, callee int) {
	switch v.Kind(n) {
	case "member_call_expression", "nullsafe_member_call_expression", "member_access_expression", "nullsafe_member_access_expression":
	default:
		return -1, -1
	}
	obj := v.Child(n, "object")
	if obj < 0 {
		return -1, -1
	}
	return v.Child(n, "name"), calleeName(v, obj)
}

// calleeName is the name node of the function or method call n calls; -1
// when n is no call of a name.
func calleeName(v *lang.View, n int) int {
	switch v.Kind(n) {
	case "member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression":
		return v.Child(n, "name")
	case "function_call_expression":
		if fn := v.Child(n, "function"); fn >= 0 && v.Kind(fn) == "name" {
			return fn
		}
	}
	return -1
}

// callInitialised maps the position of each variable that an assignment
// initialises with a call ($x = f(), $x = $a->f()) to the callee's name.
func callInitialised(v *lang.View) map[lang.Pos]lang.Pos {
	out := map[lang.Pos]lang.Pos{}
	variableAssignments(v, func(left, right int) {
		if c := calleeName(v, right); c >= 0 {
			out[v.Start(left)] = v.Start(c)
		}
	})
	return out
}

// declaredType is the class a property or promoted parameter declares
// (Foo $x, ?Foo $x) or a function or method returns (: Foo), as written;
// "" for none, a scalar or a union.
func declaredType(v *lang.View, n int) string {
	field := "type"
	switch v.Kind(n) {
	case "method_declaration", "function_definition":
		field = "return_type"
	case "property_declaration", "property_promotion_parameter":
	default:
		return ""
	}
	return namedType(v, v.Child(n, field))
}

// signature is a definition's header without attributes, comments, body and
// the closing semicolon.
func signature(v *lang.View, n int) string {
	start, end := v.Bytes(n)
	var cut [][2]int
	for _, c := range v.Children(n) {
		cs, ce := v.Bytes(c)
		switch {
		case v.Kind(c) == "attribute_list":
			if cs == start {
				start = ce
			} else {
				cut = append(cut, [2]int{cs, ce})
			}
		case v.Field(c) == "body":
			if cs < end {
				end = cs
			}
		}
	}
	for j := n + 1; j < v.Len(); j++ {
		cs, ce := v.Bytes(j)
		if cs >= end {
			break
		}
		if v.Kind(j) == "comment" && cs >= start {
			cut = append(cut, [2]int{cs, ce})
		}
	}
	sig := langutil.Header(v.Src(), start, end, cut)
	return strings.TrimSpace(strings.TrimSuffix(sig, ";"))
}

// dropNames are references that name no symbol: $this, self, static, parent
// (as names; as qualifiers they stay), and the class of Foo::class.
var dropNames = map[string]bool{"$this": true, "self": true, "static": true, "parent": true}

// isMagic reports whether a name is a magic constant: __DIR__, __CLASS__.
func isMagic(s string) bool {
	return len(s) > 4 && strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__") && strings.ToUpper(s) == s
}

// gateKinds are the scopes that do not see the variables around them.
var gateKinds = []string{"function_definition", "method_declaration", "anonymous_function"}

func refs(v *lang.View, f *lang.Facts) {
	names := langutil.NodesByStart(v, langutil.KindSet(v, "name", "variable_name"))
	imports := f.ImportByName()
	top := f.TopDefs(lang.KindNamespace) // PHP definitions have no receiver
	kept := f.Refs[:0]
	for _, r := range f.Refs {
		name := f.Names[r.Name]
		if dropNames[name] && r.Shape == lang.QualNone || name == "class" && r.Shape != lang.QualNone || isMagic(name) {
			continue
		}
		if r.BindDef >= 0 && f.Defs[r.BindDef].Kind == lang.KindNamespace {
			r.BindDef = -1 // a namespace is no value
		}
		n, ok := names[r.Pos]
		switch {
		case !ok:
		case strings.HasPrefix(name, "$") && r.Shape != lang.QualNone: // A::$x
			r.Name = langutil.Name(f, name[1:])
			r.Pos.Col++
		case r.Role == lang.RoleImport:
			// the name a use clause imports: bound to its import, not qualified
		case v.Kind(v.Parent(n)) == "qualified_name":
			q := v.Parent(n)
			qs, _ := v.Bytes(q)
			ns, _ := v.Bytes(n)
			prefix := strings.Join(strings.Fields(string(v.Src()[qs:ns])), "")
			if prefix == "" {
				break // namespace\x and the like: leave it bare
			}
			if prefix != `\` {
				prefix = strings.TrimSuffix(prefix, `\`)
			}
			r.Shape, r.Qualifier, r.QualBound = lang.QualPath, langutil.Name(f, prefix), false
			r.BindDef, r.BindImp = -1, -1
			if first, _, _ := strings.Cut(prefix, `\`); first != "" {
				if imp, ok := imports[first]; ok {
					r.BindImp = imp
				}
			}
		}
		if r.Shape == lang.QualNone && r.BindLocal < 0 && r.BindDef < 0 && !strings.HasPrefix(name, "$") {
			if d, ok := top[name]; ok { // classes of a braced namespace are top-level now
				r.BindDef, r.BindImp = d, -1
			}
		}
		kept = append(kept, r)
	}
	f.Refs = kept
	if len(f.Refs) == 0 {
		f.Refs = nil
	}

	gate := langutil.Gates(v, f, []string{"function_definition", "method_declaration", "anonymous_function", "arrow_function"}, gateKinds)
	vars := langutil.NodesByStart(v, langutil.KindSet(v, "variable_name"))
	assign := func(i int) bool {
		n, ok := vars[f.Locals[i].Pos]
		if !ok {
			return false
		}
		p := v.Parent(n)
		if v.Kind(p) == "by_ref" || v.Kind(p) == "pair" {
			p = v.Parent(p)
		}
		switch v.Kind(p) {
		case "assignment_expression", "reference_assignment_expression", "list_literal", "foreach_statement", "catch_clause":
			return true
		}
		return false
	}
	b := langutil.NewBinder(f, gate)
	b.Rebind(assign, false, func(q string) string { s, _, _ := strings.Cut(q, `\`); return s })
}
