package agentbench

import (
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
)

// GoPool is what the Go parser says about a module: the candidates the
// questions are drawn from, and the facts whose truth is the toolchain's
// own (imports, build constraints).
type GoPool struct {
	Root, Module string
	Files        []*GoFile            // sorted by path
	ByDir        map[string][]*GoFile // package directory -> files
}

// GoFile is one parsed Go file.
type GoFile struct {
	Path, Dir, Pkg string
	Constraint     constraint.Expr // nil when the file has no //go:build line
	Imports        []string
	Funcs          []GoFunc
	Interfaces     []GoDecl
	// Values are package-level vars, consts and types (name positions).
	Values []GoDecl
	Calls  []GoCall
	Lines  int
}

// GoDecl is a declared name: its position (1-based line, byte column).
type GoDecl struct {
	Name      string
	Line, Col int
}

// GoFunc is a function or method declaration.
type GoFunc struct {
	GoDecl
	Recv    string // receiver type name, "" for a function
	HasBody bool
	EndLine int
}

// GoCall is a call site: the called name's position, and the selector's
// receiver text for x.f(...) calls.
type GoCall struct {
	GoDecl
	Recv string
}

// LoadGoPool parses every .go file of a module (vendor, testdata and
// nested modules left out).
func LoadGoPool(root string) (*GoPool, error) {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	mf, err := modfile.ParseLax("go.mod", b, nil)
	if err != nil {
		return nil, err
	}
	p := &GoPool{Root: root, Module: mf.Module.Mod.Path, ByDir: map[string][]*GoFile{}}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(full string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, full)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			base := d.Name()
			if rel != "." && (base == "vendor" || base == "testdata" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
				return filepath.SkipDir
			}
			if rel != "." {
				if _, err := os.Stat(filepath.Join(full, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module
				}
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		src, err := os.ReadFile(full)
		if err != nil {
			return nil
		}
		f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		gf := &GoFile{Path: rel, Dir: path.Dir(rel), Pkg: f.Name.Name, Lines: strings.Count(string(src), "\n") + 1}
		for _, cg := range f.Comments {
			if cg.Pos() > f.Package {
				break
			}
			for _, c := range cg.List {
				if constraint.IsGoBuild(c.Text) {
					if x, err := constraint.Parse(c.Text); err == nil {
						gf.Constraint = x
					}
				}
			}
		}
		for _, im := range f.Imports {
			gf.Imports = append(gf.Imports, strings.Trim(im.Path.Value, "\"`"))
		}
		pos := func(n *ast.Ident) GoDecl {
			ps := fset.Position(n.Pos())
			return GoDecl{Name: n.Name, Line: ps.Line, Col: ps.Column}
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				fn := GoFunc{GoDecl: pos(d.Name), HasBody: d.Body != nil, EndLine: fset.Position(d.End()).Line}
				if d.Recv != nil && len(d.Recv.List) > 0 {
					fn.Recv = recvName(d.Recv.List[0].Type)
				}
				gf.Funcs = append(gf.Funcs, fn)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok {
						for _, n := range vs.Names {
							if n.Name != "_" {
								gf.Values = append(gf.Values, pos(n))
							}
						}
						continue
					}
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					gf.Values = append(gf.Values, pos(ts.Name))
					if it, ok := ts.Type.(*ast.InterfaceType); ok && it.Methods != nil && len(it.Methods.List) > 0 {
						gf.Interfaces = append(gf.Interfaces, pos(ts.Name))
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				gf.Calls = append(gf.Calls, GoCall{GoDecl: pos(fun)})
			case *ast.SelectorExpr:
				gf.Calls = append(gf.Calls, GoCall{GoDecl: pos(fun.Sel), Recv: exprText(fun.X)})
			}
			return true
		})
		p.Files = append(p.Files, gf)
		p.ByDir[gf.Dir] = append(p.ByDir[gf.Dir], gf)
		return nil
	})
	sort.Slice(p.Files, func(i, j int) bool { return p.Files[i].Path < p.Files[j].Path })
	return p, err
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

func exprText(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		return exprText(t.X) + "." + t.Sel.Name
	case *ast.CallExpr:
		return exprText(t.Fun) + "()"
	}
	return "?"
}

// ImportPath is the import path of a package directory.
func (p *GoPool) ImportPath(dir string) string {
	if dir == "." {
		return p.Module
	}
	return p.Module + "/" + dir
}

// DirOf is the package directory of an import path of the module ("" when
// the path is outside it).
func (p *GoPool) DirOf(importPath string) string {
	if importPath == p.Module {
		return "."
	}
	if rest, ok := strings.CutPrefix(importPath, p.Module+"/"); ok {
		if _, ok := p.ByDir[rest]; ok {
			return rest
		}
	}
	return ""
}

// Importers is every file of the module importing the package in dir (the
// toolchain's answer: import paths name packages exactly).
func (p *GoPool) Importers(dir string) []string {
	ip := p.ImportPath(dir)
	var out []string
	for _, f := range p.Files {
		for _, im := range f.Imports {
			if im == ip {
				out = append(out, f.Path)
				break
			}
		}
	}
	return out
}

