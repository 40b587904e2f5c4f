package change

import (
	"cmp"
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// depGraph is the reverse import graph of the worktree with the test files
// marked: what affected_tests, impact_analyze and semantic_diff's blast radius
// walk. Built from the classified import edges of every file and cached per
// epoch (the index changes only between epochs).
type depGraph struct {
	files []store.FileRow
	mods  map[int64]store.ModuleRow
	// byPath and byID find a file's position in files.
	byPath map[string]int
	byID   map[int64]int
	// rev maps an import target (a file path, or a Go package directory) to
	// the files depending on it: importing it, or referencing one of its
	// definitions (addReferences).
	rev map[string][]int
	// imp maps the same targets to the import statements naming them, and
	// nothing else: what importers lists.
	imp map[string][]importEdge
	// subs are the Python from-imports that name a submodule, found on
	// first use (pysub.go).
	subs submodules
	// imports counts each file's in-repository import edges; unresolved
	// counts its imports that look local but did not resolve.
	imports    map[int]int
	unresolved map[int]int
	// tests marks test files with the convention that matched.
	tests map[int]string
	// dirFiles and pkgFiles group files for same-package tests (Go
	// directories; Java, Kotlin and C# packages within a module).
	dirFiles map[string][]int
	pkgFiles map[string][]int
	// symFile maps every symbol to the file defining it (its id), and
	// revKeys and impKeys list, per file, the keys of rev and imp it was
	// added under: what an update takes out before adding a file again.
	symFile map[int64]int64
	revKeys map[int][]string
	impKeys map[int][]string
}

// depGraph returns the graph of the request's epoch, building it when needed.
// A request reading through an overlay gets a graph built for it alone: the
// cache holds the graphs of the index's versions, never an overlay's.
func (a *analysis) depGraph(ctx context.Context) (*depGraph, error) {
	if a.Overlay() != nil {
		return a.buildDepGraph(ctx)
	}
	return a.cache.depGraph(a.Version(), func() (*depGraph, error) { return a.buildDepGraph(ctx) },
		func(old *depGraph, from index.Version) (*depGraph, bool, error) {
			files, ok := a.Index().ChangedFiles(from, a.Version())
			if !ok {
				return nil, false, nil
			}
			return a.updateDepGraph(ctx, old, files)
		})
}

func (a *analysis) buildDepGraph(ctx context.Context) (*depGraph, error) {
	files, mods, err := a.FilesAndModules(ctx)
	if err != nil {
		return nil, err
	}
	g := newDepGraph(files, mods)
	g.markInlineTests(ctx, a.Engine)
	if err := g.addImports(ctx, a.Engine); err != nil {
		return nil, err
	}
	ri, err := a.refIndex(ctx)
	if err != nil {
		return nil, err
	}
	if g.symFile, err = a.SymbolFiles(ctx); err != nil {
		return nil, err
	}
	for j := range g.files {
		g.addReferences(j, ri)
	}
	for _, list := range g.rev {
		sort.Ints(list)
	}
	for _, list := range g.imp {
		sortImportEdges(list)
	}
	return g, nil
}

func sortImportEdges(list []importEdge) {
	sort.Slice(list, func(x, y int) bool {
		a, b := list[x], list[y]
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.source, b.source), cmp.Compare(a.name, b.name)) < 0
	})
}

// newDepGraph indexes the files: by path and id, test files by their
// names, Go files by directory and JVM/.NET files by package.
func newDepGraph(files []store.FileRow, mods []store.ModuleRow) *depGraph {
	g := &depGraph{files: files, mods: map[int64]store.ModuleRow{}, byPath: make(map[string]int, len(files)),
		byID: make(map[int64]int, len(files)), rev: map[string][]int{}, imp: map[string][]importEdge{}, imports: map[int]int{},
		unresolved: map[int]int{}, revKeys: map[int][]string{}, impKeys: map[int][]string{},
		tests: map[int]string{}, dirFiles: map[string][]int{}, pkgFiles: map[string][]int{}}
	for _, m := range mods {
		g.mods[m.ID] = m
	}
	for i, f := range files {
		g.byPath[f.Path] = i
		g.byID[f.ID] = i
		if k := query.TestFileKind(f.Path, f.Lang); k != "" {
			g.tests[i] = k
		}
		switch lang.Of(f.Lang).Packages {
		case lang.PackageDirectory:
			g.dirFiles[lang.DirOf(f.Path)] = append(g.dirFiles[lang.DirOf(f.Path)], i)
		case lang.PackageDeclared:
			if f.Pkg != "" {
				k := pkgKey(f)
				g.pkgFiles[k] = append(g.pkgFiles[k], i)
			}
		}
	}
	return g
}

