package golang

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// goResult is what a call of a Go function or method gives, as far as the
// syntactic layer knows: the named type it returns (or, for a conversion
// T(x), the type T), with the unit of the package that type belongs to.
// A zero goResult (typ "") knows nothing.
type goResult struct {
	unit map[string]int64
	pkg  string // the package's directory, with "_test" for an external test package
	typ  string // the type's name in unit
	// shape is 0 for the named type typ, '[' for a slice or array of typ,
	// 'm' for a map whose values are of type typ ("" when not named) and
	// whose keys are of type key (nil when not named). A container has no
	// members; indexing and ranging give its element (goResult.elem).
	shape byte
	key   *goResult
}

// result is what the call of the function referenced by via (1 + index) gives.
func (g *goFile) result(ctx context.Context, via int32) goResult {
	return g.l.goResult(ctx, g.callee(via))
}

// repoFree reports whether the call that qualifies r (F in F(x).M is r.Via)
// gives a value that no type of the repository can be part of, so that its
// members are a dependency's or the language's: the call of a package-level
// function of a package from outside the repository with no type arguments
// and literal arguments only (klog.V(3), time.Now()), since a generic
// function infers its type arguments from its arguments; or the call of a
// member of such a value (time.Now().UTC()), since methods take no type
// parameters of their own and the value's type arguments hold no type of the
// repository either.
func (g *goFile) repoFree(r lang.Ref) bool {
	via := int(r.Via) - 1
	if via < 0 || via >= len(g.facts.Refs) {
		return false
	}
	if g.free[via] {
		return true
	}
	c := g.facts.Refs[via]
	if c.Shape != lang.QualIdent || c.QualBound {
		return false
	}
	pkg := g.facts.Names[c.Qualifier]
	if i, ok := g.imports[pkg]; !ok || !g.outside[i] {
		return false
	}
	args, ok := strings.CutPrefix(g.facts.Names[r.Qualifier], pkg+"."+g.facts.Names[c.Name]+"(")
	return ok && strings.HasSuffix(args, ")") && literalArgs(args[:len(args)-1])
}

// literalArgs reports whether the argument list args of a Go call (without
// its parentheses) is empty or holds basic literals only: numbers, strings,
// runes, true, false, nil.
func literalArgs(args string) bool {
	for len(strings.TrimSpace(args)) > 0 {
		arg, rest := nextArg(args)
		if !basicLiteral(strings.TrimSpace(arg)) {
			return false
		}
		args = rest
	}
	return true
}

// nextArg splits the first argument off an argument list: the text up to
// the first comma outside a string or rune literal, and what follows it.
func nextArg(args string) (string, string) {
	var quote byte
	for i := 0; i < len(args); i++ {
		switch ch := args[i]; {
		case quote != 0:
			if ch == '\\' && quote != '`' {
				i++
			} else if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'' || ch == '`':
			quote = ch
		case ch == ',':
			return args[:i], args[i+1:]
		}
	}
	return args, ""
}

// basicLiteral reports whether x is one Go basic literal (1, -2.5, 0x1f,
// "a", `b`, 'c') or true, false or nil.
func basicLiteral(x string) bool {
	switch {
	case x == "":
		return false
	case x == "true" || x == "false" || x == "nil":
		return true
	case x[0] == '"' || x[0] == '`' || x[0] == '\'':
		return quoteEnd(x) == len(x)-1
	}
	x = strings.TrimPrefix(x, "-")
	if x == "" || x[0] < '0' || x[0] > '9' {
		return false
	}
	for _, ch := range x {
		if !(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch == '.' || ch == '_' || ch == '+' || ch == '-') {
			return false
		}
	}
	return true
}

// quoteEnd is the index of the quote that closes the one x starts with
// (escapes count, except in a raw string), or -1.
func quoteEnd(x string) int {
	for i := 1; i < len(x); i++ {
		switch {
		case x[i] == '\\' && x[0] != '`':
			i++
		case x[i] == x[0]:
			return i
		}
	}
	return -1
}

// callee is the symbol the reference via (1 + index) is linked to, or 0.
func (g *goFile) callee(via int32) int64 {
	if via <= 0 || int(via) > len(g.linked) {
		return 0
	}
	return g.linked[via-1]
}