// Platforms is every GOOS/GOARCH pair the toolchain knows (`go tool dist list`).
func Platforms() ([][2]string, error) {
	out, err := exec.Command("go", "tool", "dist", "list").Output()
	if err != nil {
		return nil, err
	}
	var ps [][2]string
	for _, l := range strings.Fields(string(out)) {
		if os, arch, ok := strings.Cut(l, "/"); ok {
			ps = append(ps, [2]string{os, arch})
		}
	}
	return ps, nil
}

// Buildable reports whether a file's name and //go:build line let some
// build configuration compile it: some platform, cgo on or off, and any
// subset of the custom tags used in its directory (the tag `ignore` is
// never set).
func Buildable(f *GoFile, platforms [][2]string, customTags []string) bool {
	for _, pl := range platforms {
		for _, cgo := range []bool{false, true} {
			for mask := 0; mask < 1<<len(customTags); mask++ {
				tags := map[string]bool{}
				for i, t := range customTags {
					if mask&(1<<i) != 0 {
						tags[t] = true
					}
				}
				if matchConfig(f, pl[0], pl[1], cgo, tags) {
					return true
				}
			}
		}
	}
	return false
}

func matchConfig(f *GoFile, goos, goarch string, cgo bool, tags map[string]bool) bool {
	// the file name's _GOOS / _GOARCH suffixes
	name := path.Base(f.Path)
	if !goodOSArchFile(name, goos, goarch) {
		return false
	}
	if f.Constraint == nil {
		return true
	}
	return f.Constraint.Eval(func(tag string) bool {
		switch {
		case tag == goos, tag == goarch:
			return true
		case tag == "unix":
			return unixOS[goos]
		case tag == "cgo":
			return cgo
		case tag == "gc":
			return true
		case strings.HasPrefix(tag, "go1."):
			return true // the toolchain in use is newer than every release tag
		case tag == "ignore":
			return false
		}
		if goos == "android" && tag == "linux" || goos == "illumos" && tag == "solaris" || goos == "ios" && tag == "darwin" {
			return true
		}
		return tags[tag]
	})
}

var unixOS = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"hurd": true, "illumos": true, "ios": true, "linux": true, "netbsd": true, "openbsd": true, "solaris": true}

var knownOS = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true, "hurd": true,
	"illumos": true, "ios": true, "js": true, "linux": true, "nacl": true, "netbsd": true, "openbsd": true, "plan9": true,
	"solaris": true, "wasip1": true, "windows": true, "zos": true}

var knownArch = map[string]bool{"386": true, "amd64": true, "arm": true, "arm64": true, "loong64": true, "mips": true,
	"mipsle": true, "mips64": true, "mips64le": true, "ppc64": true, "ppc64le": true, "riscv64": true, "s390x": true,
	"wasm": true, "sparc64": true, "ppc": true, "riscv": true, "s390": true, "sparc": true, "mips64p32": true, "mips64p32le": true,
	"amd64p32": true, "armbe": true, "arm64be": true, "loong64le": true}

// goodOSArchFile applies the toolchain's file-name rule (name_GOOS_GOARCH.go,
// name_GOOS.go, name_GOARCH.go, with _test before .go allowed).
func goodOSArchFile(name, goos, goarch string) bool {
	name, _, _ = strings.Cut(name, ".")
	if i := strings.Index(name, "_"); i >= 0 {
		name = name[i:]
	} else {
		return true
	}
	l := strings.Split(name, "_")
	if n := len(l); n > 0 && l[n-1] == "test" {
		l = l[:n-1]
	}
	n := len(l)
	if n >= 2 && knownOS[l[n-2]] && knownArch[l[n-1]] {
		return matchOS(l[n-2], goos) && l[n-1] == goarch
	}
	if n >= 1 && (knownOS[l[n-1]] || knownArch[l[n-1]]) {
		if knownOS[l[n-1]] {
			return matchOS(l[n-1], goos)
		}
		return l[n-1] == goarch
	}
	return true
}

func matchOS(name, goos string) bool {
	return name == goos || name == "linux" && goos == "android" || name == "solaris" && goos == "illumos" || name == "darwin" && goos == "ios"
}

// CustomTags lists the build tags a directory's files use that are not a
// platform, cgo, a release or `ignore`, sorted (at most 4: more are not
// enumerated).
func CustomTags(files []*GoFile) []string {
	seen := map[string]bool{}
	for _, f := range files {
		if f.Constraint == nil {
			continue
		}
		walkTags(f.Constraint, func(t string) {
			if knownOS[t] || knownArch[t] || t == "unix" || t == "cgo" || t == "gc" || t == "gccgo" || t == "ignore" || strings.HasPrefix(t, "go1.") {
				return
			}
			seen[t] = true
		})
	}
	var out []string
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	if len(out) > 4 {
		out = out[:4]
	}
	return out
}

func walkTags(x constraint.Expr, fn func(string)) {
	switch e := x.(type) {
	case *constraint.TagExpr:
		fn(e.Tag)
	case *constraint.NotExpr:
		walkTags(e.X, fn)
	case *constraint.AndExpr:
		walkTags(e.X, fn)
		walkTags(e.Y, fn)
	case *constraint.OrExpr:
		walkTags(e.X, fn)
		walkTags(e.Y, fn)
	}
}
