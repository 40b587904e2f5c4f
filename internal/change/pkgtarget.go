package change

import (
	"cmp"
	"context"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// Kinds of unit an import question or an impact analysis names.
const (
	TargetFile = "file"
	// TargetPackage is a directory's own files: a Go package (its external
	// test files left out: they import it), a Python or JVM package, the
	// modules of a TypeScript directory.
	TargetPackage = "package"
	// TargetDirectory is every file below a directory: a directory with no
	// file of its own, or one asked for recursively.
	TargetDirectory = "directory"
)

// Unit is a file, package or directory taken as one target.
type Unit struct {
	Kind string `json:"kind"` // file, package or directory
	Path string `json:"path"` // repo path; "." for the root directory
	// ImportPath is how code names it: a Go import path, a Python dotted
	// module, a JVM package or .NET namespace.
	ImportPath string `json:"import_path,omitempty"`
	Language   string `json:"language,omitempty"`
	Files      int    `json:"files,omitempty"` // the indexed files of a package or directory
	// members are the unit's files, positions in the depGraph's files.
	members []int
	dir     string // the unit's directory ("" for the root)
}

// PackageDir reports whether a target argument names a directory of
// indexed files (with or without a trailing slash; "." is the root), and
// returns it as a repo path ("" for the root). Tools ask it before taking
// the argument for a symbol name: an exact path wins over a name.
func PackageDir(ctx context.Context, e *query.Engine, arg string) (string, bool) {
	dir, ok := cleanDir(arg)
	if !ok {
		return "", false
	}
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	files, err := e.FilesUnder(ctx, prefix)
	return dir, err == nil && len(files) > 0
}

// cleanDir reads an argument as a directory path: "" for the root; false
// when it cannot be one.
func cleanDir(arg string) (string, bool) {
	arg = strings.TrimSpace(arg)
	if arg == "" || strings.ContainsAny(arg, "#\x00") || strings.HasPrefix(arg, "/") {
		return "", false
	}
	d := path.Clean(arg)
	if d == "." {
		return "", true
	}
	if d == ".." || strings.HasPrefix(d, "../") {
		return "", false
	}
	return d, true
}

// resolveUnit finds what an argument names, exact paths first: an indexed
// file; a directory of indexed files (its own files, or every file below it
// when it has none of its own or recursive is set); an import path (Go's);
// a dotted module (Python's); a JVM package or .NET namespace; a module's
// name.
func (a *analysis) resolveUnit(ctx context.Context, g *depGraph, arg string, recursive bool) (*Unit, error) {
	if i, ok := g.byPath[strings.TrimPrefix(arg, "./")]; ok {
		return g.fileUnit(i), nil
	}
	if dir, ok := cleanDir(arg); ok {
		if u := g.dirUnit(dir, recursive); u != nil {
			return u, nil
		}
	}
	if u := g.importPathUnit(arg); u != nil {
		return u, nil
	}
	if u := g.dottedModuleUnit(arg); u != nil {
		return u, nil
	}
	if u := g.namespaceUnit(arg); u != nil {
		return u, nil
	}
	for _, m := range g.mods {
		if m.Name == arg && !importedByPath(m.Kind) {
			if u := g.dirUnit(m.Root, true); u != nil {
				return u, nil
			}
		}
	}
	// A symbol's name (com.acme.Foo, Acme\Lib\Gadget): the file it is in.
	switch r, err := a.Resolve(ctx, arg); {
	case err == nil:
		if i, ok := g.byPath[r.File.Path]; ok {
			return g.fileUnit(i), nil
		}
	case errs.Is(err, errs.Ambiguous):
		return nil, err
	}
	return nil, &errs.Error{Kind: errs.NotFound, Msg: "no indexed file, directory, package or module " + arg,
		Fixes: []string{"cairn ls", "cairn arch --depth 2"}}
}

// fileUnit is one file.
func (g *depGraph) fileUnit(i int) *Unit {
	f := g.files[i]
	u := &Unit{Kind: TargetFile, Path: f.Path, Language: f.Lang, members: []int{i}, dir: lang.DirOf(f.Path)}
	u.ImportPath = g.importPath(u, []int{i})
	return u
}

// dirUnit is a directory's package (its own files), or every file below it;
// nil when it holds no indexed file.
func (g *depGraph) dirUnit(dir string, recursive bool) *Unit {
	var own, below []int
	for i, f := range g.files {
		switch {
		case lang.DirOf(f.Path) == dir:
			own = append(own, i)
			below = append(below, i)
		case dir == "" || strings.HasPrefix(f.Path, dir+"/"):
			below = append(below, i)
		}
	}
	if len(below) == 0 {
		return nil
	}
	u := &Unit{Kind: TargetPackage, Path: cmp.Or(dir, "."), dir: dir}
	if recursive || len(own) == 0 {
		u.Kind, u.members = TargetDirectory, below
	} else {
		// An external test package (Go's package x_test) shares the
		// directory but imports the package like any other client.
		for _, i := range own {
			if f := g.files[i]; !lang.Of(f.Lang).StandsApart(f.Pkg) {
				u.members = append(u.members, i)
			}
		}
	}
	u.Files = len(u.members)
	u.Language = g.mainLanguage(u.members)
	if u.Kind == TargetPackage {
		u.ImportPath = g.importPath(u, u.members)
	}
	return u
}

// importPathUnit is the package an import path names (a Go package's),
// when a module of a language whose packages are directories holds it.
func (g *depGraph) importPathUnit(arg string) *Unit {
	for _, l := range lang.All() {
		if l.Packages != lang.PackageDirectory {
			continue
		}
		best := store.ModuleRow{}
		for _, m := range g.mods {
			if m.Kind == l.Ecosystem && m.Name != "" && (arg == m.Name || strings.HasPrefix(arg, m.Name+"/")) && len(m.Name) > len(best.Name) {
				best = m
			}
		}
		if best.Name == "" {
			continue
		}
		dir, _ := cleanDir(path.Join(cmp.Or(best.Root, "."), strings.TrimPrefix(strings.TrimPrefix(arg, best.Name), "/")))
		for _, i := range g.dirFiles[dir] {
			if g.files[i].Lang == l.Name {
				return g.dirUnit(dir, false)
			}
		}
	}
	return nil
}

// importedByPath reports whether modules of this kind name their packages
// by import paths (Go modules), which importPathUnit resolves.
func importedByPath(kind string) bool {
	return slices.ContainsFunc(lang.All(), func(l *lang.Language) bool {
		return l.Packages == lang.PackageDirectory && l.Ecosystem == kind
	})
}

// dottedModuleUnit is the file of a dotted module (Python's a.b: a/b.py,
// else a/b/__init__.py), below the repository root or the root of one of
// the language's modules.
func (g *depGraph) dottedModuleUnit(arg string) *Unit {
	if !isDotted(arg) {
		return nil
	}
	for _, p := range query.DottedModuleFiles(slices.Collect(maps.Values(g.mods)), arg) {
		if i, ok := g.byPath[p]; ok {
			return g.fileUnit(i)
		}
	}
	return nil
}

// namespaceUnit is the files that declare a package or namespace (a JVM
// package, a .NET namespace), in every package space that has it.
func (g *depGraph) namespaceUnit(arg string) *Unit {
	name, _ := lang.Dotted(arg) // PHP's Acme\Lib is Acme.Lib
	if !isDotted(name) {
		return nil
	}
	var members []int
	for _, space := range declaredSpaces() {
		members = append(members, g.pkgFiles[spaceKey(space, name)]...)
	}
	// A namespace that groups no files for its language (PHP's: a file
	// imports each class it uses) is still a target by name.
	for i, f := range g.files {
		if f.Pkg != "" && lang.Of(f.Lang).Packages == lang.PackageNone {
			if pkg, _ := lang.Dotted(f.Pkg); pkg == name {
				members = append(members, i)
			}
		}
	}
	if len(members) == 0 {
		return nil
	}
	slices.Sort(members)
	dir := lang.DirOf(g.files[members[0]].Path)
	for _, i := range members[1:] {
		for dir != "" && !strings.HasPrefix(g.files[i].Path, dir+"/") {
			dir = lang.DirOf(dir)
		}
	}
	return &Unit{Kind: TargetPackage, Path: cmp.Or(dir, "."), ImportPath: arg, Language: g.mainLanguage(members),
		Files: len(members), members: members, dir: dir}
}

// declaredSpaces are the package spaces (pkgKey) of the languages whose
// files declare their package.
func declaredSpaces() []string {
	var out []string
	for _, l := range lang.All() {
		if s := packageSpace(l.Name); l.Packages == lang.PackageDeclared && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// isDotted reports whether s looks like a dotted name (a.b.c).
func isDotted(s string) bool {
	if s == "" || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") || strings.Contains(s, "..") {
		return false
	}
	for _, r := range s {
		if !(r == '.' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// mainLanguage is the language most of the files are in (ties by name).
func (g *depGraph) mainLanguage(files []int) string {
	n := map[string]int{}
	best := ""
	for _, i := range files {
		l := g.files[i].Lang
		if l == "" {
			continue
		}
		n[l]++
		if best == "" || n[l] > n[best] || n[l] == n[best] && l < best {
			best = l
		}
	}
	return best
}

// importPath is how code of the unit's language names it: a Go package's
// import path, a Python module's dotted name, a JVM package or .NET
// namespace ("" when there is none, as for a TypeScript module).
func (g *depGraph) importPath(u *Unit, members []int) string {
	l := lang.Of(u.Language)
	switch {
	case l.Packages == lang.PackageDeclared:
		return g.declaredPackage(u, members)
	case l.Packages == lang.PackageDirectory:
		m, ok := g.mods[g.files[members[0]].ModuleID]
		if !ok || m.Kind != l.Ecosystem || m.Name == "" {
			return ""
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(u.dir, m.Root), "/")
		if m.Root != "" && u.dir != m.Root && !strings.HasPrefix(u.dir, m.Root+"/") {
			return ""
		}
		return strings.TrimSuffix(m.Name+"/"+rel, "/")
	case l.Modules != nil:
		p := u.Path
		if u.Kind != TargetFile {
			p = path.Join(u.dir, l.Modules.Package)
			if _, ok := g.byPath[p]; !ok {
				return ""
			}
		}
		if m, ok := g.mods[g.files[members[0]].ModuleID]; ok && m.Kind == l.Ecosystem && m.Root != "" {
			p = strings.TrimPrefix(p, m.Root+"/")
		}
		return strings.ReplaceAll(l.Modules.Base(p), "/", ".")
	}
	return ""
}

// declaredPackage is the package (or namespace) the unit's files of its
// language all declare; "" when they differ.
func (g *depGraph) declaredPackage(u *Unit, members []int) string {
	pkg := g.files[members[0]].Pkg
	for _, i := range members[1:] {
		if g.files[i].Lang == u.Language && g.files[i].Pkg != pkg {
			return ""
		}
	}
	return pkg
}

// unitOf resolves a target argument against the dependency graph of the
// index version (resolveUnit).
func (a *analysis) unitOf(ctx context.Context, target string, recursive bool) (*depGraph, *Unit, error) {
	if strings.TrimSpace(target) == "" {
		return nil, nil, &errs.Error{Kind: errs.InvalidArgument,
			Msg:   "name a target: an indexed file, a directory, an import path, a dotted module or a package",
			Fixes: []string{"cairn ls", "cairn arch --depth 2"}}
	}
	g, err := a.depGraph(ctx)
	if err != nil {
		return nil, nil, err
	}
	u, err := a.resolveUnit(ctx, g, target, recursive)
	return g, u, err
}

// symbols lists the symbols declared in the unit's files.
func (g *depGraph) symbols(ctx context.Context, a *analysis, u *Unit) ([]store.SymbolRow, error) {
	ids := make([]int64, len(u.members))
	for k, i := range u.members {
		ids[k] = g.files[i].ID
	}
	return a.SymbolsOfFiles(ctx, ids)
}

// isMember returns a membership test for the unit's files.
func (u *Unit) isMember() func(int) bool {
	in := make(map[int]bool, len(u.members))
	for _, i := range u.members {
		in[i] = true
	}
	return func(i int) bool { return in[i] }
}
