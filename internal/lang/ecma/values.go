package ecma

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// TypeScript values whose type the source states elsewhere. ValueTypes
// records, for the linker (link_values.go), where the type of a binding or
// of a call's result comes from when the binding itself writes none:
//
//	const jobs = reg.list()             Local.Type "=", Via: the call of list
//	for (const j of reg.list())         Local.Type "[e]", Via: the call of list
//	reg.list().forEach(j => j.stop())   j: Local.Type "[v]", Via: the call of list
//	jobs.forEach(j => ...)              j: Local.Type "[v]", Via: the reference to jobs
//	reg.get(id).stop()                  Ref.Via of stop: the call of get
//	jobs: Job[], jobs: Array<Job>       Local.Type "[]Job"
//	x: A | B                            Local.Type "A|B" (query/union.go)
//	x: string | null, x: (A | B)[]      Local.Type "string", "[]" (builtins.go)
//
// Via is 1 + the index of the reference that stands for the value: the
// callee of a call (its declared return type), or a name, this.x or a.x
// that is read (its declared type). "[e]" is the element of that value: of
// an array (T[], Array<T>, ReadonlyArray<T>), a set or an iterable; "[v]"
// also the value of a map (what forEach passes). The callbacks are those of
// the array and collection methods that pass elements (iterParams).

// iterParams are, per collection method, the parameters of its callback (the
// first argument) that receive an element.
var iterParams = map[string][]int{
	"forEach": {0}, "map": {0}, "filter": {0}, "find": {0}, "findLast": {0},
	"findIndex": {0}, "findLastIndex": {0}, "some": {0}, "every": {0}, "flatMap": {0},
	"reduce": {1}, "reduceRight": {1}, "sort": {0, 1}, "toSorted": {0, 1},
}

// Local.Type markers of ValueTypes.
const (
	typeOfValue   = "="   // the type of the value Via
	typeOfElement = "[e]" // the element type of the value Via
	typeOfItem    = "[v]" // the element, or a map's value, of the value Via
	arrayOf       = "[]"  // prefix: an array of the named type that follows
)

