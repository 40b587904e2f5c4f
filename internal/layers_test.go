// Package layers_test keeps the architecture's import rules (DESIGN §3,
// CONVENTIONS "Layout: imports point down"): the interface adapters (cli,
// mcpserver, httpapi) never import the store, the index, the languages or
// git directly; no domain package depends on an adapter, not even through
// another package; leaf packages import nothing of the module. The
// languages' packages (internal/lang/<language>) are imported only by the
// composition root, which registers them all through internal/lang/all; the
// index links every language through the hooks of internal/lang and depends
// on no language's package, not even through another package. It reads
// import declarations with go/parser, so it needs no build.
package layers_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// adapters are the interface adapters: decode, call the tools, encode.
var adapters = []string{"internal/cli", "internal/mcpserver", "internal/httpapi"}

// forbiddenForAdapters are what adapters must reach only through tools,
// query or service. A prefix also forbids its subpackages.
var forbiddenForAdapters = []string{"internal/store", "internal/index", "internal/lang", "internal/gitx"}

// leaves are domain packages that import no package of the module: they read
// bytes and files, and the index and the query engine both build on them.
var leaves = []string{"internal/manifest", "internal/lockfile", "internal/cache"}

// compositionRoot is the one package outside internal/lang that imports a
// language's package: internal/lang/all, which registers every language.
const compositionRoot = "internal/service"

// languageBlind must not depend on a language's package, not even through
// another package: they reach the languages through internal/lang only.
// The index and the query engines answer for every language alike.
var languageBlind = []string{"internal/index", "internal/query", "internal/graph", "internal/change", "internal/repomap"}

// isLanguagePackage reports whether a package belongs to one language or to
// a family of them: anything under internal/lang but the package itself.
func isLanguagePackage(pkg string) bool { return strings.HasPrefix(pkg, "internal/lang/") }

// graph maps a package (module-relative directory) to the module-relative
// packages its non-test files import.
type graph map[string][]string

func TestLayers(t *testing.T) {
	g, err := readGraph("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"internal/cli", "internal/tools", "internal/query", "internal/graph", "internal/change", "internal/repomap",
		"internal/store", "internal/manifest", "internal/mutate", "internal/refactor"} {
		if _, ok := g[must]; !ok {
			t.Fatalf("package %s not found: the test is not reading the module", must)
		}
	}
	if v := violations(g); len(v) > 0 {
		t.Errorf("import rules broken:\n  %s", strings.Join(v, "\n  "))
	}
}

