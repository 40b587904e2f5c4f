package golang

import (
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// chains records what linking needs to type the results of calls and the
// values derived from them (the forms of the type expressions: ranges.go):
//
//   - the result types of each function and method (Def.Type): each result
//     that is a named type, a slice or map of named types, or error, joined
//     with "," ("T,error" of (T, error), "T,U" of (T, U)), unless it names a
//     type parameter of the function or of its receiver;
//   - the declared type of each struct field, when it is a named type or a
//     slice or map of them (Def.Type; a type parameter of the struct is left
//     out), and the type a type alias names (type A = pkg.B);
//   - the type of each package-level variable (Def.Type: pkgVar);
//   - for a member reference on a call, f(x).M or x.F(y).M, the reference to
//     the callee of that call (Ref.Via);
//   - for a local without a declared type initialised with a call, x := F()
//     or x, err := p.F(), the reference to the callee (Local.Via), and for
//     the later names the result they take (Local.Type "(1)");
//   - the type a local takes from a type assertion (t := v.(*T), t, ok :=
//     v.(pkg.T));
//   - the slice and map types of parameters and variables, and how range
//     variables, index expressions and x := y.f derive their types
//     (Local.Type "[v]xs", "[k]m", "=y.f").
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
			spec := v.Parent(n)
			for spec >= 0 && v.Kind(spec) != "type_spec" {
				spec = v.Parent(spec)
			}
			typ := c.container(v.Child(n, "type"), spec)
			if typ == "" {
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
		case "range_clause":
			c.ranged(n, localAt)
		case "parameter_declaration":
			c.containers(n, localAt)
		case "variadic_parameter_declaration":
			c.variadic(n, localAt)
		case "var_spec":
			if pkgLevel(v, n) {
				c.pkgVar(n, defAt)
				continue
			}
			if v.Child(n, "type") >= 0 {
				c.containers(n, localAt)
			} else {
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
		// x, err := F(): the results of F in order; v, ok := m[k]: the
		// element of m; t, ok := v.(*T): T
		if k := c.v.Kind(vals[0]); k == "index_expression" || k == "type_assertion_expression" {
			names = names[:1]
			break
		}
		if c.v.Kind(vals[0]) != "call_expression" {
			return
		}
		via := c.callee(vals[0])
		for i, n := range names {
			li, ok := localAt[c.v.Start(n)]
			if !ok || c.f.Locals[li].Type != "" || via == 0 || i > 0 && c.v.Text(n) == "_" {
				continue
			}
			c.f.Locals[li].Via = via
			if i > 0 {
				c.f.Locals[li].Type = "(" + strconv.Itoa(i) + ")"
			}
		}
		return
	default:
		return
	}
	for i, n := range names {
		li, ok := localAt[c.v.Start(n)]
		if !ok || c.f.Locals[li].Type != "" {
			continue
		}
		switch c.v.Kind(vals[i]) {
		case "call_expression":
			c.f.Locals[li].Via = c.callee(vals[i])
		case "index_expression":
			// x := xs[i], x := m[k]: the element of what is indexed
			c.f.Locals[li].Type, c.f.Locals[li].Via = c.source("[v]", c.v.Child(vals[i], "operand"))
		case "type_assertion_expression":
			// t := v.(*T), xs := v.([]T)
			c.f.Locals[li].Type = c.container(c.v.Child(vals[i], "type"), enclosingFunc(c.v, vals[i]))
		case "composite_literal":
			// xs := []T{...}, m := map[K]V{...}
			c.f.Locals[li].Type = c.container(c.v.Child(vals[i], "type"), -1)
		case "identifier", "selector_expression":
			// x := y, x := y.f: the type of y, of the field f
			if t, _ := c.source("=", vals[i]); t != "" && !strings.HasSuffix(t, "()") {
				c.f.Locals[li].Type = t
			}
		case "unary_expression":
			// x := &y.f
			if op := c.v.Child(vals[i], "operand"); op >= 0 && strings.HasPrefix(c.v.Text(vals[i]), "&") {
				if k := c.v.Kind(op); k == "identifier" || k == "selector_expression" {
					c.f.Locals[li].Type, _ = c.source("=", op)
				}
			}
		}
	}
}

// result is the types a function declares as its results, joined with ","
// and without trailing empty ones: "T" for T, "T,error" for (T, error),
// "T,U" for (T, U), ",U" for (int, U), "error" for error; "" when none is a
// named type, a container of one (typeExpr) or the predeclared error, whose
// Error method is the language's.
func (c *chainer) result(fn int) string {
	v := c.v
	res := v.Child(fn, "result")
	if res < 0 {
		return ""
	}
	if v.Kind(res) != "parameter_list" {
		return c.resultType(res, fn)
	}
	var out []string
	for _, p := range v.Children(res) {
		if v.Kind(p) != "parameter_declaration" {
			continue
		}
		t := c.resultType(v.Child(p, "type"), fn)
		names := 0
		for _, ch := range v.Children(p) {
			if v.Field(ch) == "name" {
				names++
			}
		}
		for i := 0; i < max(names, 1); i++ {
			out = append(out, t)
		}
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, ",")
}

// resultType is the type expression of a function's result type node typ:
// its container, or "error".
func (c *chainer) resultType(typ, fn int) string {
	if typ >= 0 && c.v.Kind(typ) == "type_identifier" && c.v.Text(typ) == "error" {
		return "error"
	}
	return c.container(typ, fn)
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
		if len(kids) == 0 {
			return "" // a "*" the parser recovered from, with no type after it
		}
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
	if _, ok := predeclared[name]; ok {
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