// callLocalType is the type of a local without a declared type that a call
// initialises (x := F(), x, err := p.F()). Other bindings of the name in the
// same scope must agree on the type.
func (g *goFile) callLocalType(ctx context.Context, lo lang.Local) goResult {
	res := g.result(ctx, lo.Via)
	if res.typ == "" {
		return goResult{}
	}
	for _, j := range g.locals.byKey[uint64(uint32(lo.Scope))<<32|uint64(lo.Name)] {
		other := g.facts.Locals[j]
		if other.Type != "" {
			return goResult{} // declared elsewhere with a type: not the same evidence
		}
		if other.Via != lo.Via && other.Via > 0 {
			if r := g.result(ctx, other.Via); r.typ != "" && !r.same(res) {
				return goResult{}
			}
		}
	}
	return res
}

// maxFieldPath bounds the fields a qualifier path goes through (x.a.b.c.M).
const maxFieldPath = 3

// pathRoot is the type of the first name of the qualifier path of r (x of
// x.f.g: the method's receiver, a local with a type declared or from a call,
// or a package-level variable) and the fields the path goes through after
// it; zero when the first name's type is unknown.
func (g *goFile) pathRoot(ctx context.Context, r lang.Ref, locals link.LocalIndex) (goResult, []string) {
	g.init()
	parts := strings.Split(g.facts.Names[r.Qualifier], ".")
	if len(parts) < 2 || len(parts) > maxFieldPath+1 {
		return goResult{}, nil
	}
	first, ok := g.names[parts[0]]
	if !ok {
		return goResult{}, nil
	}
	probe := r
	probe.Qualifier = first
	switch recv := receiverType(g.facts, probe, locals); {
	case recv != "":
		return g.l.goTypeIn(ctx, g.fi, g.facts, recv), parts[1:]
	case g.locals.visible(first, r.Scope, r.Pos) >= 0:
		return g.localType(ctx, first, r.Scope, r.Pos), parts[1:]
	}
	// v.f.M, pkg.V.f.M: v, V a package-level variable
	t, rest := g.varType(ctx, parts)
	return t, rest
}

// outsideField reports whether the last of the fields a qualifier path goes
// through from its root's type (lock of f.lock.Lock()) is declared with a
// type of a package from outside the repository (lock sync.Mutex): the
// member is that package's.
func (g *goFile) outsideField(ctx context.Context, root goResult, fields []string) bool {
	if len(fields) == 0 {
		return false
	}
	t := g.fields(ctx, root, fields[:len(fields)-1])
	if t.typ == "" {
		return false
	}
	return g.l.outsideTyped(ctx, g.l.goMember(ctx, t, fields[len(fields)-1]))
}

// outsideTyped reports whether the Go symbol id gives a value of a type of
// a package from outside the repository, as the file declaring it imports
// that package: a field declared with one ("sync.Mutex", "*http.Client"), or
// a function or method whose first result is one (URL() *url.URL).
func (l *batch) outsideTyped(ctx context.Context, id int64) bool {
	return l.outsideResult(ctx, id, 0)
}

// outsideResult reports whether the result n (0-based) of the Go function
// or method id, or the value of the field id (n 0), is of a type of a
// package from outside the repository, as the file declaring it imports
// that package, or the language's error.
func (l *batch) outsideResult(ctx context.Context, id int64, n int) bool {
	fi, facts, di := l.goDef(ctx, id)
	if facts == nil {
		return false
	}
	var typ string
	switch d := facts.Defs[di]; d.Kind {
	case lang.KindField:
		if n == 0 {
			typ = d.Type
		}
	case lang.KindFunction, lang.KindMethod:
		if results := strings.Split(d.Type, ","); n < len(results) {
			typ = results[n]
		}
	}
	return typ != "" && l.outsideTypeIn(ctx, fi, facts, typ)
}