// TestViolations checks the rules themselves on a made-up graph.
func TestViolations(t *testing.T) {
	g := graph{
		"internal/cli":         {"internal/tools", "internal/lang/all"},
		"internal/httpapi":     {"internal/gitx"},
		"internal/mcpserver":   {"internal/tools", "internal/storefront"},
		"internal/tools":       {"internal/query"},
		"internal/query":       {"internal/store", "internal/helper"},
		"internal/helper":      {"internal/cli"},
		"internal/store":       {},
		"internal/storefront":  {},
		"internal/lang/all":    {"internal/lang/golang"},
		"internal/lang/golang": {"internal/lang", "internal/lang/link"},
		"internal/lang/link":   {"internal/lang"},
		"internal/lang":        {},
		"internal/gitx":        {},
		"internal/service":     {"internal/lang/all", "internal/index"},
		"internal/index":       {"internal/lang", "internal/indexer"},
		"internal/indexer":     {"internal/lang/link"},
	}
	want := []string{
		"internal/cli imports internal/lang/all (adapters reach it only through tools, query or service)",
		"internal/helper depends on adapter internal/cli (internal/helper -> internal/cli)",
		"internal/httpapi imports internal/gitx (adapters reach it only through tools, query or service)",
		"internal/index depends on language package internal/lang/link (internal/index -> internal/indexer -> internal/lang/link)",
		"internal/indexer imports language package internal/lang/link (only internal/service registers the languages, through internal/lang/all)",
		"internal/query depends on adapter internal/cli (internal/query -> internal/helper -> internal/cli)",
		"internal/query depends on language package internal/lang/all (internal/query -> internal/helper -> internal/cli -> internal/lang/all)",
		"internal/tools depends on adapter internal/cli (internal/tools -> internal/query -> internal/helper -> internal/cli)",
	}
	if diff := cmp.Diff(want, violations(g)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

// TestLeafViolations checks the leaf rule on a made-up graph.
func TestLeafViolations(t *testing.T) {
	g := graph{
		"internal/manifest": {"internal/errs", "internal/store"},
		"internal/index":    {"internal/manifest", "internal/store"},
		"internal/query":    {"internal/manifest"},
		"internal/errs":     {},
		"internal/store":    {},
	}
	want := []string{
		"internal/manifest imports internal/errs (a leaf imports no package of the module)",
		"internal/manifest imports internal/store (a leaf imports no package of the module)",
	}
	if diff := cmp.Diff(want, violations(g)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

func within(pkg string, roots []string) (string, bool) {
	for _, r := range roots {
		if pkg == r || strings.HasPrefix(pkg, r+"/") {
			return r, true
		}
	}
	return "", false
}

// violations lists every broken rule, sorted.
func violations(g graph) []string {
	var out []string
	for pkg, imports := range g {
		if _, isAdapter := within(pkg, adapters); isAdapter {
			for _, imp := range imports {
				if _, bad := within(imp, forbiddenForAdapters); bad {
					out = append(out, fmt.Sprintf("%s imports %s (adapters reach it only through tools, query or service)", pkg, imp))
				}
			}
			continue
		}
		if !strings.HasPrefix(pkg, "internal/") {
			continue // cmd/ and tools outside internal/ wire everything together
		}
		if _, isLeaf := within(pkg, leaves); isLeaf {
			for _, imp := range imports {
				out = append(out, fmt.Sprintf("%s imports %s (a leaf imports no package of the module)", pkg, imp))
			}
		}
		isAdapter := func(p string) bool { _, ok := within(p, adapters); return ok }
		if path := pathTo(g, pkg, isAdapter); path != nil {
			out = append(out, fmt.Sprintf("%s depends on adapter %s (%s)", pkg, path[len(path)-1], strings.Join(path, " -> ")))
		}
		if pkg != compositionRoot && pkg != "internal/lang" && !isLanguagePackage(pkg) {
			for _, imp := range imports {
				if isLanguagePackage(imp) {
					out = append(out, fmt.Sprintf("%s imports language package %s (only %s registers the languages, through internal/lang/all)", pkg, imp, compositionRoot))
				}
			}
		}
		if _, blind := within(pkg, languageBlind); blind {
			if path := pathTo(g, pkg, isLanguagePackage); path != nil {
				out = append(out, fmt.Sprintf("%s depends on language package %s (%s)", pkg, path[len(path)-1], strings.Join(path, " -> ")))
			}
		}
	}
	sort.Strings(out)
	return out
}

// pathTo finds an import path from pkg to a package that target accepts
// (breadth first, so the reported chain is a shortest one), or nil.
func pathTo(g graph, pkg string, target func(string) bool) []string {
	prev := map[string]string{pkg: ""}
	queue := []string{pkg}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		imps := append([]string(nil), g[cur]...)
		sort.Strings(imps)
		for _, imp := range imps {
			if _, seen := prev[imp]; seen {
				continue
			}
			prev[imp] = cur
			if target(imp) {
				var path []string
				for p := imp; p != ""; p = prev[p] {
					path = append([]string{p}, path...)
				}
				return path
			}
			queue = append(queue, imp)
		}
	}
	return nil
}

// readGraph parses the imports of every non-test Go file under root (the
// module root) into a graph of module-relative package directories.
func readGraph(root string) (graph, error) {
	modData, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	module := ""
	for _, line := range strings.Split(string(modData), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			module = strings.TrimSpace(rest)
			break
		}
	}
	if module == "" {
		return nil, fmt.Errorf("no module line in %s/go.mod", root)
	}
	g := graph{}
	fset := token.NewFileSet()
	err = eachSourceFile(root, func(p string) error {
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := filepath.ToSlash(rel)
		if _, ok := g[pkg]; !ok {
			g[pkg] = nil
		}
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			if local, ok := strings.CutPrefix(imp, module+"/"); ok {
				g[pkg] = append(g[pkg], local)
			}
		}
		return nil
	})
	return g, err
}

// eachSourceFile calls fn with every non-test Go file under root, leaving
// out hidden directories, testdata and node_modules.
func eachSourceFile(root string, fn func(p string) error) error {
	return filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		return fn(p)
	})
}
