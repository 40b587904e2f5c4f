package rust

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// A for loop's binding (for lit in &self.lits, for e in exprs.iter()) and
// the parameter of a closure passed to an iterator over a collection
// (exprs.iter().any(|e| e.is_empty())) are elements of that collection.
// Where the collection is a binding of the function or a field of self's
// type, declared in this file with a type of one kind of element (Vec<T>,
// &[T], [T; N], VecDeque<T>, HashSet<T>, BTreeSet<T>, BinaryHeap<T>), the
// binding is a T, as if declared so.

// element is such a binding: the position of the name it binds and the
// position of the collection's name (x of x, &x, x.iter(); f of self.f).
type element struct {
	local, coll lang.Pos
}

// collections are the types whose first type argument is their element.
var collections = map[string]bool{"Vec": true, "VecDeque": true, "HashSet": true, "BTreeSet": true, "BinaryHeap": true, "LinkedList": true}

// iterators are the methods that iterate a collection's elements (or
// references to them).
var iterators = map[string]bool{"iter": true, "iter_mut": true, "into_iter": true, "drain": true}

// adapters are the iterator methods whose closure takes one element.
var adapters = map[string]bool{"any": true, "all": true, "map": true, "filter": true, "for_each": true, "find": true,
	"position": true, "filter_map": true, "flat_map": true, "take_while": true, "skip_while": true, "inspect": true,
	"max_by_key": true, "min_by_key": true, "partition": true}

// readElement reads for_expression or closure_expression n as such a
// binding.
func readElement(v *lang.View, n int) (element, bool) {
	if v.Kind(n) == "for_expression" {
		return readLoopElement(v, n)
	}
	return readClosureElement(v, n)
}

// readLoopElement reads for_expression n as such a binding.
func readLoopElement(v *lang.View, n int) (element, bool) {
	id := boundName(v, langutil.Child(v, n, "pattern"))
	coll := collectionName(v, langutil.Child(v, n, "value"), true)
	if id < 0 || coll < 0 {
		return element{}, false
	}
	return element{local: v.Start(id), coll: v.Start(coll)}, true
}

// readClosureElement reads closure_expression n, the argument of
// x.iter().any(…) or another adapter, as such a binding.
func readClosureElement(v *lang.View, n int) (element, bool) {
	params := langutil.Children(v, langutil.Child(v, n, "parameters"))
	args := v.Parent(n)
	if len(params) != 1 || v.Kind(args) != "arguments" || len(langutil.Children(v, args)) != 1 {
		return element{}, false
	}
	id := boundName(v, params[0])
	fn := langutil.Child(v, v.Parent(args), "function")
	if id < 0 || v.Kind(fn) != "field_expression" || !adapters[v.Text(langutil.Child(v, fn, "field"))] {
		return element{}, false
	}
	coll := collectionName(v, langutil.Child(v, fn, "value"), false)
	if coll < 0 {
		return element{}, false
	}
	return element{local: v.Start(id), coll: v.Start(coll)}, true
}

// collectionName is the name node of the collection expression n iterates:
// x.iter() (or iter_mut, into_iter, drain(..)) of x or self.x, and when
// direct (a for loop's value) also x, &x, &mut x and self.x; a slice of
// them (&x[1..]) as they are; -1 for any other expression.
func collectionName(v *lang.View, n int, direct bool) int {
	if v.Kind(n) == "call_expression" {
		fn := langutil.Child(v, n, "function")
		if v.Kind(fn) != "field_expression" || !iterators[v.Text(langutil.Child(v, fn, "field"))] {
			return -1
		}
		n = langutil.Child(v, fn, "value")
	} else if !direct {
		return -1
	} else if v.Kind(n) == "reference_expression" {
		n = langutil.Child(v, n, "value")
	}
	if v.Kind(n) == "index_expression" { // a slice of it: &xs[1..]
		if cs := langutil.Children(v, n); len(cs) == 2 && v.Kind(cs[1]) == "range_expression" {
			n = cs[0]
		}
	}
	switch v.Kind(n) {
	case "identifier":
		return n
	case "field_expression":
		if val := langutil.Child(v, n, "value"); v.Kind(val) == "self" {
			return langutil.Child(v, n, "field")
		}
	}
	return -1
}

// elementType is the element of the collection type that node t declares;
// "" for any other type.
func elementType(v *lang.View, t int) string {
	for v.Kind(t) == "reference_type" {
		t = langutil.Child(v, t, "type")
	}
	switch v.Kind(t) {
	case "array_type":
		return namedType(v, langutil.Child(v, t, "element"))
	case "generic_type":
		if !collections[v.Text(langutil.Child(v, t, "type"))] {
			return ""
		}
		if args := langutil.Children(v, langutil.Child(v, t, "type_arguments")); len(args) > 0 {
			return namedType(v, args[0])
		}
	}
	return ""
}

// elementLocals types the untyped bindings es make from the declared type
// of their collection: a binding of the function (typeNodes: a binding's
// position -> its declared type node) or a field of self's type
// (fieldTypes: a field's lexical path -> its declared type node).
func elementLocals(v *lang.View, f *lang.Facts, es []element, typeNodes map[lang.Pos]int, fieldTypes map[string]int) {
	if len(es) == 0 {
		return
	}
	at := indexByPos(f)
	for _, e := range es {
		li, ri, ok := at.untyped(f, e.local, e.coll)
		if !ok {
			continue
		}
		r := f.Refs[ri]
		t, ok := -1, false
		switch {
		case r.BindLocal >= 0:
			t, ok = typeNodes[f.Locals[r.BindLocal].Pos]
		case r.Shape == lang.QualSelf:
			if recv := rustReceiver(f, r.Enclosing); recv != "" {
				t, ok = fieldTypes[recv+"."+f.Names[r.Name]]
			}
		}
		if ok {
			f.Locals[li].Type = elementType(v, t)
		}
	}
}
