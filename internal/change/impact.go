package change

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// ImpactParams bounds impact_analyze.
type ImpactParams struct {
	Depth       int // import hops for transitive dependents (default 2)
	MaxModules  int // modules listed per dependent set (default 10)
	MaxPackages int // packages (directories) listed per module (default 5)
	MaxSamples  int // files named per package when a set is too large to list (default 3)
	// MaxListed is the largest dependent set listed whole, every package
	// with every file (default 100); a larger one is listed by its heaviest
	// modules and packages with samples, and says so (DependentSet.Sampled).
	MaxListed int
	// Recursive takes a directory target for every file below it, not
	// only its own package.
	Recursive  bool
	MaxTests   int // affected tests listed (default 10)
	MaxCallers int // callers listed (default 10)
	MaxVisited int // files the transitive walk may reach (default 20000)
}

// ImpactTarget is what was analysed.
type ImpactTarget struct {
	Kind     string           `json:"kind"` // symbol, file, package (a directory's own files) or directory (every file below it)
	Symbol   *query.SymbolRef `json:"symbol,omitempty"`
	Path     string           `json:"path"`
	Module   string           `json:"module"`
	Language string           `json:"language,omitempty"`
	// ImportPath is how code names a file or package: a Go import path, a
	// Python dotted module, a JVM package or .NET namespace.
	ImportPath string `json:"import_path,omitempty"`
	Files      int    `json:"files,omitempty"` // the indexed files of a package or directory
	// Members counts the members whose references count as the target's
	// (a type's methods and fields).
	Members int `json:"members_included,omitempty"`
}

// VisibilityInfo is the derived visibility (CKB §8.1): modifiers, then
// reference analysis, then naming, each with its confidence.
type VisibilityInfo struct {
	Visibility string  `json:"visibility"` // public, internal, private, unknown
	Confidence float64 `json:"confidence"`
	Source     string  `json:"source"` // modifiers, export-rule, ref-analysis, naming-convention
}

// ImpactClass classifies how far a change reaches.
type ImpactClass struct {
	// Level: none, local (its own file), package, module, cross-module.
	Level string `json:"level"`
	// PublicAPI: the target is public API of its module, so code outside the
	// repository may depend on it too.
	PublicAPI bool   `json:"public_api"`
	Reason    string `json:"reason"`
}

// PackageImpact is one directory of dependents.
type PackageImpact struct {
	Dir        string `json:"dir"`
	Files      int    `json:"files"`
	References int    `json:"references,omitempty"`
	// Sample lists the package's dependent files, non-test ones first: all
	// of them, unless the set is sampled (DependentSet.Sampled).
	Sample []string `json:"sample"`
	// TestOnly: only tests of the package depend on the target (or only
	// through tests, for transitive dependents).
	TestOnly bool `json:"test_only,omitempty"`
}

// ModuleImpact groups dependents by module.
type ModuleImpact struct {
	Module        string          `json:"module"`
	Files         int             `json:"files"`
	References    int             `json:"references,omitempty"`
	Packages      []PackageImpact `json:"packages"`
	PackagesTotal int             `json:"packages_total"`
}

// DependentSet is a set of dependent files grouped by module.
type DependentSet struct {
	References int            `json:"references,omitempty"`
	ByTier     map[string]int `json:"by_tier,omitempty"`
	Importers  int            `json:"importing_files,omitempty"`
	// Anchored counts files that only hold anchored candidates.
	Anchored  int `json:"anchored_files,omitempty"`
	Files     int `json:"files"`
	TestFiles int `json:"test_files,omitempty"`
	// TestOnlyPackages counts the packages only tests make dependent.
	TestOnlyPackages int            `json:"test_only_packages,omitempty"`
	Modules          []ModuleImpact `json:"modules"`
	ModulesTotal     int            `json:"modules_total"`
	// Sampled: the set is larger than a list should be; modules and packages
	// are the heaviest few, with a few files each (importers lists every
	// importing file).
	Sampled bool `json:"sampled,omitempty"`
	Depth   int  `json:"depth,omitempty"`
	// Bounded: the walk stopped at its bounds; more files may depend.
	Bounded bool `json:"bounded,omitempty"`
}

