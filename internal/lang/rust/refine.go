package rust

import (
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
	"github.com/cairnhq/cairn/internal/lang/native"
)

// refine applies the Rust rules the query cannot express:
//   - the receiver of an impl member is the base name of the impl's type
//     (impl<T> fmt::Display for &'a Foo<T> is Foo), prefixed by the enclosing
//     modules, and its path is Receiver.name;
//   - docs are the outer doc comments (///, /** */) above an item, across its
//     attributes, or a module's inner docs (//!); plain comments directly
//     above when there are none;
//   - signatures lose a trailing ";", macros read macro_rules! name;
//   - identifiers inside use, extern crate and mod declarations are imports,
//     not references, and those in attribute arguments but derive's are
//     configuration (attributes.go);
//   - a::b::c references get the qualifier "a::b", bound by its first segment;
//   - upper-case names in patterns are constants or variants, not bindings;
//   - bare names bind to items of the enclosing functions and module;
//   - impl Trait for Type makes Type implement Trait.
func refine(v *lang.View, f *lang.Facts) {
	fieldTypes := refineDefs(v, f)
	found := collect(v)
	kept := importRefs(f, found.uses)
	native.DropRefsIn(f, found.drop)
	if len(kept) > 0 {
		f.Refs = append(f.Refs, kept...)
		sort.SliceStable(f.Refs, func(i, j int) bool { return f.Refs[i].Pos.Before(f.Refs[j].Pos) })
	}
	names := lang.NewNameTable(f)
	b := &binder{f: f, imports: f.ImportByName()}
	b.index()
	b.bindRefs(found, names)
	b.addShorthandFields(found.shorthands, names)
	typeLocals(v, f, found, fieldTypes)
	native.DemoteLocals(f, func(lo lang.Local) bool {
		return native.StartsUpper(f.Names[lo.Name]) && !found.typeParams[lo.Pos]
	}, b.bare)
	implRelations(v, f, found.impls)
	if len(found.lets) > 0 || len(found.chains) > 0 {
		calls := callsByPos(f)
		callLocals(f, found.lets, calls)
		chainRefs(f, found.chains, calls)
	}
	variantLocals(f, found.variants)
}

// refineDefs gives the definitions their docs, signatures and types, and
// returns the node of each field's declared type by the field's path.
func refineDefs(v *lang.View, f *lang.Facts) map[string]int {
	nodes := langutil.NodesBySpan(v, langutil.DefSpans(f), func(i int) bool { return defKinds[v.Kind(i)] })
	receivers(f)
	fieldTypes := map[string]int{} // a field's lexical path -> its declared type node
	for i := range f.Defs {
		d := &f.Defs[i]
		n, ok := nodes[d.Span]
		if !ok {
			continue
		}
		d.Doc = doc(v, n)
		d.Signature = strings.TrimSpace(strings.TrimSuffix(d.Signature, ";"))
		switch v.Kind(n) {
		case "function_item", "function_signature_item":
			d.Type = returnType(v, n)
		case "field_declaration":
			t := langutil.Child(v, n, "type")
			if d.Type == "" { // the query's capture keeps plain names
				d.Type = namedType(v, t)
			}
			fieldTypes[d.Path] = t
		}
		if v.Kind(n) == "macro_definition" {
			d.Signature = "macro_rules! " + d.Name
		}
	}
	return fieldTypes
}

// collected is what one walk over a file's nodes gathers for refine.
type collected struct {
	drop       []lang.Span // use, extern crate and mod declarations, configuration attributes
	uses       []useName
	quals      map[lang.Pos]string // a::b::c: c's position -> "a::b"
	impls      []int
	typeParams map[lang.Pos]bool
	members    map[lang.Pos]macroMember // names inside macro token trees
	calls      map[lang.Pos]bool
	shorthands map[lang.Pos]shorthand
	bounds     []typeBound
	lets       []callLet
	variants   []variantBinding
	chains     map[lang.Pos]lang.Pos // f().m: m's position -> f's
	declared   map[lang.Pos]string   // a binding's declared type, paths included
	typeNodes  map[lang.Pos]int      // and the node of that type
	unwraps    []unwrapped           // Some(x), Ok(x), Err(x) of a declared binding
	elements   []element             // for x in xs, xs.iter().any(|x| …)
}

