package rust

import (
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// itemPaths reads a name as Rust code names an item: a module path from a
// crate's root, then the item (ast.parse.Parser is Parser in
// src/ast/parse.rs or src/ast/parse/mod.rs). The path may start with the
// crate's name (dashes read as underscores) or crate, which rank above a
// path read from the root without them; a longer module path ranks above
// a shorter one. An empty module path is the crate root (src/lib.rs,
// src/main.rs), which may re-export the item.
func itemPaths(dotted string, exists func(string) bool, packages []lang.Package) []lang.ItemPath {
	segs := strings.Split(dotted, ".")
	if len(segs) < 2 {
		return nil
	}
	var out []lang.ItemPath
	for _, p := range packages {
		src := path.Join(p.Root, "src")
		if segs[0] == "crate" || segs[0] == strings.ReplaceAll(p.Name, "-", "_") {
			out = append(out, modulePaths(src, segs[1:], len(segs), exists)...)
		}
		out = append(out, modulePaths(src, segs, 0, exists)...)
	}
	return out
}

// modulePaths are the readings of segs below a crate's source directory:
// each split into a module path and an item, the module path's files that
// exist holding the item.
func modulePaths(src string, segs []string, bonus int, exists func(string) bool) []lang.ItemPath {
	var out []lang.ItemPath
	for i := len(segs) - 1; i >= 0; i-- {
		item := strings.Join(segs[i:], ".")
		var files []string
		if i == 0 {
			files = crateRootFiles(src)
		} else {
			files = childModuleFiles(path.Join(append([]string{src}, segs[:i-1]...)...), segs[i-1])
		}
		for _, f := range files {
			if exists(f) {
				out = append(out, lang.ItemPath{File: f, Path: item, Rank: bonus + i})
			}
		}
	}
	return out
}

// crateRootFiles are the files that may be a crate's root in dir.
func crateRootFiles(dir string) []string {
	return []string{path.Join(dir, "lib.rs"), path.Join(dir, "main.rs")}
}

// childModuleFiles are the files that may hold module name whose parent's
// child modules live in dir: dir/name.rs or dir/name/mod.rs.
func childModuleFiles(dir, name string) []string {
	return []string{path.Join(dir, name+".rs"), path.Join(dir, name, "mod.rs")}
}
