package tools

import (
	"context"
	"fmt"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// GitLogIn are the arguments of git_log.
type GitLogIn struct {
	Rev         string   `json:"rev,omitempty" jsonschema:"where to start (default HEAD), or a range such as main..HEAD"`
	Paths       []string `json:"paths,omitempty" jsonschema:"only commits that touch these repo paths"`
	Symbol      string   `json:"symbol,omitempty" jsonschema:"only commits that changed this symbol's lines (git log -L over its definition)"`
	Since       string   `json:"since,omitempty" jsonschema:"only commits after this date (2024-01-31, '2 weeks ago')"`
	Until       string   `json:"until,omitempty" jsonschema:"only commits before this date"`
	Author      string   `json:"author,omitempty" jsonschema:"only commits whose author matches this pattern"`
	Grep        string   `json:"grep,omitempty" jsonschema:"only commits whose message matches this pattern"`
	FirstParent bool     `json:"first_parent,omitempty" jsonschema:"follow only the first parent of merges"`
	NoMerges    bool     `json:"no_merges,omitempty" jsonschema:"leave out merge commits"`
	Files       bool     `json:"files,omitempty" jsonschema:"list the paths each commit touched"`
	Common
}

// GitLogOut is a page of commits, newest first.
type GitLogOut struct {
	Commits []gitx.Commit `json:"commits"`
	// Symbol and Span say which lines a symbol filter followed.
	Symbol *query.SymbolRef   `json:"symbol,omitempty"`
	Span   *protocol.Location `json:"span,omitempty"`
}

func init() {
	registerGit(Tool{
		Name: "git_log", Group: "git", Paged: true,
		Summary: "Commits newest first, paged with a cursor: filter by revision or range, paths, a symbol (the commits that changed its lines), dates, author or message.",
		Doc: "Each commit has its id, parents, author and committer with ISO 8601 times, subject and body; files: true adds the paths it touched. " +
			"The cursor pins the first page's start commit, so later pages stay consistent when new commits arrive. " +
			"symbol follows the definition's lines back through history with git log -L (the lines of HEAD; when the file has local changes the span is the working tree's and a warning says so).",
		When:     []string{"who changed something and why", "the commits of a branch or a range", "the history of one function or type (symbol)"},
		WhenNot:  []string{"one commit with its diff: git_show", "who last changed each line: git_blame", "a file or symbol's history across renames: git_history"},
		Examples: []string{`{"limit": 10}`, `{"rev": "main..HEAD"}`, `{"paths": ["src/server.go"], "since": "1 month ago"}`, `{"symbol": "Server.Handle"}`},
	}, gitLog)
}

func gitLog(ctx context.Context, c *Call, root string, in GitLogIn) (*GitLogOut, error) {
	paths, err := c.gitPaths(ctx, in.Paths)
	if err != nil {
		return nil, err
	}
	limit := c.Clamp("limit", in.Limit, ResultsBudget)
	key := []any{"git_log", in.Rev, paths, in.Symbol, in.Since, in.Until, in.Author, in.Grep, in.FirstParent, in.NoMerges, in.Files}
	cur, err := decodeGitCursor(in.Cursor, key)
	if err != nil {
		return nil, err
	}
	out := &GitLogOut{}
	o := gitx.LogOptions{Paths: paths, Since: in.Since, Until: in.Until, Author: in.Author, Grep: in.Grep,
		FirstParent: in.FirstParent, NoMerges: in.NoMerges, Files: in.Files, Limit: limit + 1}
	if in.Symbol != "" {
		if len(paths) > 0 {
			return nil, errs.E(errs.InvalidArgument, "give symbol or paths, not both")
		}
		if out.Symbol, out.Span, o.Lines, err = c.symbolLines(ctx, root, in.Symbol); err != nil {
			return nil, err
		}
	}
	start := in.Rev
	if cur != nil {
		start, o.Skip = cur.Rev, cur.Offset
	} else if start == "" || !isRange(start) {
		if start, err = commitOf(ctx, root, start); err != nil {
			return nil, err
		}
	}
	o.Rev = start
	commits, err := gitx.Log(ctx, root, o)
	if err != nil {
		return nil, gitError(err)
	}
	more := len(commits) > limit
	if more {
		commits = commits[:limit]
	}
	out.Commits = commits
	if more {
		c.Truncated("commits", len(commits), 0, "limit", encodeGitCursor(start, o.Skip+len(commits), key))
	}
	what := "commits"
	if out.Symbol != nil {
		what = fmt.Sprintf("commits changed %s (%s:%d-%d)", out.Symbol.QName, out.Span.Path, out.Span.Line, out.Span.EndLine)
	}
	c.Answer("%d %s%s", len(commits), what, map[bool]string{true: "; more with the cursor", false: ""}[more])
	if len(commits) > 0 {
		c.Next("git_show", map[string]any{"rev": commits[0].OID}, "the newest commit with its diff")
	}
	return out, nil
}

func isRange(rev string) bool {
	for i := 0; i+1 < len(rev); i++ {
		if rev[i] == '.' && rev[i+1] == '.' {
			return true
		}
	}
	return false
}

// symbolLines resolves a symbol to its definition's span and to the lines
// of it that history follows back, warning when its file has local changes.
func (c *Call) symbolLines(ctx context.Context, root, name string) (*query.SymbolRef, *protocol.Location, *gitx.LineRange, error) {
	ref, span, err := c.symbolSpan(ctx, name)
	if err != nil {
		return nil, nil, nil, err
	}
	c.warnDirty(ctx, root, string(span.Path))
	return ref, &span, &gitx.LineRange{Path: string(span.Path), Start: span.Line, End: span.EndLine}, nil
}

// warnDirty warns when a file has local changes: line spans taken from the
// index (the working tree) may not be HEAD's.
func (c *Call) warnDirty(ctx context.Context, root, path string) {
	st, err := gitx.GetStatus(ctx, root, path)
	if err == nil && !st.Clean {
		c.Warn("%s has local changes: its lines in the working tree may differ from HEAD's, which history follows", path)
	}
}
