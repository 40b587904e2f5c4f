package tools

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/history"
	"github.com/cairnhq/cairn/internal/query"
)

// HotspotsIn are the arguments of hotspots.
type HotspotsIn struct {
	Since   string `json:"since,omitempty" jsonschema:"the window's start: a date (2024-01-31) or git's relative form ('6 months ago'; default '1 year ago')"`
	Symbols int    `json:"symbols,omitempty" jsonschema:"how many of the hottest files to break down into symbols (default 5, at most 20)"`
	Common
}

// HotspotsOut ranks files and symbols by change frequency weighted by size.
type HotspotsOut struct {
	Since      string          `json:"since"`
	Head       string          `json:"head"`
	Files      []FileHotspot   `json:"files"`
	FilesTotal int             `json:"files_total"`
	Symbols    []SymbolHotspot `json:"symbols"`
}

// FileHotspot is a file's churn in the window, its size now and its score.
type FileHotspot struct {
	history.FileChurn
	Lines int     `json:"lines"`
	Score float64 `json:"score"`
}

// SymbolHotspot is a symbol's churn in the window and its score.
type SymbolHotspot struct {
	Symbol     query.SymbolRef `json:"symbol"`
	StartLine  int             `json:"start_line"`
	EndLine    int             `json:"end_line"`
	Commits    int             `json:"commits"`
	Authors    int             `json:"authors"`
	LastCommit string          `json:"last_commit"`
	LastDate   string          `json:"last_date"`
	Score      float64         `json:"score"`
}

func init() {
	Register(Tool{
		Name: "hotspots", Group: "read", Fresh: true,
		NoView:  "hotspots ranks files by their commits in git's history, which an overlay does not have",
		Summary: "The files and symbols that change most in a window (git churn: commits, authors, lines changed, last change), ranked by commits weighted by size; hot code is where bugs and conflicts concentrate.",
		Doc: "score = commits x log2(2 + lines), lines being the file's (or the definition's) size now, so size alone never makes a hotspot. " +
			"Files are those that exist now; the hottest files are broken down into their symbols, whose commits are counted by following each definition's lines back through the file's history (as git log -L does). Merges are not counted: their changes are the commits they merge.",
		When:     []string{"finding risky, often-changed code before a refactor or review", "deciding where tests matter most"},
		WhenNot:  []string{"one file's or symbol's commits: git_history", "who depends on a symbol: impact_analyze"},
		Examples: []string{`{}`, `{"since": "3 months ago", "limit": 10}`},
	}, hotspots)
}

func hotspots(ctx context.Context, c *Call, in HotspotsIn) (*HotspotsOut, error) {
	src := c.historySource(ctx)
	if !c.Env.Paths.IsGit {
		return nil, &errs.Error{Kind: errs.Precondition, Msg: "hotspots need git history: this directory is not in a git repository"}
	}
	since := in.Since
	if since == "" {
		since = "1 year ago"
	}
	limit := c.Clamp("limit", in.Limit, ResultsBudget)
	breakdown := c.Bound("symbols", in.Symbols, Budget{5, 20})
	out := &HotspotsOut{Since: since, Head: src.Head, Files: []FileHotspot{}, Symbols: []SymbolHotspot{}}
	if src.Head == "" {
		c.Answer("no commits yet")
		return out, nil
	}
	churn, err := src.Files(ctx, since)
	if err != nil {
		return nil, gitError(err)
	}
	for _, f := range churn {
		lines, ok := countLines(filepath.Join(src.Root, filepath.FromSlash(f.Path)))
		if !ok {
			continue // gone from the tree (renamed or deleted since)
		}
		out.Files = append(out.Files, FileHotspot{FileChurn: f, Lines: lines, Score: history.Score(f.Commits, lines)})
	}
	sort.SliceStable(out.Files, func(i, j int) bool {
		a, b := out.Files[i], out.Files[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.Path < b.Path
	})
	out.FilesTotal = len(out.Files)
	out.Files = shorten(c, "files", out.Files, limit)
	for i := 0; i < len(out.Files) && i < breakdown; i++ {
		syms, err := symbolHotspots(ctx, c, src, out.Files[i].Path, since)
		if err != nil {
			return nil, err
		}
		out.Symbols = append(out.Symbols, syms...)
	}
	sort.SliceStable(out.Symbols, func(i, j int) bool {
		a, b := out.Symbols[i], out.Symbols[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Symbol.Location.Path != b.Symbol.Location.Path {
			return a.Symbol.Location.Path < b.Symbol.Location.Path
		}
		return a.StartLine < b.StartLine
	})
	out.Symbols = shorten(c, "symbols", out.Symbols, limit)
	c.Answer("%d files changed since %s; hottest: %s", out.FilesTotal, since, hottest(out))
	if len(out.Symbols) > 0 {
		c.Next("git_history", map[string]any{"symbol": out.Symbols[0].Symbol.ID}, "the commits of the hottest symbol")
		c.Next("impact_analyze", map[string]any{"symbol": out.Symbols[0].Symbol.ID}, "what depends on it")
	}
	return out, nil
}

func hottest(out *HotspotsOut) string {
	if len(out.Files) == 0 {
		return "none"
	}
	return out.Files[0].Path
}

// symbolHotspots follows every symbol of a file back through the window.
func symbolHotspots(ctx context.Context, c *Call, src history.Source, path, since string) ([]SymbolHotspot, error) {
	defs, err := c.Engine().FileDefs(ctx, path)
	if err != nil || len(defs) == 0 {
		return nil, err
	}
	spans := make([]history.Span, len(defs))
	for i, d := range defs {
		spans[i] = history.Span{Start: d.Span.Line, End: max(d.Span.EndLine, d.Span.Line)}
	}
	churn, err := src.Spans(ctx, path, spans, since)
	if err != nil {
		return nil, gitError(err)
	}
	var out []SymbolHotspot
	for i, d := range defs {
		ch := churn[i]
		if ch.Commits == 0 {
			continue
		}
		out = append(out, SymbolHotspot{Symbol: d.SymbolRef, StartLine: ch.Start, EndLine: ch.End, Commits: ch.Commits, Authors: ch.Authors,
			LastCommit: ch.LastCommit, LastDate: ch.LastDate, Score: history.Score(ch.Commits, ch.End-ch.Start+1)})
	}
	return out, nil
}

// countLines counts a file's lines; false when it does not exist.
func countLines(path string) (int, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n, true
}
