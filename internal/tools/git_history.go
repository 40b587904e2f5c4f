package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/history"
	"github.com/cairnhq/cairn/internal/plural"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// GitHistoryIn are the arguments of git_history.
type GitHistoryIn struct {
	Path   string `json:"path,omitempty" jsonschema:"a file: its commits, following renames"`
	Symbol string `json:"symbol,omitempty" jsonschema:"a symbol: the commits that changed its definition's lines"`
	Since  string `json:"since,omitempty" jsonschema:"only commits after this date (2024-01-31, '6 months ago')"`
	Common
}

// GitHistoryOut is a file's or symbol's history: a summary (commits,
// authors, first and last change) and a page of its commits, newest first.
type GitHistoryOut struct {
	Path    string             `json:"path"`
	Symbol  *query.SymbolRef   `json:"symbol,omitempty"`
	Span    *protocol.Location `json:"span,omitempty"`
	Summary history.Summary    `json:"summary"`
	Commits []HistoryCommit    `json:"commits"`
}

// HistoryCommit is one commit of a history; for a file, Path is the file's
// name in that commit (it differs before a rename) and Status what the
// commit did to it.
type HistoryCommit struct {
	OID     string `json:"oid"`
	Author  string `json:"author"`
	Email   string `json:"email"`
	Date    string `json:"date"`
	Subject string `json:"subject"`
	Path    string `json:"path,omitempty"`
	OldPath string `json:"old_path,omitempty"`
	Status  string `json:"status,omitempty"`
}

func init() {
	registerGit(Tool{
		Name: "git_history", Group: "git", Paged: true,
		Summary: "The history of a file (following renames) or of a symbol (every commit that changed its definition's lines, as git log -L finds them): a summary with commit and author counts and first and last change, and the commits newest first, paged.",
		Doc: "For a symbol the lines are its definition's span in HEAD, followed back through edits, moves and renames; when the file has local changes a warning says the span is the working tree's. " +
			"For a file each commit says the file's name in that commit and whether it was added, modified or renamed.",
		When:     []string{"how a function evolved and who changed it", "how often a file changed, and when it was renamed"},
		WhenNot:  []string{"who last changed each line: git_blame", "which files and symbols change most: hotspots"},
		Examples: []string{`{"path": "src/server.go"}`, `{"symbol": "Server.Handle", "since": "1 year ago"}`},
	}, gitHistory)
}

func gitHistory(ctx context.Context, c *Call, root string, in GitHistoryIn) (*GitHistoryOut, error) {
	out := &GitHistoryOut{Commits: []HistoryCommit{}}
	o := gitx.LogOptions{Since: in.Since}
	switch {
	case in.Path != "" && in.Symbol != "":
		return nil, errs.E(errs.InvalidArgument, "give path or symbol, not both")
	case in.Symbol != "":
		var err error
		if out.Symbol, out.Span, o.Lines, err = c.symbolLines(ctx, root, in.Symbol); err != nil {
			return nil, err
		}
		out.Path = string(out.Span.Path)
	case in.Path != "":
		paths, err := c.gitPaths(ctx, []string{in.Path})
		if err != nil {
			return nil, err
		}
		out.Path = paths[0]
		o.Paths, o.Follow, o.Files = paths, true, true
	default:
		return nil, errs.E(errs.InvalidArgument, "name a path or a symbol")
	}
	head, _ := gitx.Head(ctx, root)
	if head == "" {
		if _, err := gitx.ResolveCommit(ctx, root, "HEAD"); errs.Is(err, errs.GitUnavailable) {
			return nil, err // git could not say: not the same as no commits
		}
		return nil, &errs.Error{Kind: errs.NotFound, Msg: "the repository has no commits yet"}
	}
	// The whole history once: the summary counts it, the page shows part.
	o.Rev = head
	all, err := gitx.Log(ctx, root, o)
	if err != nil {
		return nil, gitError(err)
	}
	out.Summary = history.Summarize(all, in.Since)
	limit := c.Clamp("limit", in.Limit, ResultsBudget)
	key := []any{"git_history", out.Path, in.Symbol, in.Since}
	cur, err := decodeGitCursor(in.Cursor, key)
	if err != nil {
		return nil, err
	}
	offset := 0
	if cur != nil {
		if cur.Rev != head {
			return nil, &errs.Error{Kind: errs.Precondition, Msg: "the cursor has expired: HEAD moved since the first page",
				Fixes: []string{"repeat the call without a cursor"}}
		}
		offset = cur.Offset
	}
	page := all[min(offset, len(all)):]
	if len(page) > limit {
		page = page[:limit]
		c.Truncated("commits", limit, len(all), "limit", encodeGitCursor(head, offset+limit, key))
	}
	for _, cm := range page {
		hc := HistoryCommit{OID: cm.OID, Author: cm.Author.Name, Email: cm.Author.Email, Date: cm.Author.Time, Subject: cm.Subject}
		for _, f := range cm.Files {
			hc.Path, hc.OldPath, hc.Status = f.Path, f.OldPath, f.Status
		}
		out.Commits = append(out.Commits, hc)
	}
	name := out.Path
	if out.Symbol != nil {
		name = out.Symbol.QName
	}
	c.Answer("%s: %s by %s, last %s", name, plural.Count(out.Summary.Commits, "commit", "commits"), plural.Count(out.Summary.Authors, "author", "authors"), out.Summary.LastDate)
	if len(all) > 0 {
		c.Next("git_show", map[string]any{"rev": all[0].OID}, "the last change")
	}
	return out, nil
}
