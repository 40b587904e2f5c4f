package change

import (
	"cmp"
	"context"
	"slices"
	"sort"

	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// ImportersParams shapes an importers question.
type ImportersParams struct {
	Target string // a file, directory, Go import path, Python module, JVM package or .NET namespace
	// Recursive takes a directory for every file below it, not only its own.
	Recursive bool
	// Depth lists importing packages up to this many import hops (default 1:
	// the direct ones); the counts always cover every hop.
	Depth  int
	Limit  int // importing files listed (default 100)
	Offset int
}

// Importer is a file importing the target directly.
type Importer struct {
	Path string `json:"path"`
	Line int    `json:"line,omitempty"` // the import statement (1-based)
	// Import is the statement as written, when it differs from the target's
	// import_path (a relative specifier, an alias, a Python from-import).
	Import string `json:"import,omitempty"`
	Test   bool   `json:"test,omitempty"`
}

// ImporterPackage is a package (directory) importing the target, directly
// (depth 1) or through the packages of the level before it.
type ImporterPackage struct {
	Dir   string `json:"dir"` // "." for the root
	Depth int    `json:"depth"`
	Files int    `json:"files"` // its files importing the target, or a package of the level before
	// TestOnly: only its tests depend on the target.
	TestOnly bool `json:"test_only,omitempty"`
	// Via is a package of the level before that it imports (depth > 1).
	Via string `json:"via,omitempty"`
}

// ImporterCounts counts the dependents of one reach.
type ImporterCounts struct {
	Files            int `json:"files"`
	TestFiles        int `json:"test_files"`
	Packages         int `json:"packages"`
	TestOnlyPackages int `json:"test_only_packages"`
	Depth            int `json:"depth,omitempty"` // import hops to the farthest (transitive)
}

// ImportersResult is the importers payload.
type ImportersResult struct {
	Target Unit `json:"target"`
	// Importers are the files importing the target directly: non-test files
	// first, then by path.
	Importers []Importer `json:"importers"`
	// Packages are the importing packages to the depth asked: by depth,
	// non-test ones first, then by directory. The target's own directory is
	// not one (a Go package's external tests there are among the files).
	Packages []ImporterPackage `json:"packages"`
	Direct   ImporterCounts    `json:"direct"`
	// Transitive counts every file and package that depends on the target
	// through imports, at any depth (the direct ones included).
	Transitive ImporterCounts `json:"transitive"`
	More       bool           `json:"-"`
	NextOffset int            `json:"-"`
	// BytesCovered is the size of the importing files (what reading them costs).
	BytesCovered int64 `json:"-"`
}

// importReach is how a file depends on the target through imports.
type importReach struct {
	depth int
	prod  bool // reached through non-test files only
	from  int  // a file of the level before that it imports (-1 at depth 1)
}

// Importers answers who imports a file, package or module: the files
// importing it directly (with their import statements), and the packages
// depending on it, direct and transitive, with the ones only tests need.
func Importers(ctx context.Context, e *query.Engine, c *Cache, p ImportersParams) (*ImportersResult, error) {
	a := &analysis{Engine: e, cache: c}
	g, u, err := a.unitOf(ctx, p.Target, p.Recursive)
	if err != nil {
		return nil, err
	}
	if p.Depth <= 0 {
		p.Depth = 1
	}
	if p.Limit <= 0 {
		p.Limit = 100
	}
	direct, err := a.importEdgesInto(ctx, g, u.members)
	if err != nil {
		return nil, err
	}
	reach, err := a.reachOf(ctx, g, u, direct)
	if err != nil {
		return nil, err
	}
	res := &ImportersResult{Target: *u, Importers: []Importer{}, Packages: []ImporterPackage{}}
	all := make([]Importer, 0, len(direct))
	for _, ed := range direct {
		_, test := g.tests[ed.file]
		all = append(all, Importer{Path: g.files[ed.file].Path, Import: ed.source, Test: test})
		res.BytesCovered += g.files[ed.file].Size
	}
	sort.Slice(all, func(x, y int) bool {
		return cmp.Or(graph.CompareBool(all[x].Test, all[y].Test), cmp.Compare(all[x].Path, all[y].Path)) < 0
	})
	res.Importers, res.More, res.NextOffset = pageOf(res.Importers, all, p.Offset, p.Limit)
	if err := a.importLines(ctx, g, u, res.Importers, direct); err != nil {
		return nil, err
	}
	pkgs := g.importerPackages(u, reach)
	for _, pk := range pkgs {
		if pk.Depth <= p.Depth {
			res.Packages = append(res.Packages, pk)
		}
	}
	res.Direct, res.Transitive = g.countReach(reach, pkgs, 1), g.countReach(reach, pkgs, 0)
	return res, nil
}

// importEdgesInto lists the import statements naming any of the files (or
// the Go package of one, or through its package a Python module) made by
// files outside them: one per importing file (its least by source, then
// name), in file order.
func (a *analysis) importEdgesInto(ctx context.Context, g *depGraph, members []int) ([]importEdge, error) {
	in := map[int]bool{}
	keys := map[string]bool{}
	var out []importEdge
	for _, i := range members {
		in[i] = true
		for _, k := range g.targets(i) {
			keys[k] = true
		}
		if f := g.files[i]; lang.Of(f.Lang).Modules != nil {
			subs, err := a.submoduleImports(ctx, g, i)
			if err != nil {
				return nil, err
			}
			out = append(out, subs...)
		}
	}
	for k := range keys {
		out = append(out, g.imp[k]...)
	}
	out = slices.DeleteFunc(out, func(ed importEdge) bool { return in[ed.file] })
	sort.Slice(out, func(x, y int) bool {
		a, b := out[x], out[y]
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.source, b.source), cmp.Compare(a.name, b.name)) < 0
	})
	return slices.CompactFunc(out, func(a, b importEdge) bool { return a.file == b.file }), nil
}

