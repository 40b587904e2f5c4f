package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairnhq/cairn/internal/repomap"
)

// MapIn are the arguments of map_repo.
type MapIn struct {
	Include []string `json:"include,omitempty" jsonschema:"sections (default all): structure, languages, modules, entry_points, dependencies, test_layout, public_api"`
	Depth   int      `json:"depth,omitempty" jsonschema:"structure depth (default 2, max 6)"`
	Top     int      `json:"top,omitempty" jsonschema:"public_api symbols per module (default 10, max 50)"`
	View
	Common
}

// Budgets of map_repo.
var (
	MapListBudget  = Budget{50, 500} // entries per list
	MapDepthBudget = Budget{2, 6}
	MapTopBudget   = Budget{10, 50}
)

func init() {
	Register(Tool{
		Name: "map_repo", Group: "read", Fresh: true, Cache: CacheView,
		Summary: "The repository's shape: structure, languages, modules, entry points, dependencies, tests, public API.",
		Doc: "Sections (include, default all): structure (directories to depth with files, bytes and languages, plus root files); languages (files, bytes, share); modules (from manifests: name, root, kind, manifest, files); " +
			"entry_points (Go package main with func main, Python __main__ guards and __main__.py, pyproject scripts, package.json main/module/bin/exports, main.* and index.* at module roots); " +
			"dependencies (go.mod require and tool, package.json dependency maps, pyproject and requirements*.txt, by scope); test_layout (test files per language by naming convention, colocated or apart, busiest directories); " +
			"public_api (public symbols per module by kind, and the top ones: types, then functions). With every section, a repository with spec cards also gets cards: cards by status and code files with and without @see links. Every list is bounded by limit (default 50, at most 500); what was cut is in provenance.truncations.",
		When:     []string{"first look at an unfamiliar repository, after describe", "finding where programs start, what a module depends on, or where its tests live"},
		WhenNot:  []string{"the files of one directory: list_files", "finding code by content or name: search"},
		Examples: []string{`{}`, `{"include": ["entry_points", "dependencies"]}`, `{"include": ["structure"], "depth": 3}`},
	}, mapRepo)
}

func mapRepo(ctx context.Context, c *Call, in MapIn) (*repomap.Map, error) {
	p := repomap.Params{
		Include: in.Include,
		Depth:   c.Bound("depth", in.Depth, MapDepthBudget),
		Limit:   c.Clamp("limit", in.Limit, MapListBudget),
		Top:     c.Bound("top", in.Top, MapTopBudget),
	}
	res, err := repomap.Build(ctx, c.Engine(), p)
	if err != nil {
		return nil, err
	}
	for _, cut := range res.Cuts {
		c.Truncated(cut.Field, cut.Returned, cut.Total, "limit", "")
	}
	if len(res.Cuts) > 0 && p.Limit < MapListBudget.Cap {
		c.Next("map_repo", map[string]any{"include": in.Include, "limit": MapListBudget.Cap}, "some lists were cut at the limit")
	}
	var parts []string
	files := 0
	if s := res.Structure; s != nil {
		files = s.Files
		parts = append(parts, fmt.Sprintf("%d files", s.Files))
	}
	if res.Languages != nil {
		if res.Structure == nil {
			for _, l := range *res.Languages {
				files += l.Files
			}
		}
		parts = append(parts, fmt.Sprintf("languages: %s", parsedLanguages(*res.Languages)))
	}
	if res.Modules != nil {
		parts = append(parts, fmt.Sprintf("%d modules", len(*res.Modules)))
	}
	if res.EntryPoints != nil {
		parts = append(parts, fmt.Sprintf("%d entry points", len(*res.EntryPoints)))
	}
	if res.Dependencies != nil {
		n := 0
		for _, d := range *res.Dependencies {
			n += d.Total
		}
		parts = append(parts, fmt.Sprintf("%d dependencies in %d manifests", n, len(*res.Dependencies)))
	}
	if res.TestLayout != nil {
		parts = append(parts, fmt.Sprintf("%d test files", res.TestLayout.Files))
	}
	if res.PublicAPI != nil {
		n := 0
		for _, a := range *res.PublicAPI {
			n += a.Public
		}
		parts = append(parts, fmt.Sprintf("%d public symbols", n))
	}
	if len(in.Include) == 0 {
		if res.Cards = c.cardsSummary(ctx); res.Cards != nil {
			parts = append(parts, fmt.Sprintf("%d spec cards, %d of %d code files linked", res.Cards.Cards, res.Cards.LinkedFiles, res.Cards.LinkedFiles+res.Cards.UnlinkedFiles))
		}
	}
	c.Answer("%s", strings.Join(parts, "; "))
	// Learning the same by hand means at least listing the tree and opening the manifests.
	c.Saved(int64(files) * 60)
	if res.EntryPoints != nil {
		for _, ep := range *res.EntryPoints {
			if ep.Indexed {
				c.Next("read_source", map[string]any{"path": ep.Path, "start_line": max(ep.Line, 1)}, "read the first entry point")
				break
			}
		}
	}
	return res, nil
}