// goMemberOutside reports whether member name of type t is none of the
// repository's but one a type it embeds brings from a package outside the
// repository (Lock of a struct that embeds sync.Mutex), at the shallowest
// depth where the search ends. The name of an embedded field is no such
// member: it is the field.
func (l *batch) goMemberOutside(ctx context.Context, t goResult, name string) bool {
	outside := false
	l.walkEmbeds(ctx, t, func(level []goResult, _ bool) bool {
		for _, x := range level {
			if x.unit[x.typ+"."+name] != 0 {
				outside = false
				return true // the repository's
			}
			fi, facts, di := l.goDef(ctx, x.unit[x.typ])
			if facts == nil {
				continue
			}
			for _, rel := range facts.TypeRels {
				if int(rel.Def) != di || rel.Kind != lang.RelEmbeds {
					continue
				}
				embedded := lang.TypeName(strings.TrimLeft(rel.Target, "*"))
				if embedded == name || strings.HasSuffix(embedded, "."+name) {
					outside = false
					return true // the embedded field itself (in.TypeMeta)
				}
				outside = outside || l.outsideTypeIn(ctx, fi, facts, rel.Target)
			}
		}
		return outside
	})
	return outside
}

// outsideTypeIn reports whether a type written in a Go file ("pkg.T",
// "*pkg.T") is a type of a package the file imports from outside the
// repository, or the language's error.
func (l *batch) outsideTypeIn(ctx context.Context, fi lang.File, facts *lang.Facts, typ string) bool {
	if typ == "error" {
		return l.goUnit(ctx, lang.DirOf(fi.Path), strings.HasSuffix(fi.Pkg, "_test"))["error"] == 0
	}
	pkg := typePackage(typ)
	if pkg == "" {
		return false
	}
	imps := l.goImportsOf(ctx, fi, facts)
	i, ok := imps.byName[pkg]
	return ok && imps.outside[i]
}

// typePackage is the package that qualifies a type written in a Go file
// ("pkg" of "pkg.T", "*pkg.T", "pkg.T[X]"), or "" for an unqualified type.
func typePackage(typ string) string {
	pkg, rest, ok := strings.Cut(strings.TrimLeft(typ, "*"), ".")
	if !ok || rest == "" || !lang.IsIdentifier(pkg) {
		return ""
	}
	return pkg
}

// goResult is what calling the Go symbol id gives: its declared result type
// (Def.Type) for a function or method, the type itself for a package-level
// type (a conversion), resolved in the package of the file declaring it.
func (l *batch) goResult(ctx context.Context, id int64) goResult {
	return memoGoType(&l.goResults, id, func() goResult { return l.computeGoType(ctx, id, false) })
}

// goFieldType is the declared type of the Go field id (Def.Type), resolved
// in the package of the file declaring it; zero for anything else.
func (l *batch) goFieldType(ctx context.Context, id int64) goResult {
	return memoGoType(&l.goFields, id, func() goResult { return l.computeGoType(ctx, id, true) })
}

// memoGoType is compute's answer for the symbol id, computed once per batch
// and kept in *cache (made on first use); zero for id 0.
func memoGoType(cache *map[int64]goResult, id int64, compute func() goResult) goResult {
	if id == 0 {
		return goResult{}
	}
	if r, ok := (*cache)[id]; ok {
		return r
	}
	r := compute()
	if *cache == nil {
		*cache = map[int64]goResult{}
	}
	(*cache)[id] = r
	return r
}

// computeGoType is the type a Go symbol gives: called (a function's result,
// a conversion's type) or, with field, read (a field's declared type).
func (l *batch) computeGoType(ctx context.Context, id int64, field bool) goResult {
	fi, facts, di := l.goDef(ctx, id)
	if facts == nil {
		return goResult{}
	}
	d := facts.Defs[di]
	var typ string
	switch {
	case field:
		if d.Kind == lang.KindField {
			typ = d.Type
		}
	case d.Kind == lang.KindFunction || d.Kind == lang.KindMethod:
		typ, _, _ = strings.Cut(d.Type, ",") // the first result
	case d.Kind.IsTypeLike() && d.Parent < 0:
		typ = d.Name
	}
	if typ == "" {
		return goResult{}
	}
	return l.goTypeIn(ctx, fi, facts, typ)
}

// goStruct reports whether the Go type t is declared as a struct.
func (l *batch) goStruct(ctx context.Context, t goResult) bool {
	_, facts, di := l.goDef(ctx, t.unit[t.typ])
	return facts != nil && facts.Defs[di].Kind == lang.KindStruct
}