// CallersInfo lists callers from the call graph, when there is one.
type CallersInfo struct {
	Available bool              `json:"available"`
	Reason    string            `json:"reason,omitempty"`
	Total     int               `json:"total"`
	Items     []query.SymbolRef `json:"items"`
}

// RiskFactor is one input of the risk score.
type RiskFactor struct {
	Name   string  `json:"name"`
	Value  float64 `json:"value"`  // normalised to 0..1
	Weight float64 `json:"weight"` // its share of the score
	Input  string  `json:"input"`  // the raw input
}

// RiskScore is a weighted sum of its factors.
type RiskScore struct {
	Score   float64      `json:"score"`
	Level   string       `json:"level"` // low, medium, high
	Factors []RiskFactor `json:"factors"`
}

// ImpactTests are the tests a change of the target reaches.
type ImpactTests struct {
	Tests      []TestMatch `json:"tests"`
	Total      int         `json:"total"`
	High       int         `json:"high"`
	Confidence string      `json:"confidence"`
}

// ImpactResult is impact_analyze's payload.
type ImpactResult struct {
	Target         ImpactTarget   `json:"target"`
	Visibility     VisibilityInfo `json:"visibility"`
	Classification ImpactClass    `json:"classification"`
	Direct         DependentSet   `json:"direct"`
	Transitive     DependentSet   `json:"transitive"`
	Callers        CallersInfo    `json:"callers"`
	Risk           RiskScore      `json:"risk"`
	Tests          ImpactTests    `json:"affected_tests"`
	// AnchoredNote says what the counts leave out.
	Notes []string `json:"notes"`
	// Cards are the spec cards the change touches: linked with @see to the
	// target or to code that depends on it, and the cards that depend on
	// those.
	Cards []query.LinkedCard `json:"cards,omitempty"`
	// bytes of the files holding direct dependents (what reading them costs)
	BytesCovered int64 `json:"-"`
}

func (p *ImpactParams) defaults() {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&p.Depth, 2)
	def(&p.MaxModules, 10)
	def(&p.MaxPackages, 5)
	def(&p.MaxSamples, 3)
	def(&p.MaxListed, 100)
	def(&p.MaxTests, 10)
	def(&p.MaxCallers, 10)
	def(&p.MaxVisited, 20000)
}

// ImpactOfSymbol analyses what depends on a symbol.
func ImpactOfSymbol(ctx context.Context, e *query.Engine, c *Cache, r *query.Resolved, p ImpactParams) (*ImpactResult, error) {
	a := &analysis{Engine: e, cache: c}
	p.defaults()
	g, err := a.depGraph(ctx)
	if err != nil {
		return nil, err
	}
	ri, err := a.refIndex(ctx)
	if err != nil {
		return nil, err
	}
	ref := r.Ref()
	res := &ImpactResult{Target: ImpactTarget{Kind: "symbol", Symbol: &ref, Path: r.File.Path, Language: r.File.Lang}, Notes: []string{}}
	home, ok := g.byID[r.File.ID]
	if !ok {
		return nil, errs.E(errs.NotFound, "the file of %s is not in the index", r.Row.QName)
	}
	res.Target.Module = g.module(home)
	ids := []int64{r.Row.ID}
	if lang.DefKind(r.Row.Kind).IsTypeLike() {
		members, err := a.SymbolsByParent(ctx, r.Row.ID, 1000)
		if err != nil {
			return nil, err
		}
		for _, m := range members {
			ids = append(ids, m.ID)
		}
		res.Target.Members = len(members)
	}
	refs := map[int]int{} // file -> references
	tiers := map[string]int{}
	for _, id := range ids {
		for _, fr := range ri.by[id] {
			i, ok := g.byID[fr.file]
			if !ok {
				continue
			}
			refs[i] += int(fr.proven + fr.strong)
			tiers["proven"] += int(fr.proven)
			tiers["strong"] += int(fr.strong)
		}
	}
	// Anchored candidates: same-name references syntax could not attribute
	// (method calls on values of unknown type), counted when the name is
	// rare enough to scan.
	anchored, counted := a.anchoredFiles(ctx, r, maxAnchoredScan)
	if counted {
		n := 0
		for fileID, c := range anchored {
			if i, ok := g.byID[fileID]; ok {
				if _, linked := refs[i]; !linked {
					res.Direct.Anchored++
				}
				refs[i] += c
				n += c
			}
		}
		if n > 0 {
			tiers["anchored"] = n
			res.Notes = append(res.Notes, fmt.Sprintf("%d anchored candidates (same name, unproven) in %d files count as dependents; refs_find shows them", n, len(anchored)))
		}
	} else {
		res.Notes = append(res.Notes, fmt.Sprintf("anchored candidates (same name, unproven) are not counted: the name may occur in more than %d files (or is too short to look up); refs_find lists them", maxAnchoredScan))
	}
	vis := lang.Visibility(r.Row.Visibility)
	anchoredFiles := res.Direct.Anchored
	a.impactCommon(ctx, g, res, []int{home}, refs, tiers, nil, p)
	res.Direct.Anchored = anchoredFiles
	res.Visibility = deriveVisibility(r.File.Lang, r.Row.Name, vis, res.Direct.Modules, res.Target.Module)
	res.Classification = classify(g, home, refs, res.Visibility)
	if err := a.impactCallers(ctx, res, r, p); err != nil {
		return nil, err
	}
	// Tests: those referencing the symbol, then those its file reaches.
	if err := a.impactTests(ctx, g, res, []int{home}, refs, p); err != nil {
		return nil, err
	}
	res.Risk = riskScore(res)
	return res, nil
}

