package golang

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// refine records the types of call results (chains) and gives the keys of keyed composite literals what the literal's type
// says about them. The query makes every identifier key a member reference
// whose receiver it does not know; here:
//
//   - in a literal of a named type, T{k: v}, &T{k: v}, pkg.T{k: v}, and in an
//     element literal whose type is elided where the outer literal's element
//     type is a named type ([]T{{k: v}}, map[K]*T{"a": {k: v}}), the key is
//     the field k of that type: Shape QualType, Qualifier "T" or "pkg.T";
//   - in a literal of a map, slice or array type written as such, the key is
//     an expression (a map key, an index): a plain reference, bound like any
//     other bare name.
//
// Keys of literals whose type is not written (a struct literal inside a
// struct's field, an anonymous struct) stay as they are.
func refine(v *lang.View, f *lang.Facts) {
	chains(v, f)
	if len(f.Refs) == 0 {
		return
	}
	defer packageNames(f)
	r := &literals{v: v, f: f, anon: newAnonFields(v, f)}
	for i := 0; i < v.Len(); i++ {
		if v.Kind(i) != "composite_literal" {
			continue
		}
		body := v.Child(i, "body")
		if body < 0 {
			continue
		}
		r.walk(body, v.Child(i, "type"), 1)
	}
	if r.values != nil {
		r.bindValues()
	}
	r.anon.bindMembers()
}

type literals struct {
	v      *lang.View
	f      *lang.Facts
	refAt  map[lang.Pos]int // member references with an unknown receiver, by position
	values []int            // references turned into plain ones, to bind
	anon   *anonFields      // the fields of anonymous struct types (anonstruct.go)
}

// ref finds the keyless member reference at the identifier node n, or -1.
func (r *literals) ref(n int) int {
	if r.refAt == nil {
		r.refAt = map[lang.Pos]int{}
		for i, x := range r.f.Refs {
			if x.Shape == lang.QualExpr && r.f.Names[x.Qualifier] == "" {
				r.refAt[x.Pos] = i
			}
		}
	}
	if i, ok := r.refAt[r.v.Start(n)]; ok {
		return i
	}
	return -1
}

// named is the type name a type node declares a literal with ("" when it is
// not a named type): T, pkg.T, T[A], and for an elided element literal *T.
func (r *literals) named(t int) string {
	switch r.v.Kind(t) {
	case "type_identifier", "qualified_type", "generic_type", "pointer_type":
		if r.v.Kind(t) == "pointer_type" {
			switch r.v.Kind(r.v.Children(t)[0]) {
			case "type_identifier", "qualified_type", "generic_type":
			default:
				return ""
			}
		}
		return lang.TypeName(r.v.Text(t))
	}
	return ""
}

// walk handles the literal value lv of type node t (-1 when unknown); depth
// counts the literals it is in, up to lang.MaxNesting (a deeper element
// literal is not read: its type would be as deep as the literal).
func (r *literals) walk(lv, t, depth int) {
	v := r.v
	typeName := r.named(t)
	var keyType, elemType int = -1, -1
	container := false
	switch v.Kind(t) {
	case "map_type":
		container, keyType, elemType = true, v.Child(t, "key"), v.Child(t, "value")
	case "slice_type", "array_type", "implicit_length_array_type":
		container, elemType = true, v.Child(t, "element")
	}
	for _, e := range v.Children(lv) {
		switch v.Kind(e) {
		case "literal_element": // an element without a key
			if container {
				r.elided(e, elemType, depth)
			}
		case "keyed_element":
			key, value := v.Child(e, "key"), v.Child(e, "value")
			if container {
				r.elided(key, keyType, depth)
				r.elided(value, elemType, depth)
			}
			id := r.keyIdent(key)
			if id < 0 {
				continue
			}
			ri := r.ref(id)
			if ri < 0 {
				continue
			}
			ref := &r.f.Refs[ri]
			switch {
			case v.Kind(t) == "struct_type":
				// struct{ name string }{name: "a"}: the field of the file
				if d := r.anon.field(t, v.Text(id)); d >= 0 {
					ref.Shape, ref.Qualifier, ref.BindDef = lang.QualNone, 0, d
				}
			case typeName != "":
				ref.Shape, ref.Qualifier = lang.QualType, langutil.Name(r.f, typeName)
			case container:
				ref.Shape, ref.Qualifier = lang.QualNone, 0
				r.values = append(r.values, ri)
			}
		}
	}
}

// elided walks an element literal whose type is elided ({...} standing for
// T{...} or &T{...}) with the element type t of the enclosing literal.
func (r *literals) elided(el, t, depth int) {
	if el < 0 || t < 0 || depth >= lang.MaxNesting {
		return
	}
	if lv := r.v.ChildOfKind(el, "literal_value"); lv >= 0 {
		r.walk(lv, t, depth+1)
	}
}

// keyIdent is the identifier a key consists of, or -1.
func (r *literals) keyIdent(key int) int {
	if key < 0 {
		return -1
	}
	kids := r.v.Children(key)
	if len(kids) != 1 || r.v.Kind(kids[0]) != "identifier" {
		return -1
	}
	return kids[0]
}

// bindValues binds the keys that are expressions the way the engine binds a
// bare name: a local in scope, else a top-level definition, else an import.
func (r *literals) bindValues() {
	f := r.f
	binder := langutil.NewBinder(f, nil)
	top, imports := f.TopDefs(), f.ImportByName()
	for _, ri := range r.values {
		ref := &f.Refs[ri]
		if lo := binder.Lookup(ref.Name, ref.Scope, ref.Pos, true); lo >= 0 {
			ref.BindLocal = lo
			continue
		}
		name := f.Names[ref.Name]
		if d, ok := top[name]; ok {
			ref.BindDef = d
			continue
		}
		if imp, ok := imports[name]; ok {
			ref.BindImp = imp
		}
	}
}

// packageNames binds each bare reference that no local or definition of the
// file binds, and that spells the name an import of the file binds, to that
// import: errors in errors.New. Which name a package declares is known when
// it resolves (the linker asks); here it is its alias, or the names its
// path suggests: importName (yaml for gopkg.in/yaml.v3, v1 for
// k8s.io/api/core/v1) and otherImportName (v5 for go-chi/chi/v5).
func packageNames(f *lang.Facts) {
	byName := map[string]int32{}
	for i, im := range f.Imports {
		if im.Alias == "_" || im.Alias == "." || im.Source == "" {
			continue
		}
		for _, n := range []string{importName(im), otherImportName(im)} {
			if _, taken := byName[n]; !taken && lang.IsIdentifier(n) {
				byName[n] = int32(i)
			}
		}
	}
	if len(byName) == 0 {
		return
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.Shape != lang.QualNone || r.BindLocal >= 0 || r.BindDef >= 0 || r.BindImp >= 0 {
			continue
		}
		if imp, ok := byName[f.Names[r.Name]]; ok {
			r.BindImp = imp
		}
	}
}