// inlineTest begins the test kind of a file marked by its language's
// InlineTests text rather than by its path.
const inlineTest = "inline "

// markInlineTests marks the files that keep unit tests inside the code
// they test (a language's InlineTests text, Rust's #[cfg(test)] module).
func (g *depGraph) markInlineTests(ctx context.Context, e *query.Engine) {
	for _, l := range lang.All() {
		if l.InlineTests != "" {
			g.markInline(ctx, e, l)
		}
	}
}

func (g *depGraph) markInline(ctx context.Context, e *query.Engine, l *lang.Language) {
	if ov := e.Overlay(); ov != nil && slices.ContainsFunc(ov.Paths(), func(p string) bool { return lang.ForPath(p) == l }) {
		ov.Note("%s test modules are found in the baseline index's text", l.InlineTests)
	}
	hits, err := e.Store().TextCandidates(ctx, store.GlobLiteral(l.InlineTests), true, 1<<20)
	if err != nil {
		return
	}
	for _, h := range hits {
		if i, ok := g.byID[h.FileID]; ok && g.files[i].Lang == l.Name {
			if _, marked := g.tests[i]; !marked {
				g.tests[i] = inlineTest + l.InlineTests + " module"
			}
		}
	}
}

// addImports adds every file's resolved in-repository imports, and counts
// the ones that look local but did not resolve.
func (g *depGraph) addImports(ctx context.Context, e *query.Engine) error {
	known := func(id int64) bool { _, ok := g.byID[id]; return ok }
	return e.Imports(ctx, known, func(fileID int64, edges []index.ImportEdge) {
		g.addFileImports(g.byID[fileID], edges)
	})
}

// addFileImports adds the import edges of file i.
func (g *depGraph) addFileImports(i int, edges []index.ImportEdge) {
	files := g.files
	seen := map[string]bool{}
	for _, ed := range edges {
		switch ed.Class {
		case index.EdgeLocalFile, index.EdgeLocalModule, index.EdgeWorkspacePackage:
			// An empty target is the root directory (a Go package at the
			// repository root).
			g.addImport(i, ed.TargetPath, ed.Source, !seen[ed.TargetPath])
			seen[ed.TargetPath] = true
		case index.EdgeUnknown:
			if looksLocal(files[i], ed.Source, g.mods[files[i].ModuleID]) {
				g.unresolved[i]++
			}
		}
	}
	// An import of a whole namespace (C#'s using): the file depends on
	// every file declaring it.
	if f := files[i]; lang.Of(f.Lang).NamespaceImports {
		for _, ed := range edges {
			for _, j := range g.pkgFiles[pkgKey(store.FileRow{Lang: f.Lang, Pkg: ed.Source})] {
				if j != i && !seen[files[j].Path] {
					seen[files[j].Path] = true
					g.addImport(i, files[j].Path, ed.Source, true)
				}
			}
		}
	}
}

// importEdge is one import statement naming a target.
type importEdge struct {
	file   int    // the importing file
	source string // the module specifier as written
	name   string // the submodule a Python from-import names (from a import b), else ""
}

// addImport records that file i imports target with the specifier source;
// first is false for a further specifier of a target it imports already
// (one dependency, several statements).
func (g *depGraph) addImport(i int, target, source string, first bool) {
	if first {
		g.imports[i]++
		g.rev[target] = append(g.rev[target], i)
		g.revKeys[i] = append(g.revKeys[i], target)
	}
	g.imp[target] = append(g.imp[target], importEdge{file: i, source: source})
	if first {
		g.impKeys[i] = append(g.impKeys[i], target)
	}
}

