package golang

import "github.com/cairnhq/cairn/internal/lang"

// chains records what linking needs to type the results of calls:
//
//   - the result type of each function and method (Def.Type): a named type
//     written as the only result or as the first of several (T of (T, error)),
//     unless it names a type parameter of the function or of its receiver;
//   - the declared type of each struct field, when it is a named type
//     (Def.Type; a type parameter of the struct is left out), and the type a
//     type alias names (type A = pkg.B);
//   - for a member reference on a call, f(x).M or x.F(y).M, the reference to
//     the callee of that call (Ref.Via);
//   - for a local without a declared type initialised with a call, x := F()
//     or x, err := p.F(), the reference to the callee (Local.Via).
func chains(v *lang.View, f *lang.Facts) {
	c := &chainer{v: v, f: f, refAt: make(map[lang.Pos]int32, len(f.Refs))}
	for i, r := range f.Refs {
		if _, ok := c.refAt[r.Pos]; !ok {
			c.refAt[r.Pos] = int32(i)
		}
	}
	defAt := make(map[lang.Pos]int, len(f.Defs))
	for i, d := range f.Defs {
		defAt[d.NameSpan.Start] = i
	}
	localAt := make(map[lang.Pos]int, len(f.Locals))
	for i, lo := range f.Locals {
		localAt[lo.Pos] = i
	}
	for n := 0; n < v.Len(); n++ {
		switch v.Kind(n) {
		case "function_declaration", "method_declaration", "method_elem":
			name := v.Child(n, "name")
			if name < 0 {
				continue
			}
			if d, ok := defAt[v.Start(name)]; ok && f.Defs[d].Type == "" {
				f.Defs[d].Type = c.result(n)
			}
		case "type_alias":
			name := v.Child(n, "name")
			if name < 0 || v.Child(n, "type_parameters") >= 0 {
				continue
			}
			if d, ok := defAt[v.Start(name)]; ok && f.Defs[d].Type == "" {
				f.Defs[d].Type = namedType(v, v.Child(n, "type"))
			}
		case "field_declaration":
			typ := namedType(v, v.Child(n, "type"))
			spec := v.Parent(n)
			for spec >= 0 && v.Kind(spec) != "type_spec" {
				spec = v.Parent(spec)
			}
			if typ == "" || spec >= 0 && c.typeParam(spec, typ) {
				continue
			}
			for _, ch := range v.Children(n) {
				if v.Field(ch) != "name" {
					continue
				}
				if d, ok := defAt[v.Start(ch)]; ok && f.Defs[d].Type == "" {
					f.Defs[d].Type = typ
				}
			}
		case "selector_expression":
			call, field := v.Child(n, "operand"), v.Child(n, "field")
			if call < 0 || field < 0 || v.Kind(call) != "call_expression" {
				continue
			}
			ri, ok := c.refAt[v.Start(field)]
			if !ok || f.Refs[ri].Shape != lang.QualCall {
				continue
			}
			f.Refs[ri].Via = c.callee(call)
		case "short_var_declaration":
			c.initialised(v.Child(n, "left"), v.Child(n, "right"), localAt)
		case "var_spec":
			if v.Child(n, "type") < 0 {
				var names []int
				for _, ch := range v.Children(n) {
					if v.Field(ch) == "name" {
						names = append(names, ch)
					}
				}
				c.bind(names, v.Child(n, "value"), localAt)
			}
		}
	}
}

type chainer struct {
	v     *lang.View
	f     *lang.Facts
	refAt map[lang.Pos]int32 // references by position
}

// callee is 1 + the index of the reference to the function a call calls, or
// 0: F(), p.F(), x.M(), (F)(), F[T]().
func (c *chainer) callee(call int) int32 {
	v := c.v
	fn := v.Child(call, "function")
	for fn >= 0 {
		switch v.Kind(fn) {
		case "parenthesized_expression":
			inner := -1
			for _, k := range v.Children(fn) {
				if kind := v.Kind(k); inner < 0 && kind != "(" && kind != ")" && kind != "comment" {
					inner = k
				}
			}
			fn = inner
			continue
		case "index_expression":
			fn = v.Child(fn, "operand")
			continue
		case "selector_expression":
			fn = v.Child(fn, "field")
		}
		break
	}
	if fn < 0 {
		return 0
	}
	if k := v.Kind(fn); k != "identifier" && k != "field_identifier" {
		return 0
	}
	ri, ok := c.refAt[v.Start(fn)]
	if !ok || c.f.Refs[ri].Role != lang.RoleCall {
		return 0
	}
	return ri + 1
}