// goNamedType is the package-level type the Go symbol id declares; zero for
// any other symbol.
func (l *batch) goNamedType(ctx context.Context, id int64) goResult {
	fi, facts, di := l.goDef(ctx, id)
	if facts == nil || !facts.Defs[di].Kind.IsTypeLike() || facts.Defs[di].Parent >= 0 {
		return goResult{}
	}
	return l.goTypeIn(ctx, fi, facts, facts.Defs[di].Name)
}

// goTypeIn resolves a type name written in a Go file ("T" or "pkg.T") to
// the package it belongs to; zero when it does not resolve in the repository.
func (l *batch) goTypeIn(ctx context.Context, fi lang.File, facts *lang.Facts, typ string) goResult {
	if typ == "" {
		return goResult{}
	}
	if typ[0] == '[' || strings.HasPrefix(typ, "map[") {
		return l.goContainerIn(ctx, fi, facts, typ)
	}
	pkg, base, qualified := strings.Cut(typ, ".")
	if !qualified {
		test := strings.HasSuffix(fi.Pkg, "_test")
		key := lang.DirOf(fi.Path)
		if test {
			key += "_test"
		}
		unit := l.goUnit(ctx, lang.DirOf(fi.Path), test)
		if unit[typ] == 0 {
			if dir, _, ok := l.goDotImported(ctx, fi, facts, typ); ok {
				return goResult{unit: l.goUnit(ctx, dir, false), pkg: dir, typ: typ}
			}
		}
		return goResult{unit: unit, pkg: key, typ: typ}
	}
	if strings.Contains(base, ".") {
		return goResult{}
	}
	dir, ok := l.goImportDir(ctx, fi, facts, pkg)
	if !ok {
		return goResult{}
	}
	return goResult{unit: l.goUnit(ctx, dir, false), pkg: dir, typ: base}
}

// goDotImported is the package of the repository that a Go file imports
// with a dot (import . "p") and that declares the lexical path name (F, T,
// T.Method): its directory and the symbol; ok is false when none does.
func (l *batch) goDotImported(ctx context.Context, fi lang.File, facts *lang.Facts, name string) (dir string, id int64, ok bool) {
	for _, im := range facts.Imports {
		if im.Kind != lang.ImportAll {
			continue
		}
		t, resolved := l.Import(ctx, fi, im)
		if !resolved {
			continue
		}
		if id := l.goUnit(ctx, t.Dir, false)[name]; id != 0 {
			return t.Dir, id, true
		}
	}
	return "", 0, false
}

// goImportDir is the repository directory of the package a Go file imports
// under the local name pkg; ok is false when no import has that name or it
// does not resolve in the repository.
func (l *batch) goImportDir(ctx context.Context, fi lang.File, facts *lang.Facts, pkg string) (string, bool) {
	imps := l.goImportsOf(ctx, fi, facts)
	i, ok := imps.byName[pkg]
	if !ok || !imps.resolved[i] {
		return "", false
	}
	return imps.targets[i].Dir, true
}

// promoted is the symbol of the member name of the type typ ("T" or
// "pkg.T") as this file writes it: declared by the type or promoted from an
// embedded one.
func (g *goFile) promoted(ctx context.Context, typ, name string) int64 {
	if id := g.unit[typ+"."+name]; id != 0 {
		return id // the type of this package declares it
	}
	return g.l.goMember(ctx, g.l.goTypeIn(ctx, g.fi, g.facts, typ), name)
}

// maxEmbedDepth bounds the search for a promoted member.
const maxEmbedDepth = 3

// goMember is the symbol of the member name of a type: declared by the type
// itself, or promoted from the types it embeds (an interface's embedded
// interfaces, a struct's embedded fields), at the shallowest depth where
// exactly one is found. The field a struct's embedded type makes has no
// definition of its own: it is that type's name, so it links to the type
// (renaming the type renames it). An embedded type that does not resolve in
// the repository ends the search at its depth: what it brings is unknown.
func (l *batch) goMember(ctx context.Context, t goResult, name string) int64 {
	var found int64
	l.walkEmbeds(ctx, t, func(level []goResult, complete bool) bool {
		if !complete {
			return true // what the unresolved embedded type brings is unknown
		}
		for _, x := range level {
			id := x.unit[x.typ+"."+name]
			if id == 0 && l.goStruct(ctx, x) {
				// the field an embedded type makes (b.ObjectMeta where b's
				// type embeds *v1.ObjectMeta) is named by that type; an
				// interface's embedded interfaces make none
				e := l.goEmbedded(ctx, x, name)
				id = e.unit[e.typ]
			}
			if id != 0 {
				if found != 0 && found != id {
					found = 0
					return true // ambiguous at this depth
				}
				found = id
			}
		}
		return found != 0
	})
	return found
}