// ValueTypes records the value types above in a TypeScript file's facts.
func ValueTypes(v *lang.View, f *lang.Facts) {
	refAt := make(map[lang.Pos]int32, len(f.Refs))
	for i, r := range f.Refs {
		if _, ok := refAt[r.Pos]; !ok {
			refAt[r.Pos] = int32(i)
		}
	}
	localAt := make(map[lang.Pos]int32, len(f.Locals))
	for i, lo := range f.Locals {
		localAt[lo.Pos] = int32(i)
	}
	// valueRef is the reference that stands for the value of expression n,
	// or -1.
	var valueRef func(n int) int32
	valueRef = func(n int) int32 {
		if n < 0 {
			return -1
		}
		switch v.Kind(n) {
		case "parenthesized_expression", "non_null_expression", "await_expression":
			if c := langutil.Children(v, n); len(c) == 1 {
				return valueRef(c[0])
			}
			return -1
		case "call_expression":
			fn := langutil.Child(v, n, "function")
			if v.Kind(fn) == "member_expression" {
				fn = langutil.Child(v, fn, "property")
			}
			if fn < 0 {
				return -1
			}
			if ri, ok := refAt[v.Start(fn)]; ok && f.Refs[ri].Role == lang.RoleCall {
				return ri
			}
		case "identifier":
			if ri, ok := refAt[v.Start(n)]; ok && f.Refs[ri].Role != lang.RoleCall {
				return ri
			}
		case "member_expression":
			if p := langutil.Child(v, n, "property"); p >= 0 {
				if ri, ok := refAt[v.Start(p)]; ok && f.Refs[ri].Role != lang.RoleCall {
					return ri
				}
			}
		}
		return -1
	}
	set := func(local int, typ string, via int32) {
		if li, ok := localAt[v.Start(local)]; ok && via >= 0 && f.Locals[li].Type == "" && f.Locals[li].Via == 0 {
			f.Locals[li].Type, f.Locals[li].Via = typ, via+1
		}
	}
	// declared types that are not a named type: arrays and unions of them
	declared := func(local, ann int) {
		li, ok := localAt[v.Start(local)]
		if !ok || f.Locals[li].Type != "" {
			return
		}
		text := strings.TrimPrefix(strings.TrimSpace(v.Text(ann)), ":")
		if e := lang.TypeName(elementOf(text, false)); e != "" {
			f.Locals[li].Type = arrayOf + e
		} else if u := unionOf(text); u != "" {
			f.Locals[li].Type = u
		} else if b := builtinType(text); b != "" {
			f.Locals[li].Type = b // string | undefined, (A | B)[], [A, B]
		}
	}
	for n := 0; n < v.Len(); n++ {
		switch v.Kind(n) {
		case "member_expression":
			// a.f().m: m on the result of the call of f; a.b.m: m on the
			// value of b
			obj, p := langutil.Child(v, n, "object"), langutil.Child(v, n, "property")
			if k := v.Kind(obj); obj >= 0 && p >= 0 && (k == "call_expression" || k == "member_expression") {
				if ri, ok := refAt[v.Start(p)]; ok && (f.Refs[ri].Shape == lang.QualCall || f.Refs[ri].Shape == lang.QualPath) {
					if via := valueRef(obj); via >= 0 {
						f.Refs[ri].Via = via + 1
					}
				}
			}
		case "variable_declarator":
			name, val := langutil.Child(v, n, "name"), langutil.Child(v, n, "value")
			if v.Kind(name) == "object_pattern" {
				// const { a, b: c } = f(): a and b on the result of the call
				// of f (on the value of x.y for = x.y); the locals a and c
				// hold the values of those members
				via := valueRef(val)
				for _, p := range patternKeys(v, name) {
					ri, ok := refAt[v.Start(p.key)]
					if !ok {
						continue
					}
					if via >= 0 && (f.Refs[ri].Shape == lang.QualCall || f.Refs[ri].Shape == lang.QualPath) {
						f.Refs[ri].Via = via + 1
					}
					if p.local >= 0 {
						set(p.local, typeOfValue, ri)
					}
				}
			}
			if v.Kind(name) != "identifier" {
				continue
			}
			if t := langutil.Child(v, n, "type"); t >= 0 {
				declared(name, t)
				continue
			}
			if val >= 0 {
				set(name, typeOfValue, valueRef(val))
			}
		case "required_parameter", "optional_parameter":
			pat, t := langutil.Child(v, n, "pattern"), langutil.Child(v, n, "type")
			if v.Kind(pat) == "identifier" && t >= 0 {
				declared(pat, t)
			}
		case "for_in_statement":
			left, right := langutil.Child(v, n, "left"), langutil.Child(v, n, "right")
			if v.Kind(left) == "identifier" && right >= 0 {
				_, le := v.Bytes(left)
				rs, _ := v.Bytes(right)
				if le <= rs && strings.TrimSpace(string(v.Src()[le:rs])) == "of" {
					set(left, typeOfElement, valueRef(right))
				}
			}
		case "arrow_function", "function_expression", "function":
			callbackParams(v, n, valueRef, set)
		}
	}
}

// callbackParams records the element parameters of a function passed as the
// first argument of a collection method (iterParams).
func callbackParams(v *lang.View, n int, valueRef func(int) int32, set func(int, string, int32)) {
	at := n
	for v.Kind(v.Parent(at)) == "parenthesized_expression" {
		at = v.Parent(at)
	}
	args := v.Parent(at)
	if v.Kind(args) != "arguments" {
		return
	}
	call := v.Parent(args)
	if v.Kind(call) != "call_expression" {
		return
	}
	fn := langutil.Child(v, call, "function")
	if fn < 0 || v.Kind(fn) != "member_expression" {
		return
	}
	prop := langutil.Child(v, fn, "property")
	if prop < 0 {
		return
	}
	params, ok := iterParams[v.Text(prop)]
	if !ok {
		return
	}
	if first := langutil.Children(v, args); len(first) == 0 || first[0] != at {
		return
	}
	via := valueRef(langutil.Child(v, fn, "object"))
	if via < 0 {
		return
	}
	var names []int // the function's parameters by position, -1 where not a plain name
	if p := langutil.Child(v, n, "parameter"); p >= 0 {
		names = []int{p}
	} else if fp := langutil.Child(v, n, "parameters"); fp >= 0 {
		for _, p := range langutil.Children(v, fp) {
			k := v.Kind(p)
			if k == "comment" {
				continue
			}
			if k != "required_parameter" && k != "optional_parameter" {
				break
			}
			pat := langutil.Child(v, p, "pattern")
			if v.Kind(pat) != "identifier" || langutil.Child(v, p, "type") >= 0 {
				names = append(names, -1)
			} else {
				names = append(names, pat)
			}
		}
	}
	for _, i := range params {
		if i < len(names) && names[i] >= 0 {
			set(names[i], typeOfItem, via)
		}
	}
}

