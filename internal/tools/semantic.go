package tools

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
)

// SemanticJobs runs the semantic layer's indexer jobs. The service
// implements it: the process that owns the index runs them; others ask it.
type SemanticJobs interface {
	// Enqueue adds jobs (or folds them into active ones) and starts them in
	// the background; it returns the jobs that serve the requests.
	Enqueue(ctx context.Context, reqs []semantic.Request) ([]semantic.Job, error)
	// Wait blocks until the jobs end or ctx does, and returns their states.
	Wait(ctx context.Context, ids []int64) ([]semantic.Job, error)
	// Detect lists the indexers that fit the repository's modules.
	Detect(ctx context.Context) ([]semantic.Detected, error)
}

// semanticWarnings adds the freshness warnings of the imported semantic
// indexes (commits behind HEAD, files changed since) when an answer used
// the semantic layer.
func semanticWarnings(ctx context.Context, c *Call) {
	fr, err := c.Engine().SemanticFreshness(ctx)
	if err != nil {
		c.Warn("semantic index freshness unknown: %v", err)
		return
	}
	for _, f := range fr {
		if f.Warning != "" {
			c.Warn("%s", f.Warning)
		}
	}
}

// refsCompleteness scores a references answer: 1 when the semantic layer
// answered for every file, less by the share of references that came from
// syntax or stayed anchored.
func refsCompleteness(c *Call, res *query.RefsResult) {
	sem := res.Semantic
	switch sem.State {
	case "used":
		if res.AnchoredTotal == 0 {
			c.Complete(1, "full-backend: semantic layer ("+strings.Join(sem.Symbols, ", ")+")")
			return
		}
	case "partial":
		semantic := res.Summary.ByLayer[query.LayerSemantic]
		all := res.Summary.Total + res.AnchoredTotal
		score := 1.0
		if all > 0 {
			score = float64(semantic) / float64(all)
		}
		if sem.FallbackTotal > 0 {
			c.Complete(score, fmt.Sprintf("index-stale: %d files answered from syntactic facts (%s)", sem.FallbackTotal, fallbackSummary(sem)))
		} else {
			c.Complete(score, "index-stale: "+sem.Reason)
		}
		return
	}
	if res.AnchoredTotal > 0 {
		resolved := float64(res.Summary.Total) / float64(res.Summary.Total+res.AnchoredTotal)
		c.Complete(resolved, "syntactic layer: anchored references are same-name matches it could not prove")
	}
}

func fallbackSummary(sem query.SemanticUse) string {
	reasons := map[string]int{}
	for _, f := range sem.Fallback {
		reasons[f.Reason]++
	}
	var parts []string
	for _, r := range []string{"changed since the semantic index", "not in the semantic index"} {
		if reasons[r] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", reasons[r], r))
			delete(reasons, r)
		}
	}
	rest := slices.Sorted(maps.Keys(reasons))
	for _, r := range rest {
		parts = append(parts, fmt.Sprintf("%d %s", reasons[r], r))
	}
	if sem.FallbackTotal > len(sem.Fallback) {
		parts = append(parts, fmt.Sprintf("listed %d of %d", len(sem.Fallback), sem.FallbackTotal))
	}
	return strings.Join(parts, ", ")
}
