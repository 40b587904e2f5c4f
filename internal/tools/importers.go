package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/change"
)

// ImportersIn are the arguments of importers.
type ImportersIn struct {
	Target    string `json:"target" jsonschema:"a file, a directory (its package), a Go import path, a Python dotted module, a JVM package or .NET or PHP namespace, or a symbol's name (its file)"`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"a directory with every file below it, not only its own package"`
	Depth     int    `json:"depth,omitempty" jsonschema:"list importing packages up to this many import hops (default 1, at most 10); the counts cover every hop"`
	View
	Common
}

// ImportersBudget bounds the importing files listed per page.
var ImportersBudget = Budget{100, 1000}

func init() {
	Register(Tool{
		Name: "importers", Group: "read", Fresh: true, Cache: CacheQuery, Paged: true,
		Summary: "Who imports a file, package or module: every file importing it directly, with the line of its import statement, and the importing packages, direct and (with depth) transitive, the ones only tests need marked.",
		Doc: "The target is an indexed file, a directory (its own files: a Go, Python or JVM package; every file below it when it has none of its own, or with recursive), a Go import path, a Python dotted module, a JVM package or .NET or PHP namespace, or else a symbol's name (com.acme.Greeter: its file); exact paths win. " +
			"Imports are the index's resolved import edges (Go import paths, TypeScript/JavaScript specifiers through tsconfig paths and package.json, Python modules: import a.b, from a import b names a and, when it is a module, a.b; Java and Kotlin imports: the file declaring the type, nested type, static member or top-level function named, or whose static members import static a.b.C.* brings in; import a.b.* and C# using: every file of the package or namespace). " +
			"importers lists every importing file (non-test first, then by path; paged by limit and cursor); packages the importing directories by depth (test_only: only tests depend on it; via: a package of the level before that it imports). " +
			"direct and transitive count files and packages at one hop and at any depth, whatever depth lists.",
		When:     []string{"who imports a package, module or file", "which packages depend on a package, directly or transitively, and which only in tests"},
		WhenNot:  []string{"references to one symbol: refs_find", "risk and affected tests of a change: impact_analyze"},
		Examples: []string{`{"target": "internal/store"}`, `{"target": "src/util/dates.ts"}`, `{"target": "django.db.models", "depth": 3}`},
	}, importers)
}

func importers(ctx context.Context, c *Call, in ImportersIn) (*change.ImportersResult, error) {
	limit := c.Clamp("limit", in.Limit, ImportersBudget)
	depth := c.Bound("depth", in.Depth, Budget{1, 10})
	pg, err := c.pager(ctx, "importers", in.Target, in.Recursive, limit)
	if err != nil {
		return nil, err
	}
	res, err := change.Importers(ctx, c.Engine(), c.Env.Changes, change.ImportersParams{Target: in.Target, Recursive: in.Recursive,
		Depth: depth, Limit: limit, Offset: pg.offset})
	if err != nil {
		return nil, err
	}
	c.Saved(res.BytesCovered)
	d, t := res.Direct, res.Transitive
	c.Answer("%s %s: imported by %d files (%d tests) in %d packages (%d test-only); %d packages depend on it transitively (%d test-only, %d hops)",
		res.Target.Kind, res.Target.Path, d.Files, d.TestFiles, d.Packages, d.TestOnlyPackages, t.Packages, t.TestOnlyPackages, t.Depth)
	pg.done(ctx, "importers", len(res.Importers), res.NextOffset, d.Files, res.More)
	if t.Depth > depth && depth < 10 {
		args := map[string]any{"target": in.Target, "depth": min(t.Depth, 10)}
		if in.Recursive {
			args["recursive"] = true
		}
		c.Next("importers", args, "list the transitive importing packages too")
	}
	return res, nil
}
