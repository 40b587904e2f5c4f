package renamebench

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Symbol is one symbol to rename: where its name is declared, what kind of
// declaration it is, and the new name.
type Symbol struct {
	Path    string `json:"path"` // repo-relative, slash-separated
	Line    int    `json:"line"` // 1-based
	Col     int    `json:"col"`  // 1-based, in bytes
	Name    string `json:"name"`
	New     string `json:"new_name"`
	Kind    string `json:"kind"` // a stratum: func_exported, method_unexported, field, ...
	Package string `json:"package,omitempty"`
}

func (s Symbol) String() string { return fmt.Sprintf("%s:%d:%d %s", s.Path, s.Line, s.Col, s.Name) }

// GoStrata are the kinds of Go declarations a sample draws from, in the
// order the report lists them.
var GoStrata = []string{"func_exported", "func_unexported", "method_exported", "method_unexported", "field", "type", "iface_method"}

// goList lists the packages of the module in dir as the go command sees them
// in the default build configuration (build tags and GOOS applied).
func goList(dir string, env []string) ([]goPackage, error) {
	cmd := exec.Command("go", "list", "-json=Dir,ImportPath,Name,GoFiles,TestGoFiles,XTestGoFiles", "./...")
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list in %s: %w", dir, err)
	}
	var pkgs []goPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p goPackage
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

type goPackage struct {
	Dir        string
	ImportPath string
	Name       string
	GoFiles    []string
	// TestGoFiles and XTestGoFiles: the package's tests, as go vet reads them.
	TestGoFiles, XTestGoFiles []string
}

// GoBuildFiles lists the Go files of the module in dir that the default
// build configuration compiles (tests included): the files gopls loads.
// A file outside it (another GOOS, a build tag) is invisible to gopls.
func GoBuildFiles(dir string, env []string) (map[string]bool, error) {
	pkgs, err := goList(dir, env)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, p := range pkgs {
		for _, list := range [][]string{p.GoFiles, p.TestGoFiles, p.XTestGoFiles} {
			for _, f := range list {
				rel, _ := filepath.Rel(dir, filepath.Join(p.Dir, f))
				out[filepath.ToSlash(rel)] = true
			}
		}
	}
	return out, nil
}

// GoSymbols lists every candidate declaration of the module in dir (its
// non-test files, as go list selects them), grouped by stratum.
func GoSymbols(dir string, env []string) (map[string][]Symbol, error) {
	pkgs, err := goList(dir, env)
	if err != nil {
		return nil, err
	}
	out := map[string][]Symbol{}
	fset := token.NewFileSet()
	for _, p := range pkgs {
		for _, name := range p.GoFiles {
			abs := filepath.Join(p.Dir, name)
			rel, _ := filepath.Rel(dir, abs)
			rel = filepath.ToSlash(rel)
			f, err := parser.ParseFile(fset, abs, nil, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			add := func(id *ast.Ident, kind string) {
				if id == nil || id.Name == "_" {
					return
				}
				pos := fset.Position(id.Pos())
				out[kind] = append(out[kind], Symbol{Path: rel, Line: pos.Line, Col: pos.Column, Name: id.Name, Kind: kind, Package: p.ImportPath})
			}
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && (d.Name.Name == "init" || (d.Name.Name == "main" && p.Name == "main")) {
						continue
					}
					kind := "func"
					if d.Recv != nil {
						kind = "method"
					}
					if ast.IsExported(d.Name.Name) {
						kind += "_exported"
					} else {
						kind += "_unexported"
					}
					add(d.Name, kind)
				case *ast.GenDecl:
					if d.Tok != token.TYPE {
						continue
					}
					for _, s := range d.Specs {
						ts := s.(*ast.TypeSpec)
						add(ts.Name, "type")
						switch t := ts.Type.(type) {
						case *ast.StructType:
							for _, fld := range t.Fields.List {
								for _, n := range fld.Names {
									add(n, "field")
								}
							}
						case *ast.InterfaceType:
							for _, m := range t.Methods.List {
								if _, ok := m.Type.(*ast.FuncType); ok {
									for _, n := range m.Names {
										add(n, "iface_method")
									}
								}
							}
						}
					}
				}
			}
		}
	}
	for k := range out {
		sortSymbols(out[k])
	}
	return out, nil
}

func sortSymbols(ss []Symbol) {
	sort.Slice(ss, func(i, j int) bool {
		a, b := ss[i], ss[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Draw takes n symbols of each stratum (fewer when a stratum is smaller),
// shuffled by a generator seeded with seed and the corpus name, so the same
// seed draws the same sample on any machine. The new name appends a suffix,
// which keeps the name's exportedness.
func Draw(byKind map[string][]Symbol, strata []string, n int, seed uint64, corpus, suffix string) []Symbol {
	h := fnv.New64a()
	h.Write([]byte(corpus))
	r := rand.New(rand.NewPCG(seed, h.Sum64()))
	var out []Symbol
	for _, k := range strata {
		c := append([]Symbol(nil), byKind[k]...)
		r.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
		if len(c) > n {
			c = c[:n]
		}
		for i := range c {
			c[i].New = c[i].Name + suffix
		}
		out = append(out, c...)
	}
	return out
}