// collect walks a file's nodes once.
func collect(v *lang.View) *collected {
	c := &collected{quals: map[lang.Pos]string{}, typeParams: map[lang.Pos]bool{}, members: map[lang.Pos]macroMember{},
		calls: map[lang.Pos]bool{}, shorthands: map[lang.Pos]shorthand{}, chains: map[lang.Pos]lang.Pos{},
		declared: map[lang.Pos]string{}, typeNodes: map[lang.Pos]int{}}
	for i := 0; i < v.Len(); i++ {
		switch v.Kind(i) {
		case "use_declaration", "extern_crate_declaration":
			c.drop = append(c.drop, v.Span(i))
			if v.Kind(i) == "use_declaration" {
				c.uses = append(c.uses, useNames(v, i, v.Span(i), nil, 0)...)
			}
		case "attribute":
			c.drop = attributeDrops(v, i, c.drop)
		case "mod_item":
			if langutil.Child(v, i, "body") < 0 {
				c.drop = append(c.drop, v.Span(i))
			}
		case "scoped_identifier", "scoped_type_identifier":
			p, name := langutil.Child(v, i, "path"), langutil.Child(v, i, "name")
			// a::b::c nests each path in the next: reading long ones whole
			// at every level would cost the square of the path
			if p >= 0 && name >= 0 {
				if s, e := v.Bytes(p); e-s <= maxQualPath {
					c.quals[v.Start(name)] = strings.Join(segments(v, p), "::")
				}
			}
		case "impl_item":
			c.impls = append(c.impls, i)
		case "token_tree":
			macroNames(v, i, c.quals, c.members, c.calls, c.shorthands, c.chains)
		case "struct_expression", "struct_pattern":
			c.variants = structFields(v, i, c.quals, c.shorthands, c.variants)
		case "type_parameter":
			if name := langutil.Child(v, i, "name"); name >= 0 {
				c.typeParams[v.Start(name)] = true
			}
			if b, ok := readBound(v, i); ok {
				c.bounds = append(c.bounds, b)
			}
		case "where_predicate":
			if b, ok := readBound(v, i); ok {
				c.bounds = append(c.bounds, b)
			}
		case "field_expression":
			if m, callee, ok := readChain(v, i); ok {
				c.chains[m] = callee
			}
		case "tuple_struct_pattern":
			c.variants = readVariantBindings(v, i, c.variants)
			if u, ok := readUnwrapped(v, i); ok {
				c.unwraps = append(c.unwraps, u)
			}
		case "for_expression", "closure_expression":
			if e, ok := readElement(v, i); ok {
				c.elements = append(c.elements, e)
			}
		case "let_declaration", "parameter":
			if l, ok := readCallLet(v, i); ok {
				c.lets = append(c.lets, l)
			}
			if pos, t, node := declaredType(v, i); node >= 0 {
				c.declared[pos], c.typeNodes[pos] = t, node
			}
		}
	}
	return c
}

// bindRefs binds the references: names inside macros, a::b::c by its
// qualifier, Self to the enclosing impl's type, bare names to the items of
// the enclosing functions and module.
func (b *binder) bindRefs(c *collected, names *lang.NameTable) {
	f := b.f
	bound := map[lang.Pos]bool{}
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.Role == lang.RoleImport {
			continue // an item a use declaration names, bound to its import
		}
		if c.calls[r.Pos] && r.Role == lang.RoleRead {
			r.Role = lang.RoleCall
		}
		if len(c.members) > 0 && r.BindLocal >= 0 {
			bound[r.Pos] = true
		}
		if m, ok := c.members[r.Pos]; ok {
			b.member(r, m, names, bound)
			continue
		}
		if q, ok := c.quals[r.Pos]; ok {
			b.qualify(r, q, names)
			continue
		}
		if r.Shape == lang.QualNone && r.BindLocal < 0 {
			if f.Names[r.Name] == "Self" {
				if d := b.selfType(r.Enclosing); d >= 0 {
					r.BindDef, r.BindImp = d, -1
				}
				continue
			}
			if d := b.item(r.Enclosing, f.Names[r.Name]); d >= 0 {
				r.BindDef, r.BindImp = d, -1
			}
		}
	}
}

