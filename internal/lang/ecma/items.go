package ecma

import (
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// entryDirs are where a package keeps the modules its name and subpaths
// stand for, most likely first: its sources, then its root.
var entryDirs = []string{"src", ""}

// ItemPaths reads a name as its importers write it: a package's name
// (rxjs, @scope/ui: slashes as dots), then a subpath module, then the item
// the module exports (rxjs.map is what src/index.ts exports as map;
// rxjs.operators.map what src/operators/index.ts does). A longer package
// name and module path rank higher.
func ItemPaths(dotted string, exists func(string) bool, packages []lang.Package) []lang.ItemPath {
	var out []lang.ItemPath
	for _, p := range packages {
		pkg := strings.ReplaceAll(p.Name, "/", ".")
		rest, ok := strings.CutPrefix(dotted, pkg+".")
		if pkg == "" || !ok {
			continue
		}
		segs := strings.Split(rest, ".")
		for i := len(segs) - 1; i >= 0; i-- {
			item := strings.Join(segs[i:], ".")
			for _, f := range moduleFiles(p.Root, segs[:i], exists) {
				out = append(out, lang.ItemPath{File: f, Path: item, Rank: strings.Count(pkg, ".") + 1 + i})
			}
		}
	}
	return out
}

// moduleFiles are the files that may hold a package's module at subpath
// sub (none: its entry): sub/index.ts or sub.ts and the other extensions,
// under src/ first.
func moduleFiles(root string, sub []string, exists func(string) bool) []string {
	var out []string
	for _, d := range entryDirs {
		base := path.Join(append([]string{root, d}, sub...)...)
		var cands []string
		for _, ext := range jsExtensions {
			cands = append(cands, path.Join(base, "index"+ext))
			if len(sub) > 0 {
				cands = append(cands, base+ext)
			}
		}
		for _, c := range cands {
			if exists(c) {
				out = append(out, c)
			}
		}
	}
	return out
}