// initialised gives the names of x, y := a, b or x, err := F() the callee
// of the call that initialises each.
func (c *chainer) initialised(left, right int, localAt map[lang.Pos]int) {
	if left < 0 || right < 0 {
		return
	}
	var names []int
	for _, ch := range c.v.Children(left) {
		if c.v.Kind(ch) == "identifier" {
			names = append(names, ch)
		}
	}
	c.bind(names, right, localAt)
}

func (c *chainer) bind(names []int, values int, localAt map[lang.Pos]int) {
	if len(names) == 0 || values < 0 {
		return
	}
	var vals []int
	for _, ch := range c.v.Children(values) {
		if k := c.v.Kind(ch); k != "," && k != "comment" {
			vals = append(vals, ch)
		}
	}
	switch {
	case len(vals) == len(names):
	case len(vals) == 1:
		names = names[:1] // x, err := F(): the first result
	default:
		return
	}
	for i, n := range names {
		if c.v.Kind(vals[i]) != "call_expression" {
			continue
		}
		li, ok := localAt[c.v.Start(n)]
		if !ok || c.f.Locals[li].Type != "" {
			continue
		}
		c.f.Locals[li].Via = c.callee(vals[i])
	}
}

// result is the named type a function declares as its (first) result, or "".
func (c *chainer) result(fn int) string {
	v := c.v
	res := v.Child(fn, "result")
	if res < 0 {
		return ""
	}
	if v.Kind(res) == "parameter_list" {
		first := v.ChildOfKind(res, "parameter_declaration")
		if first < 0 {
			return ""
		}
		res = v.Child(first, "type")
		if res < 0 {
			return ""
		}
	}
	name := namedType(v, res)
	if name == "" || c.typeParam(fn, name) {
		return ""
	}
	return name
}

// namedType is the name of the type node typ when it is a named type, with
// at most a pointer and type arguments (T, *pkg.T, List[E]); "" for other
// types and Go's predeclared ones.
func namedType(v *lang.View, typ int) string {
	if typ < 0 {
		return ""
	}
	if v.Kind(typ) == "pointer_type" {
		kids := v.Children(typ)
		typ = kids[len(kids)-1]
	}
	if v.Kind(typ) == "generic_type" {
		typ = v.Child(typ, "type")
	}
	if typ < 0 {
		return ""
	}
	switch v.Kind(typ) {
	case "type_identifier", "qualified_type":
	default:
		return ""
	}
	name := lang.TypeName(v.Text(typ))
	if predeclared[name] {
		return ""
	}
	return name
}

// typeParam reports whether name is a type parameter of function fn or of
// its receiver's type (func (l *List[T]) Get() T).
func (c *chainer) typeParam(fn int, name string) bool {
	v := c.v
	found := false
	check := func(n int) {
		v.Descendants(n, func(j int) {
			if k := v.Kind(j); (k == "identifier" || k == "type_identifier") && v.Text(j) == name {
				found = true
			}
		})
	}
	if tp := v.Child(fn, "type_parameters"); tp >= 0 {
		check(tp)
	}
	if recv := v.Child(fn, "receiver"); recv >= 0 {
		v.Descendants(recv, func(j int) {
			if v.Kind(j) == "type_arguments" {
				check(j)
			}
		})
	}
	return found
}

// predeclared are Go's predeclared types, which have no members in the
// repository.
var predeclared = map[string]bool{
	"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true, "complex128": true,
	"error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true, "int32": true,
	"int64": true, "rune": true, "string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true,
	"uint64": true, "uintptr": true,
}
