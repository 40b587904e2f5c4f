package query

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
)

// ImpactParams bounds impact_analyze.
type ImpactParams struct {
	Depth       int // import hops for transitive dependents (default 2)
	MaxModules  int // modules listed per dependent set (default 10)
	MaxPackages int // packages (directories) listed per module (default 5)
	MaxSamples  int // files named per package (default 3)
	MaxTests    int // affected tests listed (default 10)
	MaxCallers  int // callers listed (default 10)
	MaxVisited  int // files the transitive walk may reach (default 20000)
}

// ImpactTarget is what was analysed.
type ImpactTarget struct {
	Kind     string     `json:"kind"` // symbol or file
	Symbol   *SymbolRef `json:"symbol,omitempty"`
	Path     string     `json:"path"`
	Module   string     `json:"module"`
	Language string     `json:"language,omitempty"`
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
	Dir        string   `json:"dir"`
	Files      int      `json:"files"`
	References int      `json:"references,omitempty"`
	Sample     []string `json:"sample"`
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
	Anchored     int            `json:"anchored_files,omitempty"`
	Files        int            `json:"files"`
	Modules      []ModuleImpact `json:"modules"`
	ModulesTotal int            `json:"modules_total"`
	Depth        int            `json:"depth,omitempty"`
	// Bounded: the walk stopped at its bounds; more files may depend.
	Bounded bool `json:"bounded,omitempty"`
}

// CallersInfo lists callers from the call graph, when there is one.
type CallersInfo struct {
	Available bool        `json:"available"`
	Reason    string      `json:"reason,omitempty"`
	Total     int         `json:"total"`
	Items     []SymbolRef `json:"items"`
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
	Cards []LinkedCard `json:"cards,omitempty"`
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
	def(&p.MaxTests, 10)
	def(&p.MaxCallers, 10)
	def(&p.MaxVisited, 20000)
}

