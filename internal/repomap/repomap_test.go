package repomap_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/repomap"
	"github.com/cairnhq/cairn/internal/testenv"
)

// web is a small Go module: a command, an api package serving two routes
// and a store package the api imports.
var web = map[string]string{
	"go.mod": "module example.com/web\n\ngo 1.22\n",
	"cmd/web/main.go": `package main

import "example.com/web/api"

func main() { api.Listen() }
`,
	"api/api.go": `package api

import (
	"net/http"

	"example.com/web/store"
)

// Listen serves the routes.
func Listen() {
	http.HandleFunc("/items", items)
	http.HandleFunc("/health", health)
	_ = http.ListenAndServe(":8080", nil)
}

func items(w http.ResponseWriter, r *http.Request) { _ = store.All() }

func health(w http.ResponseWriter, r *http.Request) {}
`,
	"api/api_test.go": `package api

import "testing"

func TestListen(t *testing.T) {}
`,
	"store/store.go": `package store

// All lists the items.
func All() []string { return nil }
`,
	"README.md": "# web\n",
}

func open(t *testing.T) *query.Engine {
	t.Helper()
	return testenv.OpenIndex(t, web).Engine(t)
}

// edges lists an architecture's edges with their class and imports.
func edges(res *repomap.ArchResult) []string {
	var out []string
	for _, ed := range res.Edges {
		out = append(out, fmt.Sprintf("%s -> %s %s %d", ed.From, ed.To, ed.Class, ed.Imports))
	}
	return out
}

func TestArchitecture(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	res, err := repomap.Architecture(ctx, e, repomap.ArchParams{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"go:api -> go:store local-file 1", "go:cmd -> go:api local-file 1"}, edges(res)); diff != "" {
		t.Errorf("edges (-want +got):\n%s", diff)
	}
	// One module's node keeps its own edges and its neighbours.
	res, err = repomap.Architecture(ctx, e, repomap.ArchParams{Depth: 2, Module: "go:store"})
	if err != nil {
		t.Fatal(err)
	}
	var nodes []string
	for _, n := range res.Nodes {
		nodes = append(nodes, n.ID)
	}
	if diff := cmp.Diff([]string{"go:api", "go:store"}, nodes); diff != "" || len(res.Edges) != 1 {
		t.Errorf("focused on go:store: %d edges, nodes (-want +got):\n%s", len(res.Edges), diff)
	}
	if _, err := repomap.Architecture(ctx, e, repomap.ArchParams{Depth: 1, Module: "nowhere"}); !errs.Is(err, errs.NotFound) {
		t.Errorf("unknown module: %v, want not found", err)
	}
}

func TestMap(t *testing.T) {
	e := open(t)
	m, err := repomap.Build(context.Background(), e, repomap.Params{Include: []string{"entry_points", "test_layout", "languages"}, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if m.Structure != nil || m.Modules != nil {
		t.Error("sections not asked for are present")
	}
	var entries []string
	for _, ep := range *m.EntryPoints {
		entries = append(entries, ep.Path+" "+ep.Kind)
	}
	if diff := cmp.Diff([]string{"cmd/web/main.go go_main"}, entries); diff != "" {
		t.Errorf("entry points (-want +got):\n%s", diff)
	}
	if m.TestLayout.Files != 1 || m.TestLayout.Languages[0].Colocated != 1 {
		t.Errorf("test layout = %+v, want one colocated Go test", m.TestLayout)
	}
	langs := map[string]int{}
	for _, l := range *m.Languages {
		langs[l.Language] = l.Files
	}
	if langs["go"] != 4 {
		t.Errorf("languages = %v, want 4 Go files", langs)
	}
}

func TestSurfaces(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	p := repomap.SurfaceParams{Kind: lang.SurfEndpoint, Limit: 1}
	res, err := repomap.Surfaces(ctx, e, p)
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 2 || res.Files != 1 || len(res.Items) != 1 || !res.More || res.NextOffset != 1 {
		t.Fatalf("total %d files %d items %d more %v next %d, want 2 routes in 1 file, one listed", res.Total, res.Files, len(res.Items), res.More, res.NextOffset)
	}
	if it := res.Items[0]; it.Value != "/items" || it.Location.Path != "api/api.go" {
		t.Errorf("first route = %+v", it)
	}
	p.Query, p.Offset = "HEALTH", 0
	if res, err = repomap.Surfaces(ctx, e, p); err != nil {
		t.Fatal(err)
	}
	if res.Total != 1 || res.Items[0].Value != "/health" {
		t.Errorf("routes matching HEALTH: %+v", res.Items)
	}
	p.Confidence = "certain"
	if _, err := repomap.Surfaces(ctx, e, p); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("confidence certain: %v, want invalid argument", err)
	}
}

// TestMapEntryPointsByLanguage: each language's programs start its own way
// (Go: func main in package main; Python: the __main__ guard, and a
// __main__.py), and a Go package main is a program, not public API.
func TestMapEntryPointsByLanguage(t *testing.T) {
	e := testenv.OpenIndex(t, map[string]string{
		"go.mod":           "module example.com/tools\n\ngo 1.22\n",
		"cmd/tool/main.go": "package main\n\n// Run is exported but a program's.\nfunc Run() {}\n\nfunc main() { Run() }\n",
		"lib/lib.go":       "package lib\n\n// Lib is API.\nfunc Lib() {}\n",
		"app/__init__.py":  "",
		"app/__main__.py":  "print('run')\n",
		"app/cli.py":       "def run():\n    pass\n\n\nif __name__ == \"__main__\":\n    run()\n",
	}).Engine(t)
	m, err := repomap.Build(context.Background(), e, repomap.Params{Include: []string{"entry_points", "public_api"}, Limit: 10, Top: 10})
	if err != nil {
		t.Fatal(err)
	}
	var entries []string
	for _, ep := range *m.EntryPoints {
		entries = append(entries, fmt.Sprintf("%s %s %s %d", ep.Path, ep.Kind, ep.Name, ep.Line))
	}
	want := []string{"app/__main__.py python_main __main__ 0", "app/cli.py python_main __main__ 5", "cmd/tool/main.go go_main main 6"}
	if diff := cmp.Diff(want, entries, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("entry points (-want +got):\n%s", diff)
	}
	var api []string
	for _, a := range *m.PublicAPI {
		for _, s := range a.Top {
			api = append(api, s.QName)
		}
	}
	if slices.ContainsFunc(api, func(q string) bool { return strings.HasSuffix(q, ".Run") }) || !slices.ContainsFunc(api, func(q string) bool { return strings.HasSuffix(q, ".Lib") }) {
		t.Errorf("public API %v: want lib.Lib and not package main's Run", api)
	}
}
