package rust

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// A binding of Some(x), Ok(x) or Err(x) in an if let, a while let or a
// match arm whose scrutinee is a parameter or let of the function declared
// Option<T> or Result<T, E> is a T (an E for Err): x.m is T's member.

// unwrapped is such a binding: the position of x, which variant binds it,
// and the position of the scrutinee's name.
type unwrapped struct {
	local, scrutinee lang.Pos
	variant          string
}

// readUnwrapped reads tuple_struct_pattern n as such a binding.
func readUnwrapped(v *lang.View, n int) (unwrapped, bool) {
	typ := langutil.Child(v, n, "type")
	variant := v.Text(typ)
	if variant != "Some" && variant != "Ok" && variant != "Err" {
		return unwrapped{}, false
	}
	var sub []int
	for _, c := range langutil.Children(v, n) {
		if c != typ {
			sub = append(sub, c)
		}
	}
	if len(sub) != 1 {
		return unwrapped{}, false
	}
	id := boundName(v, sub[0])
	p := v.Parent(n)
	if v.Kind(p) == "match_pattern" { // match_expression > match_block > match_arm > match_pattern
		p = v.Parent(v.Parent(v.Parent(p)))
	}
	if id < 0 || (v.Kind(p) != "let_condition" && v.Kind(p) != "match_expression") {
		return unwrapped{}, false
	}
	val := langutil.Child(v, p, "value")
	if v.Kind(val) != "identifier" {
		return unwrapped{}, false
	}
	return unwrapped{local: v.Start(id), scrutinee: v.Start(val), variant: variant}, true
}

// wrappedType is what variant unwraps from the type that type node t
// declares: T of Option<T> for Some, T of Result<T, E> for Ok, E for Err
// (behind a reference: &Option<T>); "" for any other type.
func wrappedType(v *lang.View, t int, variant string) string {
	if v.Kind(t) == "reference_type" {
		t = langutil.Child(v, t, "type")
	}
	if v.Kind(t) != "generic_type" {
		return ""
	}
	place := 0
	switch w := v.Text(langutil.Child(v, t, "type")); {
	case variant == "Some" && w == "Option", variant == "Ok" && w == "Result":
	case variant == "Err" && w == "Result":
		place = 1
	default:
		return ""
	}
	args := langutil.Child(v, t, "type_arguments")
	if args < 0 {
		return ""
	}
	if cs := v.Children(args); place < len(cs) {
		return namedType(v, cs[place])
	}
	return ""
}

// unwrapLocals types the bindings us make, from the declared types of the
// bindings their scrutinees name (typeNodes: a binding's position -> its
// declared type node).
func unwrapLocals(v *lang.View, f *lang.Facts, us []unwrapped, typeNodes map[lang.Pos]int) {
	if len(us) == 0 {
		return
	}
	at := indexByPos(f)
	for _, u := range us {
		li, ri, ok := at.untyped(f, u.local, u.scrutinee)
		if !ok || f.Refs[ri].BindLocal < 0 {
			continue
		}
		if tn, ok := typeNodes[f.Locals[f.Refs[ri].BindLocal].Pos]; ok {
			f.Locals[li].Type = wrappedType(v, tn, u.variant)
		}
	}
}

// byPos indexes a file's references and locals by position.
type byPos struct{ refs, locals map[lang.Pos]int }

func indexByPos(f *lang.Facts) byPos {
	at := byPos{refs: make(map[lang.Pos]int, len(f.Refs)), locals: make(map[lang.Pos]int, len(f.Locals))}
	for i, r := range f.Refs {
		at.refs[r.Pos] = i
	}
	for i, lo := range f.Locals {
		at.locals[lo.Pos] = i
	}
	return at
}

// untyped is the local declared at local, which the source gives no type,
// and the reference at ref; false when either is missing or the local has a
// type.
func (at byPos) untyped(f *lang.Facts, local, ref lang.Pos) (li, ri int, ok bool) {
	li, ok1 := at.locals[local]
	ri, ok2 := at.refs[ref]
	return li, ri, ok1 && ok2 && f.Locals[li].Type == ""
}