// ImpactOfPath analyses what depends on a file, a package (a directory's
// own files) or a directory (every file below it: one with no file of its
// own, or with p.Recursive): the files referencing its symbols and the files
// importing it, from outside it.
func ImpactOfPath(ctx context.Context, e *query.Engine, c *Cache, target string, p ImpactParams) (*ImpactResult, error) {
	a := &analysis{Engine: e, cache: c}
	p.defaults()
	g, err := a.depGraph(ctx)
	if err != nil {
		return nil, err
	}
	var u *Unit
	if i, ok := g.byPath[target]; ok {
		u = g.fileUnit(i)
	} else if dir, ok := cleanDir(cmp.Or(target, ".")); ok {
		u = g.dirUnit(dir, p.Recursive)
	}
	if u == nil {
		return nil, &errs.Error{Kind: errs.NotFound, Msg: "no indexed file or directory " + target, Fixes: []string{"cairn ls"}}
	}
	ri, err := a.refIndex(ctx)
	if err != nil {
		return nil, err
	}
	home := u.members[0]
	res := &ImpactResult{Target: ImpactTarget{Kind: u.Kind, Path: u.Path, Module: g.module(home), Language: u.Language, ImportPath: u.ImportPath,
		Files: u.Files}, Notes: []string{}}
	syms, err := g.symbols(ctx, a, u)
	if err != nil {
		return nil, err
	}
	member := u.isMember()
	refs := map[int]int{}
	tiers := map[string]int{}
	best := lang.VisUnknown
	for _, s := range syms {
		if v := lang.Visibility(s.Visibility); v == lang.VisPublic || best == lang.VisUnknown {
			best = v
		}
		for _, fr := range ri.by[s.ID] {
			if i, ok := g.byID[fr.file]; ok && !member(i) {
				refs[i] += int(fr.proven + fr.strong)
				tiers["proven"] += int(fr.proven)
				tiers["strong"] += int(fr.strong)
			}
		}
	}
	edges, err := a.importEdgesInto(ctx, g, u.members)
	if err != nil {
		return nil, err
	}
	importers := make([]int, len(edges))
	for k, ed := range edges {
		importers[k] = ed.file
	}
	a.impactCommon(ctx, g, res, u.members, refs, tiers, importers, p)
	name := u.Path[strings.LastIndexByte(u.Path, '/')+1:]
	res.Visibility = deriveVisibility(u.Language, name, best, res.Direct.Modules, res.Target.Module)
	if len(syms) == 0 {
		res.Visibility = VisibilityInfo{Visibility: "unknown", Confidence: 0.3, Source: "naming-convention"}
	}
	res.Visibility.Source = u.Kind + ": " + res.Visibility.Source
	res.Classification = classify(g, home, refs, res.Visibility)
	res.Callers = CallersInfo{Reason: "a " + u.Kind + " has no callers; see the callers of its symbols", Items: []query.SymbolRef{}}
	if err := a.impactTests(ctx, g, res, u.members, nil, p); err != nil {
		return nil, err
	}
	res.Risk = riskScore(res)
	return res, nil
}

