package index

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// goResult is what a call of a Go function or method gives, as far as the
// syntactic layer knows: the named type it returns (or, for a conversion
// T(x), the type T), with the unit of the package that type belongs to.
// A zero goResult (typ "") knows nothing.
type goResult struct {
	unit map[string]int64
	pkg  string // the package's directory, with "_test" for an external test package
	typ  string // the type's name in unit
}

// member is the symbol of the member name of the result's type, or 0.
func (r goResult) member(name string) int64 {
	if r.typ == "" || r.unit == nil {
		return 0
	}
	return r.unit[r.typ+"."+name]
}

// resultMember is the symbol of Member in F(x).Member, where via is 1 + the
// reference to F (Ref.Via), F is linked already, and the source declares the
// type F returns; 0 otherwise.
func (g *goFile) resultMember(via int32, name string) int64 {
	return g.result(via).member(name)
}

// result is what the call of the function referenced by via (1 + index) gives.
func (g *goFile) result(via int32) goResult {
	if via <= 0 || int(via) > len(g.linked) {
		return goResult{}
	}
	return g.l.goResult(g.linked[via-1])
}

// callLocalMember is the symbol of x.name where x is a local without a
// declared type that a call initialises (x := F(), x, err := p.F()), or 0.
// Other bindings of the name in the same scope must agree on the type.
func (g *goFile) callLocalMember(lo lang.Local, name string) int64 {
	res := g.result(lo.Via)
	if res.typ == "" {
		return 0
	}
	for _, j := range g.locals.byKey[uint64(uint32(lo.Scope))<<32|uint64(lo.Name)] {
		other := g.facts.Locals[j]
		if other.Type != "" {
			return 0 // declared elsewhere with a type: not the same evidence
		}
		if other.Via != lo.Via && other.Via > 0 {
			if r := g.result(other.Via); r.typ != "" && (r.typ != res.typ || r.pkg != res.pkg) {
				return 0
			}
		}
	}
	return res.member(name)
}

// goResult is what calling the Go symbol id gives: its declared result type
// (Def.Type) for a function or method, the type itself for a package-level
// type (a conversion), resolved in the package of the file declaring it.
func (l *linker) goResult(id int64) goResult {
	if id == 0 {
		return goResult{}
	}
	if r, ok := l.goResults[id]; ok {
		return r
	}
	r := l.computeGoResult(id)
	if l.goResults == nil {
		l.goResults = map[int64]goResult{}
	}
	l.goResults[id] = r
	return r
}

func (l *linker) computeGoResult(id int64) goResult {
	row, ok := l.goSyms[id]
	if !ok || l.facts == nil {
		return goResult{}
	}
	fi := l.w.files[l.pathOf(row.FileID)]
	if fi == nil || fi.lang != "go" {
		return goResult{}
	}
	facts, err := l.facts(fi)
	if err != nil || facts == nil || row.DefIdx < 0 || row.DefIdx >= len(facts.Defs) {
		return goResult{}
	}
	d := facts.Defs[row.DefIdx]
	var typ string
	switch {
	case d.Kind == lang.KindFunction || d.Kind == lang.KindMethod:
		typ = d.Type
	case d.Kind.IsTypeLike() && d.Parent < 0:
		typ = d.Name
	}
	if typ == "" {
		return goResult{}
	}
	pkg, base, qualified := strings.Cut(typ, ".")
	if !qualified {
		test := strings.HasSuffix(fi.pkg, "_test")
		key := dirOf(fi.path)
		if test {
			key += "_test"
		}
		return goResult{unit: l.goUnit(dirOf(fi.path), test), pkg: key, typ: typ}
	}
	if strings.Contains(base, ".") {
		return goResult{}
	}
	for _, im := range facts.Imports {
		if im.Kind != lang.ImportModule {
			continue
		}
		t, ok := l.resolveImport(fi, im)
		if l.goLocalName(im, t, ok) != pkg {
			continue
		}
		if !ok {
			return goResult{}
		}
		return goResult{unit: l.goUnit(t.goDir, false), pkg: t.goDir, typ: base}
	}
	return goResult{}
}
