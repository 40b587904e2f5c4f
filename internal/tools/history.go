package tools

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/history"
	"github.com/cairnhq/cairn/internal/plural"
	"github.com/cairnhq/cairn/internal/protocol"
)

// History beside the index: how often a symbol changed (symbol cards,
// impact's risk) comes from git, bounded in time and cached by HEAD in the
// state dir.

// historyBudget bounds the git work a card or an impact analysis spends on
// history; past it the history is left out with a warning rather than
// slowing the answer.
const historyBudget = 2 * time.Second

// hotWindow is the window in which changes make a symbol hot for risk.
const hotWindow = "90 days ago"

// historySource answers history questions at the worktree's HEAD (Head is
// empty outside git or before the first commit).
func (c *Call) historySource(ctx context.Context) history.Source {
	s := history.Source{Root: c.Env.Paths.Root}
	if !c.Env.Paths.IsGit {
		return s
	}
	// HEAD from the files first: without git, the history then fails
	// with a warning rather than look like a repository with no commits.
	if h, _, ok := gitx.ReadHead(c.Env.Paths.GitDir, c.Env.Paths.GitCommon); ok && h != "" {
		s.Head = h
	} else {
		s.Head, _ = gitx.Head(ctx, s.Root)
	}
	if c.Env.Paths.StateDir != "" {
		s.Cache = history.Cache{Dir: filepath.Join(c.Env.Paths.StateDir, "history")}
	}
	return s
}

// spanHistory is the history of a definition's lines, or nil (with a
// warning when something went wrong rather than there being no history).
func (c *Call) spanHistory(ctx context.Context, span protocol.Location, since string) *history.Summary {
	src := c.historySource(ctx)
	if src.Head == "" || span.Line <= 0 {
		return nil
	}
	hctx, cancel := context.WithTimeout(ctx, historyBudget)
	defer cancel()
	sum, err := src.Symbol(hctx, string(span.Path), span.Line, max(span.EndLine, span.Line), since)
	switch {
	case err == nil:
		return &sum
	case hctx.Err() != nil && ctx.Err() == nil:
		c.Warn("history left out: git log -L took longer than %s", historyBudget)
		c.Volatile()
	case isUntracked(err):
		// a file git does not know has no history
	default:
		c.Warn("history left out: %s", errs.As(gitError(err)).Message())
		c.Volatile()
	}
	return nil
}

// isUntracked recognises git log -L refusing a file HEAD does not have, or
// lines past its end (a file changed since HEAD).
func isUntracked(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "no path") || strings.Contains(msg, "has only")
}

// addChurnRisk adds how hot the target is (its commits in the last 90
// days) to impact's risk factors. The factor is 0 for code written and
// changed at most once in the window, so the score of quiet code stays what
// the other factors make it; often-changed code scores higher, up to its
// weight.
func (c *Call) addChurnRisk(ctx context.Context, res *change.ImpactResult, span protocol.Location) {
	var sum *history.Summary
	if res.Target.Symbol != nil {
		sum = c.spanHistory(ctx, span, hotWindow)
	} else if src := c.historySource(ctx); src.Head != "" {
		hctx, cancel := context.WithTimeout(ctx, historyBudget)
		if s, err := src.File(hctx, res.Target.Path, hotWindow); err == nil {
			sum = &s
		}
		cancel()
	}
	if sum == nil {
		return
	}
	const weight = 0.1
	v := 0.0
	if sum.Commits > 2 {
		// the commit that wrote it and one change after are not churn;
		// 21 commits in 90 days is as hot as it gets
		v = math.Min(1, math.Log10(float64(sum.Commits-1))/math.Log10(20))
	}
	v = math.Round(v*1e6) / 1e6
	res.Risk.Factors = append(res.Risk.Factors, change.RiskFactor{Name: "churn", Value: v, Weight: weight,
		Input: plural.Count(sum.Commits, "commit", "commits") + " by " + plural.Count(sum.Authors, "author", "authors") + " in the last 90 days"})
	res.Risk.Score = math.Round(math.Min(1, res.Risk.Score+v*weight)*1e6) / 1e6
	switch {
	case res.Risk.Score >= 0.66:
		res.Risk.Level = "high"
	case res.Risk.Score >= 0.33:
		res.Risk.Level = "medium"
	}
}