// reachOf walks the import graph back from the target: every file that
// imports it, or imports a file that does, with its depth and whether a
// chain of non-test files leads to it.
func (a *analysis) reachOf(ctx context.Context, g *depGraph, u *Unit, direct []importEdge) (map[int]importReach, error) {
	member := u.isMember()
	reach := map[int]importReach{}
	var frontier []int
	for _, ed := range direct {
		_, test := g.tests[ed.file]
		reach[ed.file] = importReach{depth: 1, prod: !test, from: -1}
		frontier = append(frontier, ed.file)
	}
	for depth := 2; len(frontier) > 0 && ctx.Err() == nil; depth++ {
		var next []int
		for _, i := range frontier {
			r := reach[i]
			eds, err := a.importEdgesInto(ctx, g, []int{i})
			if err != nil {
				return nil, err
			}
			for _, ed := range eds {
				j := ed.file
				if member(j) {
					continue
				}
				_, test := g.tests[j]
				prod := r.prod && !test
				old, seen := reach[j]
				switch {
				case !seen:
					reach[j] = importReach{depth: depth, prod: prod, from: i}
					next = append(next, j)
				case prod && !old.prod:
					// A non-test chain reaches it too: it depends outside tests
					// (its depth stays the shortest).
					old.prod = true
					reach[j] = old
					next = append(next, j)
				}
			}
		}
		sort.Ints(next)
		frontier = next
	}
	return reach, ctx.Err()
}

// importerPackages groups the reached files by directory: a package's
// depth is its nearest file's, and it is test-only when no non-test chain
// reaches any of its files.
func (g *depGraph) importerPackages(u *Unit, reach map[int]importReach) []ImporterPackage {
	type acc struct {
		pk    ImporterPackage
		prod  bool
		files map[int]bool // files at the package's depth
	}
	by := map[string]*acc{}
	for i, r := range reach {
		d := lang.DirOf(g.files[i].Path)
		if d == u.dir && (u.Kind == TargetPackage || u.Kind == TargetFile && lang.Of(u.Language).Packages == lang.PackageDirectory) {
			continue // the target's own package: its files there are its external tests (Go's x_test)
		}
		a := by[d]
		if a == nil || r.depth < a.pk.Depth {
			prod := a != nil && a.prod
			a = &acc{pk: ImporterPackage{Dir: cmp.Or(d, "."), Depth: r.depth}, prod: prod, files: map[int]bool{}}
			by[d] = a
		}
		a.prod = a.prod || r.prod
		if r.depth == a.pk.Depth {
			a.files[i] = true
		}
	}
	out := make([]ImporterPackage, 0, len(by))
	for _, a := range by {
		a.pk.Files = len(a.files)
		a.pk.TestOnly = !a.prod
		if a.pk.Depth > 1 {
			// the least package of the level before, among its files' sources
			for i := range a.files {
				if from := reach[i].from; from >= 0 {
					via := cmp.Or(lang.DirOf(g.files[from].Path), ".")
					if a.pk.Via == "" || via < a.pk.Via {
						a.pk.Via = via
					}
				}
			}
		}
		out = append(out, a.pk)
	}
	sort.Slice(out, func(x, y int) bool {
		a, b := out[x], out[y]
		return cmp.Or(cmp.Compare(a.Depth, b.Depth), graph.CompareBool(a.TestOnly, b.TestOnly), cmp.Compare(a.Dir, b.Dir)) < 0
	})
	return out
}

// countReach counts the files and packages reached at depth (0: every depth).
func (g *depGraph) countReach(reach map[int]importReach, pkgs []ImporterPackage, depth int) ImporterCounts {
	var n ImporterCounts
	for i, r := range reach {
		if depth > 0 && r.depth != depth {
			continue
		}
		n.Files++
		if _, test := g.tests[i]; test {
			n.TestFiles++
		}
		if depth == 0 && r.depth > n.Depth {
			n.Depth = r.depth
		}
	}
	for _, pk := range pkgs {
		if depth > 0 && pk.Depth != depth {
			continue
		}
		n.Packages++
		if pk.TestOnly {
			n.TestOnlyPackages++
		}
	}
	return n
}

// importLines fills in the line of each listed importer's statement, and
// keeps its text only where it says more than the target's import path.
func (a *analysis) importLines(ctx context.Context, g *depGraph, u *Unit, list []Importer, direct []importEdge) error {
	edge := map[string]importEdge{}
	for _, ed := range direct {
		edge[g.files[ed.file].Path] = ed
	}
	for k := range list {
		im := &list[k]
		ed := edge[im.Path]
		facts, err := a.Facts(ctx, g.files[ed.file].BlobID)
		if err != nil {
			return err
		}
		if facts != nil {
			for _, fi := range facts.Imports {
				// a JVM import's edge names its type: Source.Name
				if fi.Source == ed.source && (ed.name == "" || fi.Name == ed.name) || fi.Source+"."+fi.Name == ed.source {
					im.Line = int(fi.Pos.Line)
					break
				}
			}
		}
		switch {
		case ed.name != "":
			im.Import = "from " + ed.source + " import " + ed.name
		case ed.source == u.ImportPath:
			im.Import = ""
		}
	}
	return ctx.Err()
}
