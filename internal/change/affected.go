package change

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// AffectedParams bounds affected_tests.
type AffectedParams struct {
	Files    []string // changed repo paths
	Deleted  []string // changed paths that no longer exist (their importers no longer resolve)
	MaxDepth int      // import hops walked back from a changed file (default 3)
	Limit    int      // tests listed
	Offset   int
	// MaxVisited bounds the files the walk may reach.
	MaxVisited int
}

// TestMatch is a test file a change reaches.
type TestMatch struct {
	Path       string `json:"path"`
	Language   string `json:"language"`
	Convention string `json:"convention"` // the naming convention that marks it as a test
	// Confidence: high when the test imports a changed file or package
	// directly, shares its package, or changed itself; low when it is reached
	// only through other files.
	Confidence string   `json:"confidence"`
	Reason     string   `json:"reason"` // changed, same_package, imports_changed, transitive
	Depth      int      `json:"depth"`  // import hops from the nearest changed file
	Via        []string `json:"via,omitempty"`
	Changed    []string `json:"changed_files"` // the changed files that reach it (a few)
}

// ChangedFile is one input of affected_tests.
type ChangedFile struct {
	Path     string `json:"path"`
	Language string `json:"language,omitempty"`
	Module   string `json:"module,omitempty"`
	Status   string `json:"status"` // indexed, test, deleted, not_code, not_indexed
	Tests    int    `json:"tests_reached"`
}

// AffectedResult is affected_tests' payload.
type AffectedResult struct {
	Changed []ChangedFile `json:"changed_files"`
	Modules []string      `json:"changed_modules"`
	Tests   []TestMatch   `json:"tests"`
	Total   int           `json:"tests_total"`
	High    int           `json:"high"`
	Low     int           `json:"low"`
	// Confidence is complete when every changed file was resolved in the
	// import graph and nothing in scope was left unresolved; partial says why
	// not in Reasons.
	Confidence      string   `json:"confidence"`
	Reasons         []string `json:"reasons,omitempty"`
	UnresolvedFiles []string `json:"unresolved_files,omitempty"`
	// CoverageGaps are changed source files that no test reaches.
	CoverageGaps []string `json:"coverage_gaps"`
	GapsTotal    int      `json:"coverage_gaps_total"`
	More         bool     `json:"-"`
	NextOffset   int      `json:"-"`
}

const (
	defaultAffectedDepth = 3
	maxAffectedVisited   = 50000
	maxGapsListed        = 20
	maxChangedPerTest    = 5
)

type reach struct {
	depth   int
	from    int // the file it was reached from (-1 at a changed file)
	reason  string
	changed map[int]bool
}

// AffectedTests finds the test files that changed files reach through the
// reverse import graph (and the same package, for Go and JVM/.NET packages).
func AffectedTests(ctx context.Context, e *query.Engine, c *Cache, p AffectedParams) (*AffectedResult, error) {
	a := &analysis{Engine: e, cache: c}
	g, err := a.depGraph(ctx)
	if err != nil {
		return nil, err
	}
	if p.MaxDepth <= 0 {
		p.MaxDepth = defaultAffectedDepth
	}
	if p.MaxVisited <= 0 {
		p.MaxVisited = maxAffectedVisited
	}
	res := &AffectedResult{Changed: []ChangedFile{}, Modules: []string{}, Tests: []TestMatch{}, CoverageGaps: []string{}, Confidence: "complete"}
	in := a.placeChanged(g, p, res)
	seen := seedChanged(g, in.starts)
	bounded := walkImporters(ctx, g, seen, in.starts, p, res)
	tests, reached := testMatches(g, seen)
	countTests(g, res, tests)
	coverageGaps(g, res, in.starts, reached)
	judgeConfidence(g, res, in, bounded)
	res.Tests, res.More, res.NextOffset = pageOf(res.Tests, tests, p.Offset, p.Limit)
	return res, nil
}

// changedFiles are the changed files as the import graph knows them.
type changedFiles struct {
	starts             []int           // the files the walk starts from
	mods               map[string]bool // the modules they belong to
	notCode, unindexed []string        // changed files the graph cannot follow
}