// addReferences makes file j depend on every other file defining a symbol
// it references, whether or not its import resolved (JVM named imports, Rust
// crate paths, C# namespaces resolve to references, not always to files).
func (g *depGraph) addReferences(j int, ri *refIndex) {
	seen := map[int]bool{j: true}
	for _, target := range ri.fwd[g.files[j].ID] {
		d, ok := g.byID[g.symFile[target]]
		if !ok || seen[d] {
			continue
		}
		seen[d] = true
		k := g.files[d].Path
		g.rev[k] = append(g.rev[k], j)
		g.revKeys[j] = append(g.revKeys[j], k)
	}
}

// pkgKey names the declared package of a file within its language's
// package space.
func pkgKey(f store.FileRow) string { return spaceKey(packageSpace(f.Lang), f.Pkg) }

// spaceKey is the key of package pkg in a package space.
func spaceKey(space, pkg string) string { return space + "\x00" + pkg }

// packageSpace names the package namespace a language's files declare
// their packages in: its own name, unless it shares another's (Kotlin's is
// java's).
func packageSpace(language string) string {
	return cmp.Or(lang.Of(language).PackageSpace, language)
}

// looksLocal reports whether an import that did not resolve names something
// inside the repository: a relative path, or, in a language that imports
// directory packages by their module's path (Go), the module's own path.
func looksLocal(f store.FileRow, source string, m store.ModuleRow) bool {
	if strings.HasPrefix(source, ".") || strings.HasPrefix(source, "/") {
		return true
	}
	if l := lang.Of(f.Lang); l.Packages == lang.PackageDirectory && m.Kind == l.Ecosystem && m.Name != "" {
		return source == m.Name || strings.HasPrefix(source, m.Name+"/")
	}
	return false
}

// targets are the keys other files import a file by: its path and, for a
// language whose packages are directories (Go), its package's directory.
func (g *depGraph) targets(i int) []string {
	f := g.files[i]
	if lang.Of(f.Lang).Packages != lang.PackageDirectory {
		return []string{f.Path}
	}
	return []string{f.Path, lang.DirOf(f.Path)}
}

// importers lists the files importing file i (deduplicated, in file order).
func (g *depGraph) importers(i int) []int {
	var out []int
	seen := map[int]bool{i: true}
	for _, k := range g.targets(i) {
		for _, j := range g.rev[k] {
			if !seen[j] {
				seen[j] = true
				out = append(out, j)
			}
		}
	}
	return out
}

// samePackage lists the files that see file i's definitions without importing
// it: the other files of its package directory (Go, test files included) or
// of its declared package (JVM, .NET).
func (g *depGraph) samePackage(i int) []int {
	f := g.files[i]
	scope := lang.Of(f.Lang).Packages
	var group []int
	switch scope {
	case lang.PackageDirectory:
		group = g.dirFiles[lang.DirOf(f.Path)]
	case lang.PackageDeclared:
		if f.Pkg != "" {
			group = g.pkgFiles[pkgKey(f)]
		}
	}
	out := make([]int, 0, len(group))
	for _, j := range group {
		// A Go external test package (package x_test) shares the directory
		// but imports the package like any other client.
		if j != i && (scope != lang.PackageDirectory || g.files[j].Pkg == f.Pkg) {
			out = append(out, j)
		}
	}
	return out
}

// module names the module of file i.
func (g *depGraph) module(i int) string {
	if m, ok := g.mods[g.files[i].ModuleID]; ok {
		return m.Name
	}
	return ""
}

// dependents are the files that see file i's definitions: its importers and,
// for declared packages (JVM, .NET), the other files of its package.
func (g *depGraph) dependents(i int) []int {
	out := g.importers(i)
	switch lang.Of(g.files[i].Lang).Packages {
	case lang.PackageDeclared:
		seen := map[int]bool{}
		for _, j := range out {
			seen[j] = true
		}
		for _, j := range g.samePackage(i) {
			if !seen[j] {
				out = append(out, j)
			}
		}
	}
	return out
}

// moduleTests lists the test files of file i's module that exercise all of
// it (ModuleTests: a Rust crate's integration tests).
func (g *depGraph) moduleTests(i int) []int {
	var out []int
	mod := g.files[i].ModuleID
	for j, kind := range g.tests {
		if g.files[j].ModuleID == mod && lang.Of(g.files[j].Lang).ModuleTests && !strings.HasPrefix(kind, inlineTest) {
			out = append(out, j)
		}
	}
	sort.Ints(out)
	return out
}
