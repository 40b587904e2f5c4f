package golang

import (
	"context"
	"path"
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Go linking (DESIGN §5 tiers): an import path resolves to a package
// directory of the repository through the Go modules that declare a prefix
// of it; the symbols of a package (its unit) are those of the package's
// files, by lexical path (F, T, T.Method, T.Field). A bare name bound in its
// file is proven; a name of the package, pkg.Name through an import, and a
// member reached through a type the syntax knows (a receiver, a declared or
// call-initialised local, a field path, link_chains.go and link_range.go)
// are strong; pkg.Name where pkg is imported from outside the repository is
// external.

var linker = &lang.Linker{NewBatch: newBatch}

// batch links the Go files of one batch.
type batch struct {
	r       lang.Resolver
	unitTop map[string]map[string]int64 // unit key -> lexical path -> symbol id
	goSyms  map[int64]lang.Symbol       // symbols of the units loaded, by id
	// what Go symbols give (link_chains.go), by id: a function's result,
	// a field's declared type, a package-level variable's type
	goResults map[int64]goResult
	goFields  map[int64]goResult
	goVars    map[int64]goResult
	// the imports of the Go files looked at, by path (goImportsOf)
	goImps map[string]*goImports
	// held counts the symbols loaded into goSyms since the caches above
	// were last emptied (forget).
	held int
}

func newBatch(r lang.Resolver) lang.BatchLinker {
	return &batch{r: r, unitTop: map[string]map[string]int64{}}
}

// goUnit maps the lexical paths of a Go package's symbols (F, T, T.Method,
// T.Field) to their ids.
func (l *batch) goUnit(ctx context.Context, dir string, testPkg bool) map[string]int64 {
	key := dir
	if testPkg {
		key += "\x00test"
	}
	if m, ok := l.unitTop[key]; ok {
		return m
	}
	var files []string
	for _, p := range l.r.Dir(dir) {
		f, ok := l.r.File(p)
		if !ok || f.Lang != "go" || strings.HasSuffix(f.Pkg, "_test") != testPkg {
			continue
		}
		files = append(files, p)
	}
	m := l.paths(ctx, files)
	l.unitTop[key] = m
	return m
}

// forget empties what the batch loaded and derived from the units it
// loaded, between two files. Nothing it held is needed to link the next
// file the same way: every symbol id a file's links reach comes from a unit
// loaded while linking it (its own package's first), and what was derived
// from a unit is derived again from it, by the same rules.
func (l *batch) forget() {
	l.unitTop = map[string]map[string]int64{}
	l.goSyms, l.goResults, l.goFields, l.goVars, l.goImps = nil, nil, nil, nil, nil
	l.held = 0
}

// paths indexes the symbols of some files by lexical path (first wins).
func (l *batch) paths(ctx context.Context, files []string) map[string]int64 {
	out := map[string]int64{}
	rows := l.r.Symbols(ctx, files...)
	l.held += len(rows)
	prefixes := map[string]string{}
	if l.goSyms == nil {
		l.goSyms = map[int64]lang.Symbol{}
	}
	for _, r := range rows {
		l.goSyms[r.ID] = r
		prefix, ok := prefixes[r.File]
		if !ok {
			if _, ok := l.r.File(r.File); !ok {
				continue
			}
			unit, _ := l.r.Unit(r.File)
			prefix = unit + "."
			prefixes[r.File] = prefix
		}
		p := strings.TrimPrefix(r.QName, prefix)
		if _, ok := out[p]; !ok {
			out[p] = r.ID
		}
	}
	return out
}

// Import resolves an import path to a package directory of the repository.
func (l *batch) Import(_ context.Context, _ lang.File, im lang.Import) (lang.Target, bool) {
	importPath := im.Source
	var best *lang.Module
	mods := l.r.Modules()
	for i := range mods {
		m := &mods[i]
		if m.Kind != "go" {
			continue
		}
		if importPath == m.Name || strings.HasPrefix(importPath, m.Name+"/") {
			if best == nil || len(m.Name) > len(best.Name) {
				best = m
			}
		}
	}
	if best == nil {
		return lang.Target{}, false
	}
	dir := path.Join(best.Root, strings.TrimPrefix(strings.TrimPrefix(importPath, best.Name), "/"))
	if dir == "." {
		dir = ""
	}
	for _, p := range l.r.Dir(dir) {
		if strings.HasSuffix(p, ".go") {
			return lang.Target{Dir: dir}, true
		}
	}
	return lang.Target{}, false
}

// goLocalName is the name a Go import binds: the alias, the package clause of a
// package in the repository, or the last path element.
func (l *batch) goLocalName(im lang.Import, t lang.Target, ok bool) string {
	if im.Alias != "" {
		return im.Alias
	}
	if ok {
		for _, p := range l.r.Dir(t.Dir) {
			if f, found := l.r.File(p); found && f.Lang == "go" && f.Pkg != "" && !strings.HasSuffix(f.Pkg, "_test") {
				return f.Pkg
			}
		}
	}
	return importName(im)
}

// importName guesses the name a Go import binds from its path: the last
// element without a major version suffix, a go- prefix or what follows a
// dot or dash (gopkg.in/yaml.v3 is yaml).
func importName(im lang.Import) string {
	if im.Alias != "" {
		return im.Alias
	}
	last := path.Base(im.Source)
	if majorSuffix(last) {
		if parent := path.Base(path.Dir(im.Source)); parent != "." {
			last = parent // gopkg-style major version suffix: .../yaml/v3 is package yaml
		}
	}
	last = strings.TrimPrefix(last, "go-")
	if i := strings.IndexAny(last, ".-"); i > 0 {
		last = last[:i]
	}
	return last
}

// majorSuffix reports whether a path element is a module's major version
// suffix (v2, v3, ...); v0 and v1 never are, so a package there is named
// after it (k8s.io/api/core/v1 is package v1).
func majorSuffix(elem string) bool {
	n, err := strconv.Atoi(strings.TrimPrefix(elem, "v"))
	return len(elem) >= 2 && elem[0] == 'v' && err == nil && n >= 2
}

// otherImportName is the second name an import from outside the repository
// may bind, where its path ends in a major version suffix and the package
// may be named after either element (chi of github.com/go-chi/chi/v5, v2
// of k8s.io/api/autoscaling/v2); "" where there is none.
func otherImportName(im lang.Import) string {
	if last := path.Base(im.Source); im.Alias == "" && majorSuffix(last) {
		return last
	}
	return ""
}

// goImports are the imports of a Go file as linking reads them.
type goImports struct {
	targets  []lang.Target
	resolved []bool
	outside  []bool         // per import: it resolves outside the repository
	byName   map[string]int // the names the imports bind -> index into Facts.Imports
}

// goImportsOf resolves the imports of a Go file once per batch: where they
// lead, which come from outside the repository (vendored dependencies do
// not), and the names they bind: the name its package declares for an
// import of the repository, else the alias or the names its path suggests
// (importName, then otherImportName where no other import binds it).
func (l *batch) goImportsOf(ctx context.Context, f lang.File, facts *lang.Facts) *goImports {
	if imps, ok := l.goImps[f.Path]; ok {
		return imps
	}
	targets, resolved := link.Imports(ctx, l, f, facts)
	imps := &goImports{targets: targets, resolved: resolved, outside: l.unvendored(f, facts, l.r.Outside(f, facts, resolved)), byName: map[string]int{}}
	for i, im := range facts.Imports {
		if im.Kind == lang.ImportModule {
			imps.byName[l.goLocalName(im, targets[i], resolved[i])] = i
		}
	}
	for i, im := range facts.Imports {
		if other := otherImportName(im); im.Kind == lang.ImportModule && !resolved[i] && other != "" {
			if _, taken := imps.byName[other]; !taken {
				imps.byName[other] = i
			}
		}
	}
	if l.goImps == nil {
		l.goImps = map[string]*goImports{}
	}
	l.goImps[f.Path] = imps
	return imps
}

// unvendored drops from outside the dependencies vendored in the
// repository (vendor/<import path> under the file's module): their packages
// are there, though they do not resolve as the module's own.
func (l *batch) unvendored(f lang.File, facts *lang.Facts, outside []bool) []bool {
	root, found := "", false
	for i, im := range facts.Imports {
		if !outside[i] || stdlib(im) {
			continue
		}
		if !found {
			root, found = l.r.ModuleOf(f.Path, f.Lang).Root, true
		}
		if len(l.r.Dir(path.Join(root, "vendor", im.Source))) > 0 {
			outside[i] = false
		}
	}
	return outside
}

// Link resolves the references of a Go file. Go has no self names, so no
// reference is a member of this or self.
func (l *batch) Link(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) []lang.Link {
	if keep := l.r.KeepSymbols(); keep > 0 && l.held > keep {
		l.forget()
	}
	imps := l.goImportsOf(ctx, f, facts)
	gf := &goFile{l: l, fi: f, facts: facts, imports: imps.byName, targets: imps.targets, resolved: imps.resolved, outside: imps.outside,
		unit: l.goUnit(ctx, lang.DirOf(f.Path), strings.HasSuffix(f.Pkg, "_test")), linked: make([]int64, len(facts.Refs))}
	locals := link.NewLocalIndex(facts)
	var links link.Links
	add := func(ref int, tier lang.Tier, target int64) {
		if links.Add(ref, tier, target) {
			gf.linked[ref] = target
		}
	}
	external := links.External
	for ri, r := range facts.Unbound() {
		name := facts.Names[r.Name]
		if r.BindDef >= 0 { // a bare name, or a field of an anonymous struct (anonstruct.go)
			add(ri, lang.TierProven, link.DefID(own, r.BindDef))
			continue
		}
		gf.link(ctx, ri, r, name, locals, add, external)
	}
	return links
}

// link resolves a reference of a Go file: bare names in the package, x.M
// on a receiver or a typed local, pkg.Name in an imported package, and the
// keys of keyed literals. pkg.Name and the keys of pkg.T{...} where pkg is
// imported from outside the repository resolve there (external).
func (g *goFile) link(ctx context.Context, ri int, r lang.Ref, name string, locals link.LocalIndex, add func(int, lang.Tier, int64), external func(int)) {
	facts := g.facts
	switch r.Shape {
	case lang.QualType:
		// a key of a keyed composite literal T{k: v}: the field k of T
		typ := facts.Names[r.Qualifier]
		if pkg, _, ok := strings.Cut(typ, "."); ok {
			if i, ok := g.imports[pkg]; ok && g.outside[i] {
				external(ri)
				return
			}
		}
		add(ri, lang.TierStrong, g.keyField(ctx, typ, name, r.Scope, r.Pos))
	case lang.QualNone:
		if i, ok := g.imports[name]; ok && g.unit[name] == 0 {
			// the package's name in pkg.Name and pkg.T: no symbol, outside
			// the repository when the package is (a file's imports and
			// its package's declarations share no name)
			if g.outside[i] {
				external(ri)
			}
			return
		}
		if r.Role == lang.RoleWrite || r.Role == lang.RoleRead || r.Role == lang.RoleCall {
			id := g.unit[name]
			if id == 0 {
				// a name of a package the file imports with a dot
				if _, dot, ok := g.l.goDotImported(ctx, g.fi, facts, name); ok {
					id = dot
				} else if g.dotOutside() && !builtins[name] {
					external(ri)
					return
				}
			}
			add(ri, lang.TierStrong, id)
		}
	case lang.QualCall:
		// F(x).Member, x.F().Member: the member of the type F returns;
		// external when that is a dependency's type (r.URL().String()) or
		// the call gives no type of the repository (klog.V(3).Infof)
		g.linkMember(ctx, ri, g.result(ctx, r.Via), name, func() bool {
			if g.repoFree(r) {
				if g.free == nil {
					g.free = map[int]bool{}
				}
				g.free[ri] = true
				return true
			}
			return g.l.outsideTyped(ctx, g.callee(r.Via))
		}, add, external)
	case lang.QualPath:
		// x.f.Member, recv.f.g.Member: through the declared types of fields;
		// v.f.Member where v is a package-level variable
		root, fields := g.pathRoot(ctx, r, locals)
		g.linkMember(ctx, ri, g.fields(ctx, root, fields), name, func() bool {
			return g.outsidePath(ctx, r, locals) || g.outsideField(ctx, root, fields)
		}, add, external)
	case lang.QualExpr:
		// (&T{}).Member, T{}.Member, (*x).Member, xs[i].Member,
		// v.(*T).Member; external when the type written there is a
		// dependency's (&http.Client{}, v.(*v1.Pod))
		x := facts.Names[r.Qualifier]
		g.linkMember(ctx, ri, g.exprType(ctx, x, r.Scope, r.Pos), name, func() bool {
			return g.outsideType(ctx, writtenType(unwrap(x)))
		}, add, external)
	case lang.QualIdent:
		if r.QualBound {
			// recv.Member inside a method, where recv is the method's receiver:
			// the member of the receiver's type in this package.
			if recvType := receiverType(facts, r, locals); recvType != "" {
				id := g.promoted(ctx, recvType, name)
				if id == 0 && g.l.goMemberOutside(ctx, g.l.goTypeIn(ctx, g.fi, facts, recvType), name) {
					external(ri) // promoted from an embedded sync.Mutex
					return
				}
				add(ri, lang.TierStrong, id)
				return
			}
			// x.Member where the source declares x's type; external when
			// that is a type of a package from outside (t *testing.T), or
			// promoted from one its type embeds
			g.linkMember(ctx, ri, g.qualType(ctx, r), name, func() bool {
				return g.outsideLocal(ctx, r.Qualifier, r.Scope, r.Pos)
			}, add, external)
			return
		}
		i, ok := g.imports[facts.Names[r.Qualifier]]
		switch {
		case !ok:
			// v.Member where v is a package-level variable of this package
			add(ri, lang.TierStrong, g.l.goMember(ctx, g.pkgVarType(ctx, facts.Names[r.Qualifier], r.Scope, r.Pos), name))
		case g.outside[i]:
			external(ri)
		case g.resolved[i]:
			add(ri, lang.TierStrong, g.l.goUnit(ctx, g.targets[i].Dir, false)[name])
		}
	}
}

// linkMember links reference ri to the member name of the type t, or as
// external where t has no such member of the repository: outside says the
// qualifier's type is not the repository's, or a type t embeds brings the
// member from a dependency (sync.Mutex's Lock).
func (g *goFile) linkMember(ctx context.Context, ri int, t goResult, name string, outside func() bool, add func(int, lang.Tier, int64), external func(int)) {
	if id := g.l.goMember(ctx, t, name); id != 0 {
		add(ri, lang.TierStrong, id)
		return
	}
	if outside() || g.l.goMemberOutside(ctx, t, name) {
		external(ri)
	}
}

// outsideType reports whether a type written in the file ("pkg.T",
// "*pkg.T", "pkg.T[X]") is a type of a package it imports from outside the
// repository, or the language's error: its members are not the
// repository's.
func (g *goFile) outsideType(ctx context.Context, typ string) bool {
	return g.l.outsideTypeIn(ctx, g.fi, g.facts, typ)
}

// outsideLocal reports whether the local named name that a reference at
// pos in scope sees is declared with a type from outside the repository, or
// initialised with the call of a function of the repository that returns
// one (u := r.URL()).
func (g *goFile) outsideLocal(ctx context.Context, name uint32, scope int32, pos lang.Pos) bool {
	g.init()
	i := g.locals.visible(name, scope, pos)
	if i < 0 {
		return false
	}
	lo := g.facts.Locals[i]
	callee := g.callee(lo.Via)
	for _, j := range g.locals.byKey[uint64(uint32(lo.Scope))<<32|uint64(lo.Name)] {
		other := g.facts.Locals[j]
		if other.Type != lo.Type || (lo.Type == "" || lo.Type[0] == '(') && g.callee(other.Via) != callee {
			return false // declared again with other type evidence
		}
	}
	if lo.Type == "" {
		return g.l.outsideTyped(ctx, callee)
	}
	if n, ok := resultIndex(lo.Type); ok {
		return g.l.outsideResult(ctx, callee, n) // _, err := F()
	}
	if src, ok := derivedSource(lo.Type); ok {
		// for _, item := range obj.(*v1.PodList).Items: a value of a
		// dependency's type written without type arguments holds no type
		// of the repository, nor does what its fields hold
		typ, _, ok := splitAsserted(src)
		return ok && !strings.Contains(typ, "[") && g.outsideType(ctx, typ)
	}
	return g.outsideType(ctx, lo.Type)
}

// outsidePath reports whether the path qualifying r (x.f, pkg.V.f) starts
// in a package from outside the repository: a local declared with one of
// its types, or the package itself.
func (g *goFile) outsidePath(ctx context.Context, r lang.Ref, locals link.LocalIndex) bool {
	g.init()
	root, _, _ := strings.Cut(g.facts.Names[r.Qualifier], ".")
	id, ok := g.names[root]
	if !ok {
		return false
	}
	probe := r
	probe.Qualifier = id
	if receiverType(g.facts, probe, locals) != "" {
		return false
	}
	if g.locals.visible(id, r.Scope, r.Pos) >= 0 {
		return g.outsideLocal(ctx, id, r.Scope, r.Pos)
	}
	i, ok := g.imports[root]
	return ok && g.outside[i]
}

// dotOutside reports whether the file imports a package from outside the
// repository with a dot (import . "github.com/onsi/gomega"): a bare name
// that neither its package nor the language declares is that package's.
func (g *goFile) dotOutside() bool {
	for i, im := range g.facts.Imports {
		if im.Kind == lang.ImportAll && g.outside[i] {
			return true
		}
	}
	return false
}

// receiverType returns the receiver type of the enclosing Go method when the
// reference's qualifier is that method's receiver parameter, else "".
func receiverType(f *lang.Facts, r lang.Ref, li link.LocalIndex) string {
	m := r.Enclosing
	for m >= 0 && f.Defs[m].Receiver == "" {
		m = f.Defs[m].Parent
	}
	if m < 0 {
		return ""
	}
	i := li.Binding(f, r.Qualifier, r.Scope)
	if i < 0 {
		return ""
	}
	d, lo := f.Defs[m], f.Locals[i]
	if lo.Pos.Before(d.Span.Start) || !lo.Pos.Before(d.NameSpan.Start) {
		return "" // a local of the body, not the receiver
	}
	return d.Receiver
}

// goFile is what linking one Go file needs: its imports by local name, and
// the members of the types it names, T (a type of the file's package) or
// pkg.T (of an imported package of the repository), by lexical path in the
// package's unit map.
type goFile struct {
	l        *batch
	fi       lang.File
	facts    *lang.Facts
	imports  map[string]int // local name -> index into facts.Imports
	targets  []lang.Target
	resolved []bool
	outside  []bool // per import: it resolves outside the repository
	unit     map[string]int64
	names    map[string]uint32 // facts.Names by string, built on first use
	local    map[string]bool   // type names declared inside a function of the file
	locals   *scopedLocals
	linked   []int64 // per reference: its target once linked (references link in source order)
	// free marks the references whose call or read gives a value no type of
	// the repository can be part of (repoFree), once linked
	free map[int]bool
}

// member is the symbol of member name of the type written typ ("T" or
// "pkg.T") where the source writes it (scope, pos), or 0. A T that binds to
// a local there (a type parameter) or that a function of the file declares
// is not the package's T.
func (g *goFile) member(ctx context.Context, typ, name string, scope int32, pos lang.Pos) int64 {
	if typ == "" {
		return 0
	}
	pkg, base, qualified := strings.Cut(typ, ".")
	if !qualified {
		if g.shadowed(typ, scope, pos) {
			return 0
		}
		if id := g.unit[typ+"."+name]; id != 0 || g.unit[typ] != 0 {
			return id
		}
		_, id, _ := g.l.goDotImported(ctx, g.fi, g.facts, typ+"."+name)
		return id
	}
	if strings.Contains(base, ".") {
		return 0
	}
	i, ok := g.imports[pkg]
	if !ok || !g.resolved[i] {
		return 0
	}
	return g.l.goUnit(ctx, g.targets[i].Dir, false)[base+"."+name]
}

// qualType is the type of the qualifier of r: a local, or a package-level
// variable of this file (v.Member).
func (g *goFile) qualType(ctx context.Context, r lang.Ref) goResult {
	if g.locals == nil {
		g.init()
	}
	if g.locals.visible(r.Qualifier, r.Scope, r.Pos) < 0 {
		return g.pkgVarType(ctx, g.facts.Names[r.Qualifier], r.Scope, r.Pos)
	}
	return g.localType(ctx, r.Qualifier, r.Scope, r.Pos)
}

// localType is the type of the local named name that a reference at pos in
// scope sees: the type the source declares for it, or the result type of the
// call that initialises it. A variable declared again in the same scope with
// other type evidence has no type.
func (g *goFile) localType(ctx context.Context, name uint32, scope int32, pos lang.Pos) goResult {
	g.init()
	i := g.locals.visible(name, scope, pos)
	if i < 0 {
		return goResult{}
	}
	lo := g.facts.Locals[i]
	if lo.Type == "" {
		return g.callLocalType(ctx, lo)
	}
	if derived(lo.Type) {
		return g.derivedLocalType(ctx, lo)
	}
	for _, j := range g.locals.byKey[uint64(uint32(lo.Scope))<<32|uint64(lo.Name)] {
		if t := g.facts.Locals[j].Type; t != "" && t != lo.Type {
			return goResult{}
		}
	}
	for _, t := range typeNames(lo.Type) {
		if g.shadowed(t, lo.Scope, lo.Pos) {
			return goResult{}
		}
	}
	return g.l.goTypeIn(ctx, g.fi, g.facts, lo.Type)
}

// shadowed reports whether the type name T, seen from scope at pos, is not
// the package-level T: a local of that name is in scope (a type parameter),
// or a function of the file declares a type T.
func (g *goFile) shadowed(typ string, scope int32, pos lang.Pos) bool {
	g.init()
	if g.local[typ] {
		return true
	}
	id, ok := g.names[typ]
	if !ok {
		return false
	}
	return g.locals.visible(id, scope, pos) >= 0
}

// init indexes the file's names, locals and function-local types on first use.
func (g *goFile) init() {
	if g.names == nil {
		g.names = make(map[string]uint32, len(g.facts.Names))
		for i, n := range g.facts.Names {
			if _, ok := g.names[n]; !ok {
				g.names[n] = uint32(i)
			}
		}
		g.locals = newScopedLocals(g.facts)
		g.local = map[string]bool{}
		for _, d := range g.facts.Defs {
			if d.Kind.IsTypeLike() && d.Parent >= 0 && !g.facts.Defs[d.Parent].Kind.IsTypeLike() {
				g.local[d.Name] = true
			}
		}
	}
}

// scopedLocals finds the local a Go reference sees, with Go's rule that a
// local binds from its declaration on.
type scopedLocals struct {
	f     *lang.Facts
	byKey map[uint64][]int32 // (scope, name) -> locals in order
}

func newScopedLocals(f *lang.Facts) *scopedLocals {
	m := make(map[uint64][]int32, len(f.Locals))
	for i, lo := range f.Locals {
		k := uint64(uint32(lo.Scope))<<32 | uint64(lo.Name)
		m[k] = append(m[k], int32(i))
	}
	return &scopedLocals{f: f, byKey: m}
}

// visible is the local named name that a reference at pos in scope sees: the
// first local of that name, declared before pos, in the innermost scope of
// the chain that has one; -1 for none.
func (sl *scopedLocals) visible(name uint32, scope int32, pos lang.Pos) int32 {
	for s := scope; ; s = sl.f.Scopes[s].Parent {
		if ls := sl.byKey[uint64(uint32(s))<<32|uint64(name)]; len(ls) > 0 && !pos.Before(sl.f.Locals[ls[0]].Visible()) {
			return ls[0]
		}
		if s < 0 {
			return -1
		}
	}
}

// stdlib reports whether an import path names a package of Go's standard
// library: its first element has no dot (and it is not cgo's "C").
func stdlib(im lang.Import) bool {
	first := strings.SplitN(im.Source, "/", 2)[0]
	return !strings.Contains(first, ".") && im.Source != "C"
}
