package httpapi_test

import (
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAdaptersStayThin keeps the adapters off the layers below the tools:
// no adapter imports store, lang/... or gitx (CONVENTIONS "Layout"). The CLI
// may blank-import lang/all, which only registers the languages.
func TestAdaptersStayThin(t *testing.T) {
	const mod = "github.com/cairnhq/cairn/internal/"
	forbidden := []string{mod + "store", mod + "lang", mod + "gitx"}
	for _, dir := range []string{".", "../mcpserver", "../cli"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(gotoken.NewFileSet(), filepath.Join(dir, name), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if path == mod+"lang/all" && imp.Name != nil && imp.Name.Name == "_" {
					continue
				}
				for _, bad := range forbidden {
					if path == bad || strings.HasPrefix(path, bad+"/") {
						t.Errorf("%s imports %s", filepath.Join(dir, name), path)
					}
				}
			}
		}
	}
}