// placeChanged finds every changed file in the import graph: the walk
// starts from those it holds (a deleted Go file from a sibling of its
// package), the others lower the confidence.
func (a *analysis) placeChanged(g *depGraph, p AffectedParams, res *AffectedResult) changedFiles {
	in := changedFiles{mods: map[string]bool{}}
	deleted := map[string]bool{}
	for _, d := range p.Deleted {
		deleted[d] = true
	}
	for _, path := range sortedUnique(append(append([]string{}, p.Files...), p.Deleted...)) {
		cf := ChangedFile{Path: path}
		i, ok := g.byPath[path]
		switch {
		case ok && !isCode(g.files[i].Lang):
			cf.Status = "not_code"
			if fileCategory(path, "") != "docs" {
				in.notCode = append(in.notCode, path)
			}
		case ok:
			cf.Language, cf.Module = g.files[i].Lang, g.module(i)
			cf.Status = "indexed"
			if g.tests[i] != "" {
				cf.Status = "test"
			}
			in.mods[cf.Module] = true
			in.starts = append(in.starts, i)
		case deleted[path] || !exists(a.Index().Paths().Root, path):
			cf.Status = "deleted"
			// A deleted file of a directory package (Go's) leaves its package
			// behind: start from a sibling.
			if l, sib := lang.ForPath(path), g.dirFiles[lang.DirOf(path)]; l != nil && l.Packages == lang.PackageDirectory && len(sib) > 0 {
				in.starts = append(in.starts, sib[0])
				cf.Language, cf.Module = l.Name, g.module(sib[0])
				in.mods[cf.Module] = true
			} else {
				in.unindexed = append(in.unindexed, path)
			}
		default:
			cf.Status = "not_indexed"
			in.unindexed = append(in.unindexed, path)
		}
		res.Changed = append(res.Changed, cf)
	}
	for m := range in.mods {
		res.Modules = append(res.Modules, m)
	}
	sort.Strings(res.Modules)
	return in
}

// seedChanged marks the changed files, and the test files that see them
// without an import: the same package's tests and, for Rust, the crate's
// integration tests (tests/ use the crate as a whole).
func seedChanged(g *depGraph, starts []int) map[int]*reach {
	seen := map[int]*reach{}
	for _, s := range starts {
		if r, ok := seen[s]; ok {
			r.changed[s] = true
			continue
		}
		seen[s] = &reach{depth: 0, from: -1, reason: "changed", changed: map[int]bool{s: true}}
	}
	for _, s := range starts {
		for _, j := range g.samePackage(s) {
			if _, isTest := g.tests[j]; !isTest {
				continue // other sources of the package are not on the path to a test
			}
			if r, ok := seen[j]; ok {
				if r.depth == 1 && r.reason == "same_package" {
					r.changed[s] = true
				}
				continue
			}
			seen[j] = &reach{depth: 1, from: s, reason: "same_package", changed: map[int]bool{s: true}}
		}
		if lang.Of(g.files[s].Lang).ModuleTests {
			for _, j := range g.moduleTests(s) {
				if _, ok := seen[j]; !ok {
					seen[j] = &reach{depth: 2, from: s, reason: "crate_integration_test", changed: map[int]bool{s: true}}
				}
			}
		}
	}
	return seen
}

// walkImporters walks breadth first from every changed file at once, up to
// p.MaxDepth hops: each file keeps its nearest changed file(s) and the hop
// that reached it; tests end a path. bounded reports a walk stopped before
// it reached every importer (the reasons are in res).
func walkImporters(ctx context.Context, g *depGraph, seen map[int]*reach, starts []int, p AffectedParams, res *AffectedResult) (bounded bool) {
	var frontier []int
	at := map[int]bool{}
	for _, s := range starts {
		if !at[s] {
			at[s] = true
			frontier = append(frontier, s)
		}
	}
	for depth := 1; depth <= p.MaxDepth && len(frontier) > 0; depth++ {
		if ctx.Err() != nil {
			res.Reasons = append(res.Reasons, "the deadline stopped the walk")
			return true
		}
		var next []int
		for _, i := range frontier {
			for _, j := range g.dependents(i) {
				if r, ok := seen[j]; ok {
					if r.depth == depth {
						addChanged(r, seen[i])
					}
					continue
				}
				reason := "imports_changed"
				if depth > 1 {
					reason = "transitive"
				}
				r := &reach{depth: depth, from: i, reason: reason, changed: map[int]bool{}}
				addChanged(r, seen[i])
				seen[j] = r
				if _, isTest := g.tests[j]; !isTest {
					next = append(next, j)
				}
			}
		}
		if len(seen) > p.MaxVisited {
			res.Reasons = append(res.Reasons, fmt.Sprintf("the walk stopped after reaching %d files", len(seen)))
			return true
		}
		frontier = next
		if depth == p.MaxDepth && len(frontier) > 0 {
			// Stop here, but say so only when the next hop would reach more.
			for _, i := range frontier {
				if len(g.importers(i)) > 0 {
					res.Reasons = append(res.Reasons, fmt.Sprintf("importers more than %d hops away were not followed (max_depth)", p.MaxDepth))
					return true
				}
			}
		}
	}
	return false
}

// addChanged adds the changed files that reach from to r (a few at most).
func addChanged(r, from *reach) {
	for c := range from.changed {
		if len(r.changed) < maxChangedPerTest {
			r.changed[c] = true
		}
	}
}