// typeLocals gives the locals the types their declarations, patterns,
// loops and bounds tell.
func typeLocals(v *lang.View, f *lang.Facts, c *collected, fieldTypes map[string]int) {
	for i := range f.Locals {
		if t, ok := c.declared[f.Locals[i].Pos]; ok && f.Locals[i].Type == "" {
			f.Locals[i].Type = t
		}
	}
	unwrapLocals(v, f, c.unwraps, c.typeNodes)
	elementLocals(v, f, c.elements, c.typeNodes, fieldTypes)
	boundLocals(f, c.bounds)
}

// defKinds are the node kinds that carry definitions.
var defKinds = map[string]bool{
	"function_item": true, "function_signature_item": true, "struct_item": true, "union_item": true,
	"enum_item": true, "enum_variant": true, "trait_item": true, "type_item": true, "associated_type": true,
	"const_item": true, "static_item": true, "mod_item": true, "macro_definition": true, "field_declaration": true,
}

// BaseType is the name a type's text ends in, without references, lifetimes,
// generic arguments or path: "&'a mut crate::x::Foo<T>" is "Foo".
func BaseType(t string) string {
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	if i := strings.LastIndex(t, "::"); i >= 0 {
		t = t[i+2:]
	}
	fields := strings.Fields(strings.NewReplacer("&", " ", "*", " ", "(", " ", ")", " ", "[", " ", "]", " ").Replace(t))
	for i := len(fields) - 1; i >= 0; i-- {
		if w := fields[i]; w != "mut" && w != "const" && w != "dyn" && !strings.HasPrefix(w, "'") {
			return w
		}
	}
	return strings.TrimSpace(t)
}

// receivers normalises the receivers and paths of impl members.
func receivers(f *lang.Facts) {
	changed := false
	paths := map[string]bool{}
	for _, d := range f.Defs {
		if d.Receiver == "" {
			paths[d.Path] = true // types are final already, unless nested in impl members
		}
	}
	for i := range f.Defs {
		d := &f.Defs[i]
		if d.Receiver == "" {
			if d.Parent >= 0 {
				d.Path = f.ChildPath(d.Parent, d.Name) // parents may have been renamed
			}
			paths[d.Path] = true
			continue
		}
		d.Receiver = typePath(f, d.Parent, d.Receiver, paths)
		d.Path = f.JoinPath(d.Receiver, d.Name)
		changed = true
	}
	if changed {
		langutil.RecomputeDups(f)
	}
}

// typePath is the lexical path of an impl's type written inside definition
// parent: the path of a type in an inline module of the file when the
// written path names one (inner::T), else the parent's path and the type's
// base name.
func typePath(f *lang.Facts, parent int32, text string, paths map[string]bool) string {
	prefix := ""
	if parent >= 0 {
		prefix = f.Defs[parent].Path + "."
	}
	base := BaseType(text)
	if i := strings.IndexByte(text, '<'); i >= 0 {
		text = text[:i]
	}
	text = strings.TrimPrefix(strings.Join(strings.Fields(text), ""), "self::")
	if strings.Contains(text, "::") && !strings.ContainsAny(text, "&*()[]'") {
		if p := prefix + strings.ReplaceAll(text, "::", "."); paths[p] {
			return p
		}
	}
	return prefix + base
}

// doc finds the documentation of the item at node n.
func doc(v *lang.View, n int) string {
	var docs, plain []string
	next := v.Start(n).Line
	for s := native.PrevSibling(v, n); s >= 0; s = native.PrevSibling(v, s) {
		k := v.Kind(s)
		if k == "attribute_item" {
			next = v.Start(s).Line
			continue
		}
		if k != "line_comment" && k != "block_comment" {
			break
		}
		if langutil.Child(v, s, "outer") >= 0 {
			if len(plain) > 0 {
				break
			}
			docs = append(docs, commentDoc(v, s))
			next = v.Start(s).Line
			continue
		}
		if langutil.Child(v, s, "inner") >= 0 || len(docs) > 0 {
			break
		}
		end := v.End(s)
		if end.Col == 1 && end.Line > v.Start(s).Line {
			end.Line-- // a line comment ends with its newline
		}
		if end.Line+1 != next {
			break
		}
		plain = append(plain, v.Text(s))
		next = v.Start(s).Line
	}
	if len(docs) == 0 && len(plain) > 0 {
		docs = plain
	}
	// docs were collected bottom-up
	for i, j := 0, len(docs)-1; i < j; i, j = i+1, j-1 {
		docs[i], docs[j] = docs[j], docs[i]
	}
	if len(docs) == 0 && v.Kind(n) == "mod_item" {
		for _, c := range langutil.Children(v, langutil.Child(v, n, "body")) {
			k := v.Kind(c)
			if (k != "line_comment" && k != "block_comment") || langutil.Child(v, c, "inner") < 0 {
				break
			}
			docs = append(docs, commentDoc(v, c))
		}
	}
	if len(docs) == 0 {
		return ""
	}
	return native.DocText(docs)
}