// impactCommon fills the direct and transitive dependent sets of the
// target's files (homes).
func (a *analysis) impactCommon(ctx context.Context, g *depGraph, res *ImpactResult, homes []int, refs map[int]int, tiers map[string]int,
	importers []int, p ImpactParams) {
	direct := map[int]int{}
	for i, n := range refs {
		direct[i] = n
	}
	for _, i := range importers {
		if _, ok := direct[i]; !ok {
			direct[i] = 0
		}
	}
	// prod marks the dependents a chain of non-test files leads to: the
	// others depend on the target only through tests.
	prod := map[int]bool{}
	for i := range direct {
		_, test := g.tests[i]
		prod[i] = !test
	}
	total := tiers["precise"] + tiers["proven"] + tiers["strong"]
	res.Direct = group(g, direct, prod, p)
	res.Direct.References = total
	res.Direct.ByTier = tiers
	res.Direct.Importers = len(importers)
	for i := range direct {
		res.BytesCovered += g.files[i].Size
	}
	dependents := func(i int) []int { return a.fileDependents(ctx, g, i) }
	trans, bounded := transitiveDependents(ctx, homes, direct, p, dependents)
	markProduction(g, homes, direct, trans, prod, dependents)
	res.Transitive = group(g, trans, prod, p)
	res.Transitive.Depth = p.Depth
	res.Transitive.Bounded = bounded
	if bounded {
		res.Notes = append(res.Notes, fmt.Sprintf("transitive dependents stop at %d import hops; more files depend further out", p.Depth))
	}
	for _, set := range []*DependentSet{&res.Direct, &res.Transitive} {
		if set.Sampled {
			res.Notes = append(res.Notes, fmt.Sprintf("%d files are too many to list: each package shows its heaviest %d; the importers tool lists every importing file",
				set.Files, p.MaxSamples))
			break
		}
	}
}

// fileDependents are the files that depend on file i: its importers and,
// for a dotted module (Python's), the from-imports naming it through its
// package.
func (a *analysis) fileDependents(ctx context.Context, g *depGraph, i int) []int {
	out := g.importers(i)
	if lang.Of(g.files[i].Lang).Modules != nil {
		subs, _ := a.submoduleImports(ctx, g, i) // an error is the deadline, seen by the caller
		for _, ed := range subs {
			if ed.file != i && !slices.Contains(out, ed.file) {
				out = append(out, ed.file)
			}
		}
	}
	return out
}

// transitiveDependents walks the dependents of the target's files (homes)
// and of its direct dependents, hop by hop up to p.Depth hops and
// p.MaxVisited files; bounded says files depend further out than it went
// (or the deadline stopped it).
func transitiveDependents(ctx context.Context, homes []int, direct map[int]int, p ImpactParams, dependents func(int) []int) (trans map[int]int, bounded bool) {
	seen := map[int]bool{}
	var frontier []int
	for _, i := range homes {
		seen[i] = true
		frontier = append(frontier, i)
	}
	for i := range direct {
		seen[i] = true
		frontier = append(frontier, i)
	}
	sort.Ints(frontier)
	trans = map[int]int{}
	for depth := 0; depth < p.Depth && len(frontier) > 0; depth++ {
		if ctx.Err() != nil {
			return trans, true
		}
		var next []int
		for _, i := range frontier {
			for _, j := range dependents(i) {
				if !seen[j] {
					seen[j] = true
					trans[j] = 0
					next = append(next, j)
				}
			}
			if len(seen) > p.MaxVisited {
				break
			}
		}
		frontier = next
		if len(seen) > p.MaxVisited {
			return trans, true
		}
	}
	for _, i := range frontier {
		for _, j := range dependents(i) {
			if !seen[j] {
				return trans, true
			}
		}
	}
	return trans, false
}