// testMatches lists the test files the walk reached, sorted, and which
// changed files some test reaches.
func testMatches(g *depGraph, seen map[int]*reach) (tests []TestMatch, reached map[int]bool) {
	reached = map[int]bool{}
	for i, r := range seen {
		kind, isTest := g.tests[i]
		if !isTest {
			continue
		}
		f := g.files[i]
		m := TestMatch{Path: f.Path, Language: f.Lang, Convention: kind, Reason: r.reason, Depth: r.depth, Changed: []string{}}
		m.Confidence = "low"
		if r.depth <= 1 {
			m.Confidence = "high"
		}
		for c := range r.changed {
			reached[c] = true
			m.Changed = append(m.Changed, g.files[c].Path)
		}
		sort.Strings(m.Changed)
		// The chain back to a changed file (without the test itself).
		for at := r.from; at >= 0 && len(m.Via) < 6; at = seen[at].from {
			if seen[at].from < 0 {
				break
			}
			m.Via = append(m.Via, g.files[at].Path)
		}
		tests = append(tests, m)
	}
	sortTests(tests)
	return tests, reached
}

// countTests counts the tests by confidence and, per changed file, the
// tests reaching it.
func countTests(g *depGraph, res *AffectedResult, tests []TestMatch) {
	for _, t := range tests {
		if t.Confidence == "high" {
			res.High++
		} else {
			res.Low++
		}
	}
	res.Total = len(tests)
	for k := range res.Changed {
		cf := &res.Changed[k]
		if i, ok := g.byPath[cf.Path]; ok {
			for _, t := range tests {
				for _, c := range t.Changed {
					if c == g.files[i].Path {
						cf.Tests++
						break
					}
				}
			}
		}
	}
}

// coverageGaps lists the changed source files no test reaches.
func coverageGaps(g *depGraph, res *AffectedResult, starts []int, reached map[int]bool) {
	var gaps []string
	for _, s := range starts {
		if _, isTest := g.tests[s]; isTest || reached[s] {
			continue
		}
		gaps = append(gaps, g.files[s].Path)
	}
	gaps = sortedUnique(gaps)
	res.GapsTotal = len(gaps)
	if len(gaps) > maxGapsListed {
		gaps = gaps[:maxGapsListed]
	}
	res.CoverageGaps = gaps
}

// judgeConfidence says partial, and why, when something in scope could
// hide a test.
func judgeConfidence(g *depGraph, res *AffectedResult, in changedFiles, bounded bool) {
	if len(in.notCode) > 0 {
		res.Reasons = append(res.Reasons, fmt.Sprintf("%d changed files are not code (configuration, data): tests that read them are not found through imports", len(in.notCode)))
	}
	if len(in.unindexed) > 0 {
		res.Reasons = append(res.Reasons, fmt.Sprintf("%d changed files are not in the import graph (deleted or not indexed): files that imported them no longer resolve", len(in.unindexed)))
	}
	res.UnresolvedFiles = sortedUnique(append(append([]string{}, in.notCode...), in.unindexed...))
	unresolvedTests := 0
	for i := range g.tests {
		if g.unresolved[i] > 0 && in.mods[g.module(i)] {
			unresolvedTests++
		}
	}
	if unresolvedTests > 0 {
		res.Reasons = append(res.Reasons, fmt.Sprintf("%d test files in the changed modules have local imports that did not resolve; they may reach the changed files", unresolvedTests))
	}
	if len(res.Reasons) > 0 || bounded {
		res.Confidence = "partial"
	}
}

// pageOf appends the page of items from offset (at most limit, 0: all) to
// dst; more says items are left after it, next is the offset that follows.
func pageOf[T any](dst, items []T, offset, limit int) (out []T, more bool, next int) {
	if limit <= 0 {
		limit = len(items)
	}
	page, more := query.Page(items, offset, limit)
	return append(dst, page...), more, offset + len(page)
}

func exists(root, p string) bool {
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
	return err == nil
}

// sortedUnique sorts in and drops its repeats, in place.
func sortedUnique(in []string) []string {
	slices.Sort(in)
	return slices.Compact(in)
}

// isCode reports whether a language has a grammar (data files' outlines do
// not import anything).
func isCode(language string) bool { return lang.Of(language).Grammar != nil }

// sortTests orders test matches: high confidence first, then fewer hops,
// then path.
func sortTests(tests []TestMatch) {
	sort.Slice(tests, func(a, b int) bool {
		x, y := tests[a], tests[b]
		if x.Confidence != y.Confidence {
			return x.Confidence == "high"
		}
		if x.Depth != y.Depth {
			return x.Depth < y.Depth
		}
		return x.Path < y.Path
	})
}