// unionOf is "A|B" for a union of named types written typ (null and
// undefined left out), or "" for anything else or fewer than two types.
func unionOf(typ string) string {
	var names []string
	for {
		i := topIndex(typ, 0, '|')
		part := typ
		if i >= 0 {
			part = typ[:i]
		}
		switch p := strings.TrimSpace(part); p {
		case "null", "undefined", "":
		default:
			t := lang.TypeName(p)
			if t == "" || t != strings.Join(strings.Fields(p), "") {
				return "" // a literal, a function type, type arguments
			}
			names = append(names, t)
		}
		if i < 0 {
			break
		}
		typ = typ[i+1:]
	}
	if len(names) < 2 {
		return ""
	}
	return strings.Join(names, "|")
}

// elementOf is the element type, as written, of a collection type written
// typ: T of T[], readonly T[], Array<T>, ReadonlyArray<T>, Set<T>,
// ReadonlySet<T>, Iterable<T>, IterableIterator<T>, and, with values, V of
// Map<K, V> and ReadonlyMap<K, V> (what forEach passes first); "" otherwise.
func elementOf(typ string, values bool) string {
	typ = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "readonly "))
	if s, ok := strings.CutSuffix(typ, "[]"); ok {
		if strings.HasSuffix(s, ")") || strings.HasSuffix(s, "]") && !strings.HasSuffix(s, "[]") {
			return "" // (A | B)[] or a tuple's
		}
		return s
	}
	lt := strings.IndexByte(typ, '<')
	if lt < 0 || !strings.HasSuffix(typ, ">") {
		return ""
	}
	args, ok := splitList(typ, lt)
	if !ok || matching(typ, lt) != len(typ)-1 {
		return ""
	}
	switch strings.TrimSpace(typ[:lt]) {
	case "Array", "ReadonlyArray", "Set", "ReadonlySet", "Iterable", "IterableIterator":
		if len(args) == 1 {
			return strings.TrimSpace(args[0])
		}
	case "Map", "ReadonlyMap":
		if values && len(args) == 2 {
			return strings.TrimSpace(args[1])
		}
	}
	return ""
}

// patternKey is a name an object pattern reads from its value and the
// local it binds the member to (-1 for none: a nested pattern).
type patternKey struct{ key, local int }

// patternKeys are the names an object pattern reads from its value: its
// shorthand names (with or without a default), which are their locals too,
// and the keys of its pairs.
func patternKeys(v *lang.View, pattern int) []patternKey {
	var keys []patternKey
	for _, c := range langutil.Children(v, pattern) {
		switch v.Kind(c) {
		case "shorthand_property_identifier_pattern":
			keys = append(keys, patternKey{c, c})
		case "object_assignment_pattern":
			if left := langutil.Child(v, c, "left"); v.Kind(left) == "shorthand_property_identifier_pattern" {
				keys = append(keys, patternKey{left, left})
			}
		case "pair_pattern":
			key, val := langutil.Child(v, c, "key"), langutil.Child(v, c, "value")
			if v.Kind(key) != "property_identifier" {
				continue
			}
			if v.Kind(val) != "identifier" {
				val = -1
			}
			keys = append(keys, patternKey{key, val})
		}
	}
	return keys
}