// markProduction marks in prod the transitive dependents that a chain of
// non-test files leads to from the target.
func markProduction(g *depGraph, homes []int, direct, trans map[int]int, prod map[int]bool, dependents func(int) []int) {
	var chain []int
	for _, i := range homes {
		if _, test := g.tests[i]; !test {
			chain = append(chain, i)
		}
	}
	for i := range direct {
		if prod[i] {
			chain = append(chain, i)
		}
	}
	sort.Ints(chain)
	for len(chain) > 0 {
		var next []int
		for _, i := range chain {
			for _, j := range dependents(i) {
				if _, in := trans[j]; in && !prod[j] {
					if _, test := g.tests[j]; !test {
						prod[j] = true
						next = append(next, j)
					}
				}
			}
		}
		chain = next
	}
}

// group sorts files into modules and packages with counts: every file of
// every package when the set has at most p.MaxListed files, else the
// heaviest modules and packages with samples. prod marks the files a
// non-test chain reaches.
func group(g *depGraph, files map[int]int, prod map[int]bool, p ImpactParams) DependentSet {
	type pkgAcc struct {
		files []int
		refs  int
		prod  bool
	}
	mods := map[string]map[string]*pkgAcc{}
	out := DependentSet{Files: len(files), Modules: []ModuleImpact{}, Sampled: len(files) > p.MaxListed}
	for i, n := range files {
		m := g.module(i)
		if mods[m] == nil {
			mods[m] = map[string]*pkgAcc{}
		}
		d := lang.DirOf(g.files[i].Path)
		a := mods[m][d]
		if a == nil {
			a = &pkgAcc{}
			mods[m][d] = a
		}
		a.files = append(a.files, i)
		a.refs += n
		a.prod = a.prod || prod[i]
		if _, test := g.tests[i]; test {
			out.TestFiles++
		}
	}
	samples, maxPackages, maxModules := p.MaxSamples, p.MaxPackages, p.MaxModules
	if !out.Sampled {
		samples, maxPackages, maxModules = len(files), len(files), len(files)
	}
	for m, pkgs := range mods {
		mi := ModuleImpact{Module: m, Packages: []PackageImpact{}}
		for d, a := range pkgs {
			// non-test files first, then the most referencing, then by path
			sort.Slice(a.files, func(x, y int) bool {
				fx, fy := a.files[x], a.files[y]
				_, tx := g.tests[fx]
				_, ty := g.tests[fy]
				return cmp.Or(graph.CompareBool(tx, ty), cmp.Compare(files[fy], files[fx]), cmp.Compare(g.files[fx].Path, g.files[fy].Path)) < 0
			})
			pi := PackageImpact{Dir: d, Files: len(a.files), References: a.refs, Sample: []string{}, TestOnly: !a.prod}
			for _, i := range a.files {
				if len(pi.Sample) >= samples {
					break
				}
				pi.Sample = append(pi.Sample, g.files[i].Path)
			}
			if pi.TestOnly {
				out.TestOnlyPackages++
			}
			mi.Files += len(a.files)
			mi.References += a.refs
			mi.Packages = append(mi.Packages, pi)
		}
		heaviestFirst(mi.Packages, func(pi PackageImpact) (bool, int, int, string) { return pi.TestOnly, pi.References, pi.Files, pi.Dir })
		mi.PackagesTotal = len(mi.Packages)
		if len(mi.Packages) > maxPackages {
			mi.Packages = mi.Packages[:maxPackages]
		}
		out.Modules = append(out.Modules, mi)
	}
	heaviestFirst(out.Modules, func(mi ModuleImpact) (bool, int, int, string) { return false, mi.References, mi.Files, mi.Module })
	out.ModulesTotal = len(out.Modules)
	if len(out.Modules) > maxModules {
		out.Modules = out.Modules[:maxModules]
	}
	return out
}

// heaviestFirst orders non-test before test-only, then by references, then
// files (most first), then name.
func heaviestFirst[T any](xs []T, weight func(T) (testOnly bool, refs, files int, name string)) {
	sort.Slice(xs, func(i, j int) bool {
		at, ar, af, an := weight(xs[i])
		bt, br, bf, bn := weight(xs[j])
		return cmp.Or(graph.CompareBool(at, bt), cmp.Compare(br, ar), cmp.Compare(bf, af), cmp.Compare(an, bn)) < 0
	})
}