// commentDoc is a doc comment's text without its markers.
func commentDoc(v *lang.View, c int) string {
	if d := langutil.Child(v, c, "doc"); d >= 0 {
		return "//" + v.Text(d) // a marker for DocText to strip
	}
	return v.Text(c)
}

// maxQualPath caps the bytes of a path that qualifies a name (a::b in
// a::b::c); a longer one does not qualify it.
const maxQualPath = 1024

// segments lists the segments of a path node: a::b<T>::c is [a b c]; a
// segment that is not a name (<T as Trait>) is "?".
func segments(v *lang.View, n int) []string {
	switch v.Kind(n) {
	case "scoped_identifier", "scoped_type_identifier":
		var out []string
		if p := langutil.Child(v, n, "path"); p >= 0 {
			out = segments(v, p)
		}
		if name := langutil.Child(v, n, "name"); name >= 0 {
			out = append(out, v.Text(name))
		}
		return out
	case "generic_type", "generic_type_with_turbofish":
		if t := langutil.Child(v, n, "type"); t >= 0 {
			return segments(v, t)
		}
	case "identifier", "type_identifier", "crate", "self", "super", "metavariable":
		return []string{v.Text(n)}
	}
	return []string{"?"}
}

// binder binds names to the items of a file.
type binder struct {
	f       *lang.Facts
	imports map[string]int32
	items   map[itemKey]int32 // items by enclosing definition and name
}

type itemKey struct {
	parent int32
	name   string
}

func (b *binder) index() {
	b.items = map[itemKey]int32{}
	for i, d := range b.f.Defs {
		if d.Receiver != "" || d.Kind == lang.KindField || d.Kind == lang.KindEnumMember {
			continue
		}
		if d.Parent >= 0 && !b.scopeLike(d.Parent) {
			continue // members of traits
		}
		k := itemKey{d.Parent, d.Name}
		if _, ok := b.items[k]; !ok {
			b.items[k] = int32(i)
		}
	}
}

// item finds the item a bare name means from inside definition from: items
// of enclosing functions, then of the enclosing module (an inner module does
// not see its parent's items).
func (b *binder) item(from int32, name string) int32 {
	for d := from; ; d = b.f.Defs[d].Parent {
		for d >= 0 && !b.scopeLike(d) {
			d = b.f.Defs[d].Parent
		}
		if i, ok := b.items[itemKey{d, name}]; ok {
			return i
		}
		if d < 0 || b.f.Defs[d].Kind == lang.KindModule {
			return -1
		}
	}
}

// scopeLike reports whether definition d holds items its code sees: a
// module, a function, or a const or static whose initialiser is a block
// (static HEX: [u8; 256] = { const __: u8 = 255; [__, …] }).
func (b *binder) scopeLike(d int32) bool {
	switch b.f.Defs[d].Kind {
	case lang.KindModule, lang.KindFunction, lang.KindMethod, lang.KindConstant, lang.KindVariable:
		return true
	}
	return false
}

// selfType is the type that Self means inside definition from: the receiver
// of the enclosing impl member, or the enclosing trait; -1 when it is not
// defined in the file.
func (b *binder) selfType(from int32) int32 {
	for d := from; d >= 0; d = b.f.Defs[d].Parent {
		def := b.f.Defs[d]
		if def.Kind == lang.KindInterface {
			return d
		}
		if def.Receiver == "" {
			continue
		}
		for i, t := range b.f.Defs {
			if t.Path == def.Receiver && t.Kind.IsTypeLike() {
				return int32(i)
			}
		}
		return -1
	}
	return -1
}

// bare binds a bare name that lost its local binding.
func (b *binder) bare(r *lang.Ref) {
	name := b.f.Names[r.Name]
	if d := b.item(r.Enclosing, name); d >= 0 {
		r.BindDef = d
		return
	}
	if imp, ok := b.imports[name]; ok {
		r.BindImp = imp
	}
}

