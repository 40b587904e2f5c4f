package change

import (
	"context"
	"maps"
	"slices"
	"sort"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
)

// updateDepGraph makes the graph of the request's version from the graph
// of an earlier one, given the files written since (index.ChangedFiles):
// it counts again the imports and references of those files, and of every
// file referencing a symbol that appeared, vanished or moved with them,
// and keeps the rest. It reports false when only a new build can say (a
// file changed its path, language, package or module, or is of a language
// whose inline test modules are found by a text search over every file). The
// old graph is left as it is.
func (a *analysis) updateDepGraph(ctx context.Context, old *depGraph, changed []int64) (*depGraph, bool, error) {
	rows, err := a.Store().FilesByIDs(ctx, changed)
	if err != nil {
		return nil, false, err
	}
	if len(rows) != len(changed) {
		return nil, false, nil // a file is gone: the positions of the others moved
	}
	g := old.clone()
	for _, r := range rows {
		i, ok := g.byID[r.ID]
		if !ok {
			return nil, false, nil
		}
		was := g.files[i]
		if r.Path != was.Path || r.Lang != was.Lang || r.Pkg != was.Pkg || r.ModuleID != was.ModuleID || lang.Of(r.Lang).InlineTests != "" {
			return nil, false, nil
		}
		g.files[i] = r
	}
	ri, err := a.refIndex(ctx)
	if err != nil {
		return nil, false, err
	}
	redo, err := g.updateSymbols(ctx, a, changed, ri)
	if err != nil {
		return nil, false, err
	}
	for _, i := range redo {
		g.removeFile(i)
	}
	for _, i := range redo {
		data, err := a.Store().Imports(ctx, g.files[i].ID)
		if err != nil {
			return nil, false, err
		}
		if data != nil {
			if edges, err := index.DecodeImports(data); err == nil {
				g.addFileImports(i, edges)
			}
		}
		g.addReferences(i, ri)
	}
	g.sortKeysOf(redo)
	return g, true, nil
}

// clone copies what an update changes: the file rows, the maps by key and
// by file (their lists are shared until replaced), the symbols' files.
// What only depends on the paths is shared, and the Python submodules are
// found again on use.
func (g *depGraph) clone() *depGraph {
	return &depGraph{files: slices.Clone(g.files), mods: g.mods, byPath: g.byPath, byID: g.byID,
		rev: maps.Clone(g.rev), imp: maps.Clone(g.imp), imports: maps.Clone(g.imports), unresolved: maps.Clone(g.unresolved),
		tests: g.tests, dirFiles: g.dirFiles, pkgFiles: g.pkgFiles,
		symFile: maps.Clone(g.symFile), revKeys: maps.Clone(g.revKeys), impKeys: maps.Clone(g.impKeys)}
}

// updateSymbols replaces the symbols of the changed files in symFile and
// returns the files to count again, by position: the changed files and
// every file referencing a symbol whose file changed (one it references
// may have appeared or vanished without the file being relinked).
func (g *depGraph) updateSymbols(ctx context.Context, a *analysis, changed []int64, ri *refIndex) ([]int, error) {
	isChanged := make(map[int64]bool, len(changed))
	for _, f := range changed {
		isChanged[f] = true
	}
	before := map[int64]int64{}
	for s, f := range g.symFile {
		if isChanged[f] {
			before[s] = f
			delete(g.symFile, s)
		}
	}
	after := map[int64]int64{}
	for _, f := range changed {
		syms, err := a.Store().SymbolsOfFile(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, s := range syms {
			after[s.ID] = f
			g.symFile[s.ID] = f
		}
	}
	redo := map[int]bool{}
	for _, f := range changed {
		redo[g.byID[f]] = true
	}
	moved := func(s int64) {
		for _, fr := range ri.by[s] {
			if i, ok := g.byID[fr.file]; ok {
				redo[i] = true
			}
		}
	}
	for s, f := range before {
		if after[s] != f {
			moved(s)
		}
	}
	for s, f := range after {
		if before[s] != f {
			moved(s)
		}
	}
	return slices.Sorted(maps.Keys(redo)), nil
}

// removeFile takes file i's imports and references out of the graph.
func (g *depGraph) removeFile(i int) {
	for _, k := range g.revKeys[i] {
		g.rev[k] = slices.DeleteFunc(slices.Clone(g.rev[k]), func(j int) bool { return j == i })
		if len(g.rev[k]) == 0 {
			delete(g.rev, k)
		}
	}
	for _, k := range g.impKeys[i] {
		g.imp[k] = slices.DeleteFunc(slices.Clone(g.imp[k]), func(e importEdge) bool { return e.file == i })
		if len(g.imp[k]) == 0 {
			delete(g.imp, k)
		}
	}
	delete(g.revKeys, i)
	delete(g.impKeys, i)
	delete(g.imports, i)
	delete(g.unresolved, i)
}

// sortKeysOf sorts again the lists the files at positions redo were added
// to, each into a copy: an older graph may share the list.
func (g *depGraph) sortKeysOf(redo []int) {
	revKeys, impKeys := map[string]bool{}, map[string]bool{}
	for _, i := range redo {
		for _, k := range g.revKeys[i] {
			revKeys[k] = true
		}
		for _, k := range g.impKeys[i] {
			impKeys[k] = true
		}
	}
	for k := range revKeys {
		list := slices.Clone(g.rev[k])
		sort.Ints(list)
		g.rev[k] = list
	}
	for k := range impKeys {
		list := slices.Clone(g.imp[k])
		sortImportEdges(list)
		g.imp[k] = list
	}
}