func (a *analysis) impactCallers(ctx context.Context, res *ImpactResult, r *query.Resolved, p ImpactParams) error {
	res.Callers = CallersInfo{Items: []query.SymbolRef{}}
	g, err := graph.CallGraph(ctx, a.Engine, r, graph.Params{Direction: graph.Callers, Depth: 1, LimitPerLevel: p.MaxCallers, MaxPerNode: p.MaxCallers})
	if err != nil {
		return err
	}
	if g.Partial {
		return ctx.Err() // the deadline stopped the walk before its one level: no count to report
	}
	res.Callers.Available = true
	// The direct callers come whole and ranked (the repository's code
	// before its tests, the target's package first): the first are listed.
	for _, n := range g.Nodes[1:min(len(g.Nodes), p.MaxCallers+1)] {
		res.Callers.Items = append(res.Callers.Items, n.SymbolRef)
	}
	res.Callers.Total = len(res.Callers.Items)
	if len(g.Levels) > 0 {
		res.Callers.Total = g.Levels[0].Found
	}
	return nil
}

// impactTests lists tests that reference the target directly (high) and those
// its file reaches through imports.
func (a *analysis) impactTests(ctx context.Context, g *depGraph, res *ImpactResult, homes []int, refs map[int]int, p ImpactParams) error {
	changed := make([]string, len(homes))
	for k, i := range homes {
		changed[k] = g.files[i].Path
	}
	aff, err := AffectedTests(ctx, a.Engine, a.cache, AffectedParams{Files: changed, MaxDepth: 2})
	if err != nil {
		return err
	}
	byPath := map[string]TestMatch{}
	for _, t := range aff.Tests {
		byPath[t.Path] = t
	}
	for i := range refs {
		kind, isTest := g.tests[i]
		if !isTest {
			continue
		}
		f := g.files[i]
		if t, ok := byPath[f.Path]; ok && t.Confidence == "high" {
			continue
		}
		byPath[f.Path] = TestMatch{Path: f.Path, Language: f.Lang, Convention: kind, Confidence: "high", Reason: "references_target",
			Depth: 1, Changed: changed[:min(len(changed), maxChangedPerTest)]}
	}
	tests := make([]TestMatch, 0, len(byPath))
	for _, t := range byPath {
		tests = append(tests, t)
	}
	sortTests(tests)
	res.Tests = ImpactTests{Total: len(tests), Confidence: aff.Confidence, Tests: []TestMatch{}}
	for _, t := range tests {
		if t.Confidence == "high" {
			res.Tests.High++
		}
	}
	if len(tests) > p.MaxTests {
		tests = tests[:p.MaxTests]
	}
	res.Tests.Tests = append(res.Tests.Tests, tests...)
	return nil
}

// FileExists reports whether a repo path is an indexed file.
func FileExists(ctx context.Context, e *query.Engine, path string) bool {
	_, ok, err := e.FileByPath(ctx, path)
	return err == nil && ok
}

// maxAnchoredScan bounds the files scanned for anchored candidates.
const maxAnchoredScan = 100

// anchoredFiles counts, per file, the references carrying a symbol's name
// that syntax left unattributed; ok is false when the name occurs in too many
// files to scan within impact analysis's budget.
func (a *analysis) anchoredFiles(ctx context.Context, r *query.Resolved, maxFiles int) (map[int64]int, bool) {
	name := r.Row.Name
	if len(name) < 3 {
		return nil, false // no trigram to narrow the files: a full scan
	}
	// The trigram index alone (no content read) bounds the candidates; the
	// facts' name table verifies them.
	if ov := a.Overlay(); ov != nil {
		ov.Note("anchored reference counts are the baseline index's")
	}
	hits, err := a.Store().TrigramCandidates(ctx, name)
	if err != nil || len(hits) > maxFiles {
		return nil, false
	}
	member := query.IsMemberKind(lang.DefKind(r.Row.Kind))
	out := map[int64]int{}
	a.unlinkedRefs(ctx, hits, name, func(nf *query.NameFile, ref lang.Ref) {
		if member && ref.Shape == lang.QualNone {
			return
		}
		// x.Name on a local value cannot be a package-level definition.
		if !member && ref.Shape != lang.QualNone && ref.QualBound {
			return
		}
		out[nf.File.ID]++
	})
	return out, true
}