// walkEmbeds walks a type and the types it embeds breadth-first, one depth of
// embedding at a time (aliases followed, each type once, maxEmbedDepth
// deep), until visit returns true. complete is false when a type the level
// before embeds does not resolve in the repository.
func (l *batch) walkEmbeds(ctx context.Context, t goResult, visit func(level []goResult, complete bool) bool) {
	if t.typ == "" || t.unit == nil || t.shape != 0 {
		return
	}
	level, complete := []goResult{t}, true
	seen := map[string]bool{t.pkg + "\x00" + t.typ: true}
	for depth := 0; depth <= maxEmbedDepth && len(level) > 0; depth++ {
		for i := range level {
			level[i] = l.goAlias(ctx, level[i])
		}
		if visit(level, complete) {
			return
		}
		var next []goResult
		complete = true
		for _, x := range level {
			embeds, ok := l.goEmbeds(ctx, x)
			complete = complete && ok
			for _, e := range embeds {
				if k := e.pkg + "\x00" + e.typ; !seen[k] {
					seen[k] = true
					next = append(next, e)
				}
			}
		}
		level = next
	}
}

// goEmbeds are the types a type embeds, resolved where the type is declared;
// ok is false when one of them does not resolve in the repository.
func (l *batch) goEmbeds(ctx context.Context, t goResult) (out []goResult, ok bool) {
	fi, facts, di := l.goDef(ctx, t.unit[t.typ])
	if facts == nil {
		return nil, false
	}
	ok = true
	for _, rel := range facts.TypeRels {
		if int(rel.Def) != di || rel.Kind != lang.RelEmbeds {
			continue
		}
		e := l.goTypeIn(ctx, fi, facts, lang.TypeName(rel.Target))
		if e.typ == "" {
			ok = false
			continue
		}
		out = append(out, e)
	}
	return out, ok
}

// goDef finds the definition of the Go symbol id: its file, the file's facts
// and the definition's index; nil facts when it is unknown.
func (l *batch) goDef(ctx context.Context, id int64) (lang.File, *lang.Facts, int) {
	row, ok := l.goSyms[id]
	if id == 0 || !ok {
		return lang.File{}, nil, 0
	}
	fi, found := l.r.File(row.File)
	if !found || fi.Lang != "go" {
		return lang.File{}, nil, 0
	}
	facts := l.r.Facts(ctx, row.File)
	if facts == nil || row.DefIdx < 0 || row.DefIdx >= len(facts.Defs) {
		return lang.File{}, nil, 0
	}
	return fi, facts, row.DefIdx
}

// maxAlias bounds the type aliases followed from one name.
const maxAlias = 3

// goAlias follows type aliases (type A = B, whose Def.Type is B) to the type
// they name.
func (l *batch) goAlias(ctx context.Context, t goResult) goResult {
	for i := 0; i < maxAlias && t.typ != ""; i++ {
		fi, facts, di := l.goDef(ctx, t.unit[t.typ])
		if facts == nil {
			return t
		}
		d := facts.Defs[di]
		if !d.Kind.IsTypeLike() || d.Type == "" {
			return t
		}
		t = l.goTypeIn(ctx, fi, facts, d.Type)
	}
	return t
}

// goEmbedded is the type t embeds as the field named name (x.T.M, where x's
// type embeds T or *T), or zero.
func (l *batch) goEmbedded(ctx context.Context, t goResult, name string) goResult {
	if t.shape != 0 {
		return goResult{}
	}
	embeds, _ := l.goEmbeds(ctx, l.goAlias(ctx, t))
	var out goResult
	for _, e := range embeds {
		if e.typ == name || strings.HasSuffix(e.typ, "."+name) {
			if out.typ != "" {
				return goResult{}
			}
			out = e
		}
	}
	return out
}
