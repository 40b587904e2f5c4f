package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// GitBlameIn are the arguments of git_blame.
type GitBlameIn struct {
	Path      string `json:"path,omitempty" jsonschema:"the file to blame"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line (1-based; default 1)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line (default: start_line, or the whole file)"`
	Symbol    string `json:"symbol,omitempty" jsonschema:"blame this symbol's definition instead of a path and lines"`
	Rev       string `json:"rev,omitempty" jsonschema:"blame the file as of this revision (default: the working tree)"`
	Content   bool   `json:"content,omitempty" jsonschema:"include each line's text"`
	Common
}

// GitBlameOut is a blame with the symbol it was asked for.
type GitBlameOut struct {
	*gitx.Blame
	Symbol *query.SymbolRef   `json:"symbol,omitempty"`
	Span   *protocol.Location `json:"span,omitempty"`
}

func init() {
	registerGit(Tool{
		Name: "git_blame", Group: "git",
		Summary: "Who last changed each line of a span or of a symbol's definition: runs of lines grouped by commit, each commit with author, time, summary and the lines it owns.",
		Doc: "Lines are numbered as in the blamed revision (the working tree by default; its uncommitted lines are marked uncommitted). " +
			"orig_path and orig_start_line say where a run came from when it moved or its file was renamed.",
		When:     []string{"who wrote a piece of code and in which commit", "how old the lines of a function are (symbol)"},
		WhenNot:  []string{"every commit that touched a symbol, not just the last per line: git_history", "a whole file's commits: git_log with paths"},
		Examples: []string{`{"path": "src/server.go", "start_line": 10, "end_line": 40}`, `{"symbol": "Server.Handle"}`},
	}, gitBlame)
}

func gitBlame(ctx context.Context, c *Call, root string, in GitBlameIn) (*GitBlameOut, error) {
	out := &GitBlameOut{}
	o := gitx.BlameOptions{Rev: in.Rev, Content: in.Content, Start: in.StartLine, End: in.EndLine}
	switch {
	case in.Symbol != "" && in.Path != "":
		return nil, errs.E(errs.InvalidArgument, "give symbol or path, not both")
	case in.Symbol != "":
		ref, span, err := c.symbolSpan(ctx, in.Symbol)
		if err != nil {
			return nil, err
		}
		out.Symbol, out.Span = ref, &span
		o.Path, o.Start, o.End = string(span.Path), span.Line, span.EndLine
		if in.Rev != "" {
			c.warnDirty(ctx, root, o.Path)
		}
	case in.Path != "":
		p, err := c.gitPath(ctx, in.Path)
		if err != nil {
			return nil, err
		}
		o.Path = p
	default:
		return nil, errs.E(errs.InvalidArgument, "name a path (with start_line, end_line) or a symbol")
	}
	if o.End > 0 && o.Start == 0 {
		o.Start = 1
	}
	if o.End > 0 && o.End < o.Start {
		return nil, errs.E(errs.InvalidArgument, "end_line %d is before start_line %d", o.End, o.Start)
	}
	b, err := gitx.GetBlame(ctx, root, o)
	if err != nil {
		return nil, gitError(err)
	}
	out.Blame = b
	lines := 0
	for _, r := range b.Ranges {
		lines += r.End - r.Start + 1
	}
	c.Answer("%s: %d lines last changed by %d commits", o.Path, lines, len(b.Commits))
	if len(b.Commits) > 0 && !b.Commits[0].Uncommitted {
		c.Next("git_show", map[string]any{"rev": b.Commits[0].OID}, "the newest commit among them")
	}
	return out, nil
}
