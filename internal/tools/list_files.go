package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/query"
)

// ListIn are the arguments of list_files.
type ListIn struct {
	Path      string   `json:"path,omitempty" jsonschema:"directory to list (repo-relative, default the root)"`
	Depth     int      `json:"depth,omitempty" jsonschema:"how many levels to expand (default 1)"`
	Glob      string   `json:"glob,omitempty" jsonschema:"only files matching this glob, e.g. **/*_test.go"`
	Languages []string `json:"languages,omitempty" jsonschema:"only files of these languages"`
	View
	Common
}

func init() {
	Register(Tool{
		Name: "list_files", Group: "read", Fresh: true, Paged: true,
		Summary:  "List indexed files and directories under a path with sizes, languages and file counts, depth-limited, filtered by glob or language. Use to orient in a tree; use search to find content.",
		When:     []string{"seeing what is in a directory, with sizes and languages", "finding files by name pattern (glob)"},
		WhenNot:  []string{"the repository's overall shape (modules, entry points, tests): map_repo", "finding files by content: search"},
		Examples: []string{`{}`, `{"path": "pkg", "depth": 2}`, `{"glob": "**/*_test.go"}`},
	}, listFiles)
}

func listFiles(ctx context.Context, c *Call, in ListIn) (*query.ListResult, error) {
	limit := c.Clamp("limit", in.Limit, EntriesBudget)
	pg, err := c.pager(ctx, "ls", in.Path, in.Depth, in.Glob, in.Languages, limit)
	if err != nil {
		return nil, err
	}
	res, err := c.Engine().List(ctx, query.ListParams{Path: in.Path, Depth: in.Depth, Glob: in.Glob, Langs: in.Languages, Limit: limit, Offset: pg.offset})
	if err != nil {
		return nil, err
	}
	where := res.Path
	if where == "" {
		where = "the repository root"
	}
	c.Answer("%d entries under %s", res.Total, where)
	pg.done(ctx, "entries", len(res.Entries), res.NextOffset, res.Total, res.More)
	return res, nil
}