// ImpactOfSymbol analyses what depends on a symbol.
func (e *Engine) ImpactOfSymbol(ctx context.Context, r *Resolved, p ImpactParams) (*ImpactResult, error) {
	p.defaults()
	g, err := e.depGraph(ctx)
	if err != nil {
		return nil, err
	}
	ri, err := e.refIndex(ctx)
	if err != nil {
		return nil, err
	}
	ref := r.ref()
	res := &ImpactResult{Target: ImpactTarget{Kind: "symbol", Symbol: &ref, Path: r.file.Path, Language: r.file.Lang}, Notes: []string{}}
	home, ok := g.byID[r.file.ID]
	if !ok {
		return nil, errs.E(errs.NotFound, "the file of %s is not in the index", r.row.QName)
	}
	res.Target.Module = g.module(home)
	ids := []int64{r.row.ID}
	if lang.DefKind(r.row.Kind).IsTypeLike() {
		members, err := e.db().SymbolsByParent(ctx, r.row.ID, 1000)
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
	anchored, counted := e.anchoredFiles(ctx, r, maxAnchoredScan)
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
	vis := lang.Visibility(r.row.Visibility)
	anchoredFiles := res.Direct.Anchored
	e.impactCommon(ctx, g, res, home, refs, tiers, nil, p)
	res.Direct.Anchored = anchoredFiles
	res.Visibility = deriveVisibility(r.file.Lang, r.row.Name, vis, res.Direct.Modules, res.Target.Module)
	res.Classification = classify(g, home, refs, res.Visibility)
	if err := e.impactCallers(ctx, res, r, p); err != nil {
		return nil, err
	}
	// Tests: those referencing the symbol, then those its file reaches.
	if err := e.impactTests(ctx, g, res, home, refs, p); err != nil {
		return nil, err
	}
	res.Risk = riskScore(res)
	return res, nil
}

// ImpactOfFile analyses what depends on a file: the files referencing its
// symbols and the files importing it (or its Go package).
func (e *Engine) ImpactOfFile(ctx context.Context, path string, p ImpactParams) (*ImpactResult, error) {
	p.defaults()
	g, err := e.depGraph(ctx)
	if err != nil {
		return nil, err
	}
	home, ok := g.byPath[path]
	if !ok {
		return nil, &errs.Error{Kind: errs.NotFound, Msg: "no indexed file " + path, Fixes: []string{"cairn ls"}}
	}
	ri, err := e.refIndex(ctx)
	if err != nil {
		return nil, err
	}
	f := g.files[home]
	res := &ImpactResult{Target: ImpactTarget{Kind: "file", Path: path, Module: g.module(home), Language: f.Lang}, Notes: []string{}}
	syms, err := e.db().SymbolsOfFile(ctx, f.ID)
	if err != nil {
		return nil, err
	}
	refs := map[int]int{}
	tiers := map[string]int{}
	best := lang.VisUnknown
	for _, s := range syms {
		if v := lang.Visibility(s.Visibility); v == lang.VisPublic || best == lang.VisUnknown {
			best = v
		}
		for _, fr := range ri.by[s.ID] {
			if i, ok := g.byID[fr.file]; ok && i != home {
				refs[i] += int(fr.proven + fr.strong)
				tiers["proven"] += int(fr.proven)
				tiers["strong"] += int(fr.strong)
			}
		}
	}
	importers := g.importers(home)
	e.impactCommon(ctx, g, res, home, refs, tiers, importers, p)
	res.Visibility = deriveVisibility(f.Lang, pathBase(path), best, res.Direct.Modules, res.Target.Module)
	if len(syms) == 0 {
		res.Visibility = VisibilityInfo{Visibility: "unknown", Confidence: 0.3, Source: "naming-convention"}
	}
	res.Visibility.Source = "file: " + res.Visibility.Source
	res.Classification = classify(g, home, refs, res.Visibility)
	res.Callers = CallersInfo{Reason: "a file has no callers; see the callers of its symbols", Items: []SymbolRef{}}
	if err := e.impactTests(ctx, g, res, home, nil, p); err != nil {
		return nil, err
	}
	res.Risk = riskScore(res)
	return res, nil
}

// impactCommon fills the direct and transitive dependent sets.
func (e *Engine) impactCommon(ctx context.Context, g *depGraph, res *ImpactResult, home int, refs map[int]int, tiers map[string]int,
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
	total := tiers["precise"] + tiers["proven"] + tiers["strong"]
	res.Direct = group(g, direct, p)
	res.Direct.References = total
	res.Direct.ByTier = tiers
	res.Direct.Importers = len(importers)
	for i := range direct {
		res.BytesCovered += g.files[i].Size
	}
	// Transitive: importers of the direct dependents (and of the target's
	// own file), hop by hop.
	seen := map[int]bool{home: true}
	frontier := []int{home}
	for i := range direct {
		seen[i] = true
		frontier = append(frontier, i)
	}
	sort.Ints(frontier)
	trans := map[int]int{}
	depth := 0
	for ; depth < p.Depth && len(frontier) > 0; depth++ {
		if ctx.Err() != nil {
			res.Transitive.Bounded = true
			break
		}
		var next []int
		for _, i := range frontier {
			for _, j := range g.importers(i) {
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
			res.Transitive.Bounded = true
			break
		}
	}
	bounded := res.Transitive.Bounded
	if !bounded && len(frontier) > 0 {
		for _, i := range frontier {
			for _, j := range g.importers(i) {
				if !seen[j] {
					bounded = true
					break
				}
			}
			if bounded {
				break
			}
		}
	}
	res.Transitive = group(g, trans, p)
	res.Transitive.Depth = p.Depth
	res.Transitive.Bounded = bounded
	if bounded {
		res.Notes = append(res.Notes, fmt.Sprintf("transitive dependents stop at %d import hops; more files depend further out", p.Depth))
	}
}

// group sorts files into modules and packages with counts and samples.
func group(g *depGraph, files map[int]int, p ImpactParams) DependentSet {
	type pkgAcc struct {
		files []int
		refs  int
	}
	mods := map[string]map[string]*pkgAcc{}
	for i, n := range files {
		m := g.module(i)
		if mods[m] == nil {
			mods[m] = map[string]*pkgAcc{}
		}
		d := dirOf(g.files[i].Path)
		a := mods[m][d]
		if a == nil {
			a = &pkgAcc{}
			mods[m][d] = a
		}
		a.files = append(a.files, i)
		a.refs += n
	}
	out := DependentSet{Files: len(files), Modules: []ModuleImpact{}}
	for m, pkgs := range mods {
		mi := ModuleImpact{Module: m, Packages: []PackageImpact{}}
		for d, a := range pkgs {
			sort.Slice(a.files, func(x, y int) bool {
				if files[a.files[x]] != files[a.files[y]] {
					return files[a.files[x]] > files[a.files[y]]
				}
				return g.files[a.files[x]].Path < g.files[a.files[y]].Path
			})
			pi := PackageImpact{Dir: d, Files: len(a.files), References: a.refs, Sample: []string{}}
			for _, i := range a.files {
				if len(pi.Sample) >= p.MaxSamples {
					break
				}
				pi.Sample = append(pi.Sample, g.files[i].Path)
			}
			mi.Files += len(a.files)
			mi.References += a.refs
			mi.Packages = append(mi.Packages, pi)
		}
		sort.Slice(mi.Packages, func(x, y int) bool {
			a, b := mi.Packages[x], mi.Packages[y]
			if a.References != b.References {
				return a.References > b.References
			}
			if a.Files != b.Files {
				return a.Files > b.Files
			}
			return a.Dir < b.Dir
		})
		mi.PackagesTotal = len(mi.Packages)
		if len(mi.Packages) > p.MaxPackages {
			mi.Packages = mi.Packages[:p.MaxPackages]
		}
		out.Modules = append(out.Modules, mi)
	}
	sort.Slice(out.Modules, func(x, y int) bool {
		a, b := out.Modules[x], out.Modules[y]
		if a.References != b.References {
			return a.References > b.References
		}
		if a.Files != b.Files {
			return a.Files > b.Files
		}
		return a.Module < b.Module
	})
	out.ModulesTotal = len(out.Modules)
	if len(out.Modules) > p.MaxModules {
		out.Modules = out.Modules[:p.MaxModules]
	}
	return out
}

// deriveVisibility follows CKB §8.1: the language's own marks (modifiers,
// Go's export rule), then whether other modules reference it, then naming.
func deriveVisibility(language, name string, v lang.Visibility, direct []ModuleImpact, home string) VisibilityInfo {
	switch language {
	case "go":
		if v != lang.VisUnknown {
			return VisibilityInfo{Visibility: v.String(), Confidence: 0.95, Source: "export-rule"}
		}
	case "java", "kotlin", "csharp", "typescript", "tsx", "javascript", "rust", "php", "cpp", "c":
		if v != lang.VisUnknown {
			return VisibilityInfo{Visibility: v.String(), Confidence: 0.9, Source: "modifiers"}
		}
	}
	for _, m := range direct {
		if m.Module != home {
			return VisibilityInfo{Visibility: "public", Confidence: 0.9, Source: "ref-analysis"}
		}
	}
	if strings.HasPrefix(name, "_") && !strings.HasPrefix(name, "__") || strings.HasPrefix(name, "#") {
		return VisibilityInfo{Visibility: "private", Confidence: 0.6, Source: "naming-convention"}
	}
	return VisibilityInfo{Visibility: "unknown", Confidence: 0.3, Source: "naming-convention"}
}

// classify says how far the direct dependents reach.
func classify(g *depGraph, home int, direct map[int]int, vis VisibilityInfo) ImpactClass {
	c := ImpactClass{Level: "none", Reason: "nothing in the repository references it"}
	homeMod, homeDir := g.files[home].ModuleID, dirOf(g.files[home].Path)
	level := 0
	names := []string{"none", "local", "package", "module", "cross-module"}
	for i := range direct {
		f := g.files[i]
		l := 1
		switch {
		case i == home:
		case f.ModuleID != homeMod:
			l = 4
		case dirOf(f.Path) != homeDir:
			l = 3
		default:
			l = 2
		}
		level = max(level, l)
	}
	c.Level = names[level]
	switch level {
	case 1:
		c.Reason = "only its own file depends on it"
	case 2:
		c.Reason = "files of its own package depend on it"
	case 3:
		c.Reason = "other packages of its module depend on it"
	case 4:
		c.Reason = "other modules of the repository depend on it"
	}
	c.PublicAPI = vis.Visibility == "public" && vis.Confidence >= 0.9 && TestFileKind(g.files[home].Path, g.files[home].Lang) == "" &&
		!strings.Contains("/"+g.files[home].Path, "/internal/")
	if c.PublicAPI {
		c.Reason += "; it is public API, so code outside the repository may depend on it too"
	}
	return c
}

func (e *Engine) impactCallers(ctx context.Context, res *ImpactResult, r *Resolved, p ImpactParams) error {
	res.Callers = CallersInfo{Items: []SymbolRef{}}
	g, err := e.CallGraph(ctx, r, GraphParams{Direction: Callers, Depth: 1, LimitPerLevel: p.MaxCallers, MaxPerNode: p.MaxCallers})
	if err != nil {
		return err
	}
	if g.Partial {
		return ctx.Err() // the deadline stopped the walk before its one level: no count to report
	}
	res.Callers.Available = true
	for _, n := range g.Nodes[1:] {
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
func (e *Engine) impactTests(ctx context.Context, g *depGraph, res *ImpactResult, home int, refs map[int]int, p ImpactParams) error {
	aff, err := e.AffectedTests(ctx, AffectedParams{Files: []string{g.files[home].Path}, MaxDepth: 2})
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
			Depth: 1, Changed: []string{g.files[home].Path}}
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

// riskScore weighs visibility, how much references it, how far that
// spreads, and whether tests would notice.
func riskScore(res *ImpactResult) RiskScore {
	visV := map[string]float64{"public": 1, "internal": 0.6, "unknown": 0.5, "private": 0.2}[res.Visibility.Visibility]
	refs := float64(res.Direct.References+res.Direct.Importers) + float64(res.Direct.ByTier["anchored"])/2
	refV := math.Min(1, math.Log10(1+refs)/3)
	spread := 0.0
	if res.Direct.ModulesTotal > 1 {
		spread = math.Min(1, float64(res.Direct.ModulesTotal-1)/4)
	}
	if res.Classification.PublicAPI {
		spread = math.Max(spread, 0.5)
	}
	transV := math.Min(1, math.Log10(1+float64(res.Transitive.Files))/4)
	testV := 1.0
	switch {
	case res.Tests.High > 0:
		testV = 0
	case res.Tests.Total > 0:
		testV = 0.5
	}
	factors := []RiskFactor{
		{Name: "visibility", Value: visV, Weight: 0.25, Input: res.Visibility.Visibility},
		{Name: "direct_references", Value: refV, Weight: 0.25, Input: fmt.Sprintf("%d references, %d anchored, %d importing files", res.Direct.References, res.Direct.ByTier["anchored"], res.Direct.Importers)},
		{Name: "module_spread", Value: spread, Weight: 0.15, Input: fmt.Sprintf("%d modules; public API: %v", res.Direct.ModulesTotal, res.Classification.PublicAPI)},
		{Name: "transitive_dependents", Value: transV, Weight: 0.15, Input: fmt.Sprintf("%d files within %d hops", res.Transitive.Files, res.Transitive.Depth)},
		{Name: "test_gap", Value: testV, Weight: 0.2, Input: fmt.Sprintf("%d tests (%d high confidence)", res.Tests.Total, res.Tests.High)},
	}
	score := 0.0
	for i := range factors {
		factors[i].Value = round6(factors[i].Value)
		score += factors[i].Value * factors[i].Weight
	}
	level := "low"
	switch {
	case score >= 0.66:
		level = "high"
	case score >= 0.33:
		level = "medium"
	}
	return RiskScore{Score: round6(score), Level: level, Factors: factors}
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// FileExists reports whether a repo path is an indexed file.
func (e *Engine) FileExists(ctx context.Context, path string) bool {
	_, ok, err := e.db().FileByPath(ctx, path)
	return err == nil && ok
}

// maxAnchoredScan bounds the files scanned for anchored candidates.
const maxAnchoredScan = 100

// anchoredFiles counts, per file, the references carrying a symbol's name
// that syntax left unattributed; ok is false when the name occurs in too many
// files to scan within impact analysis's budget.
func (e *Engine) anchoredFiles(ctx context.Context, r *Resolved, maxFiles int) (map[int64]int, bool) {
	name := r.row.Name
	if len(name) < 3 {
		return nil, false // no trigram to narrow the files: a full scan
	}
	// The trigram index alone (no content read) bounds the candidates; the
	// facts' name table verifies them.
	hits, err := e.db().TrigramCandidates(ctx, name)
	if err != nil || len(hits) > maxFiles {
		return nil, false
	}
	member := isMemberKind(lang.DefKind(r.row.Kind))
	out := map[int64]int{}
	for _, h := range hits {
		if h.Lang == "" || ctx.Err() != nil {
			continue
		}
		nf, err := e.nameFileOf(ctx, h.FileID, name)
		if err != nil || nf == nil {
			continue
		}
		for ri, ref := range nf.facts.Refs {
			if int(ref.Name) != nf.nameID || ref.BindLocal >= 0 || ref.BindDef >= 0 || (member && ref.Shape == lang.QualNone) {
				continue
			}
			// x.Name on a local value cannot be a package-level definition.
			if !member && ref.Shape != lang.QualNone && ref.QualBound {
				continue
			}
			if _, linked := nf.links[ri]; linked {
				continue
			}
			out[nf.file.ID]++
		}
	}
	return out, true
}
