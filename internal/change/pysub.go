package change

import (
	"context"
	"path"
	"sync"

	"github.com/cairnhq/cairn/internal/lang"
)

// A from-import of a language with dotted modules (lang.DottedModules,
// Python's) names a package and, possibly, its submodules: "from a import b"
// is an edge of the index to a (a/__init__.py), and it imports the module
// a.b too when a/b.py or a/b/__init__.py exists. Which
// names a statement takes is in the importing file's facts, a read each,
// too slow for every Python file of a large repository at every epoch: they
// are read per package on first use, and kept with the graph of the epoch.

// submodules holds the from-imports of submodules found so far.
type submodules struct {
	mu sync.Mutex // guards byPkg; held while a package is read, so each is read once
	// byPkg maps a package's __init__.py to the from-imports of its
	// submodules, by the submodule's file.
	byPkg map[string]map[string][]importEdge
}

// submoduleImports lists the from-imports that name the module of file i
// (of a language with dotted modules) through its package (a/b.py or
// a/b/__init__.py: from a import b).
func (a *analysis) submoduleImports(ctx context.Context, g *depGraph, i int) ([]importEdge, error) {
	p, mods := g.files[i].Path, lang.Of(g.files[i].Lang).Modules
	if mods == nil {
		return nil, nil
	}
	modDir := mods.Base(p)
	if modDir == "" {
		return nil, nil // the root package has no parent
	}
	pkgInit := path.Join(lang.DirOf(modDir), mods.Package)
	if _, ok := g.byPath[pkgInit]; !ok {
		return nil, nil
	}
	s := &g.subs
	s.mu.Lock()
	defer s.mu.Unlock()
	byMod, ok := s.byPkg[pkgInit]
	if !ok {
		var err error
		if byMod, err = a.readSubmoduleImports(ctx, g, mods, pkgInit); err != nil {
			return nil, err
		}
		if s.byPkg == nil {
			s.byPkg = map[string]map[string][]importEdge{}
		}
		s.byPkg[pkgInit] = byMod
	}
	return byMod[p], nil
}

// readSubmoduleImports reads the from-imports of a package's importers that
// name one of its submodules.
func (a *analysis) readSubmoduleImports(ctx context.Context, g *depGraph, mods *lang.DottedModules, pkgInit string) (map[string][]importEdge, error) {
	dir := lang.DirOf(pkgInit)
	sources := map[int]map[string]bool{} // importing file -> its specifiers naming the package
	var order []int
	for _, ed := range g.imp[pkgInit] {
		if sources[ed.file] == nil {
			sources[ed.file] = map[string]bool{}
			order = append(order, ed.file)
		}
		sources[ed.file][ed.source] = true
	}
	out := map[string][]importEdge{}
	for _, i := range order { // file order: imp lists are sorted
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		facts, err := a.Facts(ctx, g.files[i].BlobID)
		if err != nil || facts == nil {
			continue // a file without facts names nothing
		}
		seen := map[string]bool{}
		for _, im := range facts.Imports {
			if im.Kind != lang.ImportNamed || im.Name == "" || !sources[i][im.Source] {
				continue
			}
			for _, p := range mods.FilesOf(dir, im.Name) {
				if _, ok := g.byPath[p]; ok {
					if !seen[p] {
						seen[p] = true
						out[p] = append(out[p], importEdge{file: i, source: im.Source, name: im.Name})
					}
					break
				}
			}
		}
	}
	return out, nil
}