// qualify sets the qualifier of an a::b::c reference and binds its first segment.
func (b *binder) qualify(r *lang.Ref, q string, names *lang.NameTable) {
	r.BindLocal, r.BindDef, r.BindImp, r.QualBound = -1, -1, -1, false
	r.Qualifier = names.ID(q)
	first, _, more := strings.Cut(q, "::")
	switch {
	case q == "Self":
		r.Shape = lang.QualSelf
		return
	case !more && first != "?" && first != "crate" && first != "self" && first != "super":
		r.Shape = lang.QualIdent
	default:
		r.Shape = lang.QualPath
	}
	switch first {
	case "crate", "self", "super", "Self", "?", "":
		return
	}
	if b.item(r.Enclosing, first) >= 0 {
		r.QualBound = true
	} else if imp, ok := b.imports[first]; ok {
		r.BindImp = imp
	}
}

// implRelations records impl Trait for Type as Type implements Trait, when
// Type is defined in the file.
func implRelations(v *lang.View, f *lang.Facts, impls []int) {
	if len(impls) == 0 {
		return
	}
	byPath := map[string]int32{}
	paths := map[string]bool{}
	for i, d := range f.Defs {
		paths[d.Path] = true
		if d.Kind.IsTypeLike() {
			if _, ok := byPath[d.Path]; !ok {
				byPath[d.Path] = int32(i)
			}
		}
	}
	added := false
	for _, n := range impls {
		tr, ty := langutil.Child(v, n, "trait"), langutil.Child(v, n, "type")
		if tr < 0 || ty < 0 {
			continue
		}
		d, ok := byPath[typePath(f, langutil.Enclosing(f, v.Start(n)), v.Text(ty), paths)]
		if !ok {
			continue
		}
		f.TypeRels = append(f.TypeRels, lang.TypeRel{Def: d, Kind: lang.RelImplements, Target: lang.CollapseSpace(v.Text(tr)), Pos: v.Start(tr)})
		added = true
	}
	if added {
		sort.SliceStable(f.TypeRels, func(i, j int) bool { return f.TypeRels[i].Pos.Before(f.TypeRels[j].Pos) })
	}
}

// useName is the name of an item a use declaration imports, where it is
// written (Parser in use crate::parser::{Parser, ParserBuilder}).
type useName struct {
	pos  lang.Pos
	name string
	decl lang.Span // the use declaration
}

// useNames lists the item names of a use tree: the last segment of each
// path it imports, before any alias (self and wildcards name no item).
func useNames(v *lang.View, n int, decl lang.Span, out []useName, depth int) []useName {
	if depth > lang.MaxNesting {
		return out
	}
	switch v.Kind(n) {
	case "identifier":
		return append(out, useName{v.Start(n), v.Text(n), decl})
	case "scoped_identifier":
		if name := langutil.Child(v, n, "name"); name >= 0 && v.Kind(name) == "identifier" {
			return append(out, useName{v.Start(name), v.Text(name), decl})
		}
	case "use_as_clause":
		if p := langutil.Child(v, n, "path"); p >= 0 {
			return useNames(v, p, decl, out, depth+1)
		}
	case "scoped_use_list":
		return useNames(v, langutil.Child(v, n, "list"), decl, out, depth+1)
	default: // use_declaration's argument, use_list
		for _, c := range langutil.Children(v, n) {
			out = useNames(v, c, decl, out, depth+1)
		}
	}
	return out
}

// importRefs are the references of a use declaration worth keeping: the
// names of the items it imports, each bound to its import, which the
// linker links to the item (so that a rename of the item edits them).
func importRefs(f *lang.Facts, uses []useName) []lang.Ref {
	if len(uses) == 0 {
		return nil
	}
	at := map[lang.Pos]useName{}
	for _, u := range uses {
		at[u.pos] = u
	}
	var out []lang.Ref
	for _, r := range f.Refs {
		u, ok := at[r.Pos]
		if !ok || f.Names[r.Name] != u.name {
			continue
		}
		for i, im := range f.Imports {
			if im.Name == u.name && u.decl.Contains(im.Pos) && (im.Kind == lang.ImportNamed || im.Kind == lang.ImportModule) {
				r.BindImport(int32(i))
				out = append(out, r)
				break
			}
		}
	}
	return out
}
