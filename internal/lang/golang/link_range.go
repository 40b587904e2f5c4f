package golang

import (
	"context"
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// Types Go linking derives beyond named types: slices and maps of named
// types, their elements and keys (range variables, index expressions), the
// later results of calls, package-level variables, and the receivers
// (&T{}).M, T{}.M, (*x).M and xs[i].M. The forms of the type expressions
// are those the Go extractor writes (internal/lang/golang/ranges.go).

// same reports whether two results are the same type.
func (t goResult) same(u goResult) bool {
	if t.typ != u.typ || t.pkg != u.pkg || t.shape != u.shape || (t.key == nil) != (u.key == nil) {
		return false
	}
	return t.key == nil || t.key.typ == u.key.typ && t.key.pkg == u.key.pkg
}

// elem is the element of a slice or array, or the value of a map.
func (t goResult) elem() goResult {
	if t.shape == 0 || t.typ == "" {
		return goResult{}
	}
	return goResult{unit: t.unit, pkg: t.pkg, typ: t.typ}
}

// mapKey is the key of a map.
func (t goResult) mapKey() goResult {
	if t.shape != 'm' || t.key == nil {
		return goResult{}
	}
	return *t.key
}

// goContainerIn resolves "[]E" or "map[K]V" written in a Go file.
func (l *batch) goContainerIn(ctx context.Context, fi lang.File, facts *lang.Facts, typ string) goResult {
	if e, ok := strings.CutPrefix(typ, "[]"); ok {
		t := l.goTypeIn(ctx, fi, facts, e)
		if t.typ == "" || t.shape != 0 {
			return goResult{}
		}
		t.shape = '['
		return t
	}
	rest, ok := strings.CutPrefix(typ, "map[")
	if !ok {
		return goResult{}
	}
	k, v, ok := strings.Cut(rest, "]")
	if !ok || strings.ContainsAny(v, "[]") || strings.ContainsAny(k, "[]") {
		return goResult{}
	}
	var t, kt goResult
	if v != "" {
		if t = l.goTypeIn(ctx, fi, facts, v); t.typ == "" {
			return goResult{}
		}
	}
	if k != "" {
		if kt = l.goTypeIn(ctx, fi, facts, k); kt.typ == "" {
			return goResult{}
		}
	}
	if t.typ == "" && kt.typ == "" {
		return goResult{}
	}
	t.shape = 'm'
	if kt.typ != "" {
		t.key = &kt
	}
	return t
}

// goResultN is what the result n (0-based) of calling the Go function or
// method id gives, from its declared results (Def.Type "T,U").
func (l *batch) goResultN(ctx context.Context, id int64, n int) goResult {
	if n == 0 {
		return l.goResult(ctx, id)
	}
	fi, facts, di := l.goDef(ctx, id)
	if facts == nil {
		return goResult{}
	}
	d := facts.Defs[di]
	if d.Kind != lang.KindFunction && d.Kind != lang.KindMethod {
		return goResult{}
	}
	parts := strings.Split(d.Type, ",")
	if n >= len(parts) {
		return goResult{}
	}
	return l.goTypeIn(ctx, fi, facts, parts[n])
}

// derivedSource is what a local's Type derives it from, by element, key
// or value: xs of "[v]xs" and "[k]xs", y.f of "=y.f"; ok is false for
// other types.
func derivedSource(typ string) (string, bool) {
	for _, op := range []string{"[v]", "[k]", "="} {
		if src, ok := strings.CutPrefix(typ, op); ok {
			return src, true
		}
	}
	return "", false
}

// derived reports whether a local's Type derives it from something else.
func derived(typ string) bool {
	_, fromSource := derivedSource(typ)
	return fromSource || strings.HasPrefix(typ, "(")
}

// splitAsserted splits a field path from a type assertion (v.(*T).f.g) into
// the asserted type as written without the pointer (T) and the fields after
// it (f, g); ok is false for any other text.
func splitAsserted(x string) (typ string, fields []string, ok bool) {
	i := strings.LastIndex(x, ".(")
	if i <= 0 {
		return "", nil, false
	}
	j := strings.IndexByte(x[i:], ')')
	if j < 0 {
		return "", nil, false
	}
	j += i
	typ = assertedType(x[:j+1])
	if typ == "" || j+1 < len(x) && x[j+1] != '.' {
		return "", nil, false
	}
	if rest := x[j+1:]; rest != "" {
		fields = strings.Split(rest[1:], ".")
		if len(fields) > maxFieldPath || !isGoPath(rest[1:]) {
			return "", nil, false
		}
	}
	return typ, fields, true
}

// resultIndex is N of a local's Type "(N)": the result of the call Via it
// takes.
func resultIndex(typ string) (int, bool) {
	if !strings.HasPrefix(typ, "(") || !strings.HasSuffix(typ, ")") {
		return 0, false
	}
	n, err := strconv.Atoi(typ[1 : len(typ)-1])
	return n, err == nil
}

// derivedLocalType is the type of a local whose Type says how to derive it:
// a later result of a call, the element or key of what it ranges over or
// indexes, the type of a name or field path. Other bindings of the name in
// the same scope must say the same.
func (g *goFile) derivedLocalType(ctx context.Context, lo lang.Local) goResult {
	for _, j := range g.locals.byKey[uint64(uint32(lo.Scope))<<32|uint64(lo.Name)] {
		if o := g.facts.Locals[j]; o.Type != lo.Type || o.Via != lo.Via {
			return goResult{}
		}
	}
	t := lo.Type
	switch {
	case t[0] == '(':
		n, ok := resultIndex(t)
		if !ok || lo.Via <= 0 || int(lo.Via) > len(g.linked) {
			return goResult{}
		}
		return g.l.goResultN(ctx, g.linked[lo.Via-1], n)
	case t[0] == '=':
		return g.pathType(ctx, t[1:], lo.Scope, lo.Pos)
	}
	var src goResult
	if x := t[3:]; x == "()" {
		src = g.result(ctx, lo.Via)
	} else {
		src = g.pathType(ctx, x, lo.Scope, lo.Pos)
	}
	if t[1] == 'k' {
		return src.mapKey()
	}
	return src.elem()
}

// pathType is the type of the name or dotted path x ("v", "v.f.g") seen
// at pos in scope: a local's type, or a package-level variable's, then
// through the declared types of the fields.
func (g *goFile) pathType(ctx context.Context, x string, scope int32, pos lang.Pos) goResult {
	g.init()
	if typ, fields, ok := splitAsserted(x); ok {
		// v.(*T).f.g: through the fields of the asserted type
		return g.fields(ctx, g.writtenNamedType(ctx, typ, scope, pos), fields)
	}
	parts := strings.Split(x, ".")
	if len(parts) > maxFieldPath+1 {
		return goResult{}
	}
	if id, ok := g.names[parts[0]]; ok && g.locals.visible(id, scope, pos) >= 0 {
		return g.fields(ctx, g.localType(ctx, id, scope, pos), parts[1:])
	}
	t, rest := g.varType(ctx, parts)
	return g.fields(ctx, t, rest)
}

// varType is the type of the package-level variable a path not bound to a
// local starts with: v.f.g (v of this package) or pkg.V.f (V of an imported
// package of the repository), and the fields of the path after it.
func (g *goFile) varType(ctx context.Context, parts []string) (goResult, []string) {
	i, ok := g.imports[parts[0]]
	if !ok {
		return g.l.goVarType(ctx, g.unit[parts[0]]), parts[1:]
	}
	if len(parts) < 2 || !g.resolved[i] || g.outside[i] {
		return goResult{}, nil
	}
	return g.l.goVarType(ctx, g.l.goUnit(ctx, g.targets[i].Dir, false)[parts[1]]), parts[2:]
}

// fields walks the field path from the type t.
func (g *goFile) fields(ctx context.Context, t goResult, path []string) goResult {
	for _, field := range path {
		if t.typ == "" {
			return goResult{}
		}
		id := g.l.goMember(ctx, t, field)
		next := g.l.goFieldType(ctx, id)
		if next.typ == "" {
			next = g.l.goNamedType(ctx, id) // x.T.M where x's type embeds T
		}
		t = next
	}
	return t
}

// pkgVarType is the type of the package-level variable name of the file's
// package, where no local of that name is visible (scope, pos) and no
// import binds it.
func (g *goFile) pkgVarType(ctx context.Context, name string, scope int32, pos lang.Pos) goResult {
	g.init()
	if id, ok := g.names[name]; ok && g.locals.visible(id, scope, pos) >= 0 {
		return goResult{}
	}
	if _, ok := g.imports[name]; ok {
		return goResult{}
	}
	return g.l.goVarType(ctx, g.unit[name])
}

// goVarType is the type of the package-level Go variable id: its declared
// type or the type of its literal (Def.Type), or the result of the call
// "()F" / "()pkg.F" that initialises it.
func (l *batch) goVarType(ctx context.Context, id int64) goResult {
	if id == 0 {
		return goResult{}
	}
	if r, ok := l.goVars[id]; ok {
		return r
	}
	if l.goVars == nil {
		l.goVars = map[int64]goResult{}
	}
	l.goVars[id] = goResult{} // a variable initialised from itself knows nothing
	var r goResult
	if fi, facts, di := l.goDef(ctx, id); facts != nil {
		d := facts.Defs[di]
		if d.Kind == lang.KindVariable && d.Parent < 0 && d.Type != "" {
			if fn, ok := strings.CutPrefix(d.Type, "()"); ok {
				r = l.goResult(ctx, l.goFuncIn(ctx, fi, facts, fn))
			} else {
				r = l.goTypeIn(ctx, fi, facts, d.Type)
			}
		}
	}
	l.goVars[id] = r
	return r
}

// goFuncIn is the symbol of the package-level function (or type) F or
// pkg.F as a Go file writes it, or 0.
func (l *batch) goFuncIn(ctx context.Context, fi lang.File, facts *lang.Facts, fn string) int64 {
	pkg, base, qualified := strings.Cut(fn, ".")
	if !qualified {
		return l.goUnit(ctx, lang.DirOf(fi.Path), strings.HasSuffix(fi.Pkg, "_test"))[fn]
	}
	dir, ok := l.goImportDir(ctx, fi, facts, pkg)
	if !ok {
		return 0
	}
	return l.goUnit(ctx, dir, false)[base]
}

// exprType is the type of the qualifier expression x of a member reference:
// a composite literal (&T{...}, T{...}), a type assertion (v.(*T)), a
// dereference (*x), an index expression xs[i] or m[k] of a name or path,
// each possibly parenthesised; zero for anything else.
func (g *goFile) exprType(ctx context.Context, x string, scope int32, pos lang.Pos) goResult {
	x = unwrap(x)
	switch {
	case x == "":
		return goResult{}
	case x[len(x)-1] == ']':
		// xs[i], v.(*T).Items[i]
		i := opens(x, len(x)-1)
		if i <= 0 {
			return goResult{}
		}
		if _, _, asserted := splitAsserted(x[:i]); !asserted && !isGoPath(x[:i]) {
			return goResult{}
		}
		return g.pathType(ctx, x[:i], scope, pos).elem()
	case isGoPath(x):
		return g.pathType(ctx, x, scope, pos)
	}
	return g.writtenNamedType(ctx, writtenType(x), scope, pos)
}

// maxUnwrap bounds the parentheses, & and * taken off an expression.
const maxUnwrap = 4

// unwrap is x without the parentheses around it and the & or * before it:
// T{} of (&T{}), or "" when there are more than maxUnwrap.
func unwrap(x string) string {
	for i := 0; i < maxUnwrap; i++ {
		x = strings.TrimSpace(x)
		switch {
		case x == "":
			return ""
		case x[0] == '(' && closes(x, 0) == len(x)-1:
			x = x[1 : len(x)-1]
		case x[0] == '&' || x[0] == '*':
			x = x[1:]
		default:
			return x
		}
	}
	return ""
}

// writtenType is the type an unwrapped expression spells out, as written:
// T of T{...}, pkg.T[A] of pkg.T[A]{...}, T of v.(*T); "" for any other.
func writtenType(x string) string {
	switch {
	case strings.HasSuffix(x, ")"):
		return assertedType(x)
	case strings.HasSuffix(x, "}") && !strings.ContainsAny(x, "\"'`"):
		if i := strings.IndexByte(x, '{'); i > 0 && closes(x, i) == len(x)-1 {
			return x[:i]
		}
	}
	return ""
}

// assertedType is the type the type assertion x asserts, as written
// without the pointer ("T" of v.(*T), "pkg.T" of v.(pkg.T)), or "" when x
// is no type assertion of a named type.
func assertedType(x string) string {
	i := strings.LastIndex(x, ".(")
	if i <= 0 || !strings.HasSuffix(x, ")") {
		return ""
	}
	typ := strings.TrimLeft(strings.TrimSpace(x[i+2:len(x)-1]), "*")
	if typ == "type" || !isGoPath(strings.SplitN(typ, "[", 2)[0]) {
		return ""
	}
	return typ
}

// writtenNamedType is the repository's type named T or pkg.T as written
// (type arguments dropped) where scope at pos sees it, or zero.
func (g *goFile) writtenNamedType(ctx context.Context, typ string, scope int32, pos lang.Pos) goResult {
	if j := strings.IndexByte(typ, '['); j > 0 {
		typ = typ[:j] // type arguments
	}
	if !isGoPath(typ) || strings.Count(typ, ".") > 1 {
		return goResult{}
	}
	if !strings.Contains(typ, ".") && g.shadowed(typ, scope, pos) {
		return goResult{}
	}
	t := g.l.goTypeIn(ctx, g.fi, g.facts, typ)
	if _, facts, di := g.l.goDef(ctx, t.unit[t.typ]); facts == nil || !facts.Defs[di].Kind.IsTypeLike() {
		return goResult{} // not a type of the repository
	}
	return t
}

// closes is the index of the bracket closing the one at x[i], or -1.
func closes(x string, i int) int {
	open, close := x[i], map[byte]byte{'(': ')', '[': ']', '{': '}'}[x[i]]
	depth := 0
	for j := i; j < len(x); j++ {
		switch x[j] {
		case open:
			depth++
		case close:
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// opens is the index of the '[' the ']' at x[i] closes, or -1.
func opens(x string, i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch x[j] {
		case ']':
			depth++
		case '[':
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// isGoPath reports whether s is an identifier or a dotted path of them.
func isGoPath(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i, r := range part {
			if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127 || i > 0 && r >= '0' && r <= '9') {
				return false
			}
		}
	}
	return true
}

// typeNames are the named types a type expression writes: T of "T", "[]T";
// K and V of "map[K]V".
func typeNames(typ string) []string {
	if e, ok := strings.CutPrefix(typ, "[]"); ok {
		return []string{e}
	}
	if rest, ok := strings.CutPrefix(typ, "map["); ok {
		k, v, _ := strings.Cut(rest, "]")
		var out []string
		for _, t := range []string{k, v} {
			if t != "" {
				out = append(out, t)
			}
		}
		return out
	}
	return []string{typ}
}

// keyField is the field name of the type typ ("T" or "pkg.T") a keyed
// literal T{name: v} sets: declared by T, or by the type an alias T names
// (type Config = TypedConfig[any]); never a promoted field, which a literal
// cannot set.
func (g *goFile) keyField(ctx context.Context, typ, name string, scope int32, pos lang.Pos) int64 {
	if id := g.member(ctx, typ, name, scope, pos); id != 0 {
		return id
	}
	if !strings.Contains(typ, ".") && g.shadowed(typ, scope, pos) {
		return 0
	}
	t := g.l.goAlias(ctx, g.l.goTypeIn(ctx, g.fi, g.facts, typ))
	if t.typ == "" || t.shape != 0 {
		return 0
	}
	return t.unit[t.typ+"."+name]
}
