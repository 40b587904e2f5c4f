package golang

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// Anonymous structs: a test table (tests := []struct{ name string; want int
// }{...}) or a one-off value (cfg := struct{ host string }{...}). Their
// fields are definitions of the file (TestX.name). The keys of their
// literals, and the members read through a local that holds one (tc.name
// in a range over the table, tests[i].want, cfg.host), are bound to those
// fields, so they link as proven instead of standing unresolved as
// candidates for every field of that name in the repository.

// anonFields finds the fields of the anonymous struct types of a file.
type anonFields struct {
	v     *lang.View
	f     *lang.Facts
	defAt map[lang.Pos]int32 // field definitions by the position of their name
}

func newAnonFields(v *lang.View, f *lang.Facts) *anonFields {
	a := &anonFields{v: v, f: f, defAt: map[lang.Pos]int32{}}
	for i, d := range f.Defs {
		if d.Kind == lang.KindField {
			a.defAt[d.NameSpan.Start] = int32(i)
		}
	}
	return a
}

// field is the definition of field name of the struct type node st, or -1.
func (a *anonFields) field(st int, name string) int32 {
	v := a.v
	list := v.ChildOfKind(st, "field_declaration_list")
	if list < 0 {
		return -1
	}
	for _, fd := range v.Children(list) {
		if v.Kind(fd) != "field_declaration" {
			continue
		}
		for _, n := range v.Children(fd) {
			if v.Kind(n) == "field_identifier" && v.Text(n) == name {
				if d, ok := a.defAt[v.Start(n)]; ok {
					return d
				}
				return -1
			}
		}
	}
	return -1
}

// structOf is the anonymous struct type node of a value of type node t
// (struct{...}, *struct{...}), or -1; with elements, that of its elements
// ([]struct{...}, [N]struct{...}, map[K]struct{...} and their pointers).
func (a *anonFields) structOf(t int, elements bool) int {
	v := a.v
	if t < 0 {
		return -1
	}
	if v.Kind(t) == "pointer_type" {
		kids := v.Children(t)
		if len(kids) != 1 {
			return -1
		}
		t = kids[0]
	}
	if !elements {
		if v.Kind(t) == "struct_type" {
			return t
		}
		return -1
	}
	switch v.Kind(t) {
	case "slice_type", "array_type", "implicit_length_array_type":
		return a.structOf(v.Child(t, "element"), false)
	case "map_type":
		return a.structOf(v.Child(t, "value"), false)
	}
	return -1
}

// maxCopies bounds the copies of a local followed to the struct it holds.
const maxCopies = 3

// bindMembers binds the members read through locals that hold an
// anonymous struct or a collection of them.
func (a *anonFields) bindMembers() {
	v, f := a.v, a.f
	localAt := make(map[lang.Pos]int32, len(f.Locals))
	for i, lo := range f.Locals {
		localAt[lo.Pos] = int32(i)
	}
	holds := map[int32]int{}    // local -> the struct it holds
	elements := map[int32]int{} // local -> the struct of its elements
	for n := 0; n < v.Len(); n++ {
		var names, values []int
		switch v.Kind(n) {
		case "short_var_declaration":
			names, values = langutil.Children(v, v.Child(n, "left")), langutil.Children(v, v.Child(n, "right"))
		case "var_spec":
			for _, c := range v.Children(n) {
				if v.Field(c) == "name" {
					names = append(names, c)
				}
			}
			values = langutil.Children(v, v.Child(n, "value"))
		default:
			continue
		}
		if len(names) != len(values) {
			continue
		}
		for i, name := range names {
			val := values[i]
			if v.Kind(val) == "unary_expression" && strings.HasPrefix(v.Text(val), "&") {
				val = v.Child(val, "operand")
			}
			if v.Kind(val) != "composite_literal" {
				continue
			}
			li, ok := localAt[v.Start(name)]
			if !ok {
				continue
			}
			t := v.Child(val, "type")
			if st := a.structOf(t, false); st >= 0 {
				holds[li] = st
			} else if st := a.structOf(t, true); st >= 0 {
				elements[li] = st
			}
		}
	}
	if len(holds) == 0 && len(elements) == 0 {
		return
	}
	binder := langutil.NewBinder(f, nil)
	names := lang.NewNameTable(f)
	// the struct a local holds: its own, an element of a collection local
	// it ranges over ([v]tests, from a range statement), or that of the
	// local it copies (tc := tc, the loop variable kept for a closure)
	var structIn func(li int32, depth int) int
	structIn = func(li int32, depth int) int {
		if st, ok := holds[li]; ok {
			return st
		}
		lo := f.Locals[li]
		if src, ok := strings.CutPrefix(lo.Type, "="); ok {
			id, found := names.Lookup(src)
			if !found || depth >= maxCopies || lo.Scope < 0 {
				return -1
			}
			// the copied name as the scope around the copy sees it
			if ci := binder.Lookup(id, f.Scopes[lo.Scope].Parent, lo.Pos, true); ci >= 0 && ci != li {
				return structIn(ci, depth+1)
			}
			return -1
		}
		coll, ok := strings.CutPrefix(lo.Type, "[v]")
		if !ok {
			return -1
		}
		id, ok := names.Lookup(coll)
		if !ok {
			return -1
		}
		if ci := binder.Lookup(id, lo.Scope, lo.Pos, true); ci >= 0 {
			if st, ok := elements[ci]; ok {
				return st
			}
		}
		return -1
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.BindDef >= 0 || r.BindLocal >= 0 {
			continue
		}
		st := -1
		switch {
		case r.Shape == lang.QualIdent && r.QualBound:
			if li := binder.Lookup(r.Qualifier, r.Scope, r.Pos, true); li >= 0 {
				st = structIn(li, 0)
			}
		case r.Shape == lang.QualExpr:
			// tests[i].want
			q := f.Names[r.Qualifier]
			open := strings.IndexByte(q, '[')
			if open <= 0 || !strings.HasSuffix(q, "]") {
				continue
			}
			if id, ok := names.Lookup(q[:open]); ok {
				if li := binder.Lookup(id, r.Scope, r.Pos, true); li >= 0 {
					if est, ok := elements[li]; ok {
						st = est
					}
				}
			}
		}
		if st < 0 {
			continue
		}
		if d := a.field(st, f.Names[r.Name]); d >= 0 {
			r.BindDef = d
		}
	}
}
