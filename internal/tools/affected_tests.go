package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/change"
)

// AffectedIn are the arguments of affected_tests.
type AffectedIn struct {
	Files    []string `json:"files,omitempty" jsonschema:"changed repo paths; default: the files of the working tree that differ from base"`
	Base     string   `json:"base,omitempty" jsonschema:"with no files: the git revision to compare the working tree with (default HEAD)"`
	MaxDepth int      `json:"max_depth,omitempty" jsonschema:"import hops to follow back from a changed file (default 3, at most 6)"`
	View
	Common
}

func init() {
	Register(Tool{
		Name: "affected_tests", Group: "read", Fresh: true, Paged: true,
		Summary: "Test files that changed files reach through the reverse import graph (and the same Go, JVM or .NET package), with per-test confidence (high: imports a changed file or shares its package; low: reached through other files), a complete/partial verdict with reasons, and coverage gaps (changed files no test reaches).",
		Doc: "Tests are recognised by each language's conventions: Go *_test.go; Python test_*.py, *_test.py, tests/; JS/TS *.test.*, *.spec.*, __tests__/; Java/Kotlin *Test, *Tests, *IT, src/test/; C# *Tests.cs, *.Tests/ projects; Rust tests/ and files with #[cfg(test)]; Ruby *_spec.rb, test_*.rb; PHP *Test.php. " +
			"Without files, the changed files are those of the working tree that differ from base (default HEAD). partial lists why: changed files that are not code, files not in the graph, test files with unresolved local imports, or walk bounds. Nothing uncertain is silently added or dropped.",
		When:     []string{"choosing which tests to run after a change", "finding changed code no test covers"},
		WhenNot:  []string{"running tests: test_run", "what a symbol's change would break: impact_analyze"},
		Examples: []string{`{}`, `{"files": ["pkg/api/types.go"]}`, `{"base": "main"}`},
	}, affectedTests)
}

func affectedTests(ctx context.Context, c *Call, in AffectedIn) (*change.AffectedResult, error) {
	e := c.Engine()
	limit := c.Clamp("limit", in.Limit, ReferencesBudget)
	depth := c.Bound("max_depth", in.MaxDepth, Budget{3, 6})
	var files, deleted []string
	var err error
	if len(in.Files) > 0 {
		if files, err = c.repoPaths(ctx, in.Files); err != nil {
			return nil, err
		}
	} else {
		base := in.Base
		if base == "" {
			base = "HEAD"
		}
		if files, deleted, err = change.WorktreeChanges(ctx, e, base); err != nil {
			return nil, err
		}
	}
	pg, err := c.pager(ctx, "affected", files, deleted, depth, limit)
	if err != nil {
		return nil, err
	}
	res, err := change.AffectedTests(ctx, e, c.Env.Changes, change.AffectedParams{Files: files, Deleted: deleted, MaxDepth: depth, Limit: limit, Offset: pg.offset})
	if err != nil {
		return nil, err
	}
	c.Answer("%d tests affected by %d changed files (%d high, %d low confidence); %s; %d coverage gaps", res.Total, len(res.Changed),
		res.High, res.Low, res.Confidence, res.GapsTotal)
	pg.done(ctx, "tests", len(res.Tests), res.NextOffset, res.Total, res.More)
	c.Shortened("coverage_gaps", len(res.CoverageGaps), res.GapsTotal, "limit")
	if res.Confidence == "partial" {
		if len(res.Reasons) > 0 {
			c.Complete(0.7, "partial: "+res.Reasons[0])
		}
		if depth < 6 {
			c.Next("affected_tests", map[string]any{"files": files, "max_depth": 6}, "follow importers further out")
		}
	}
	return res, nil
}
