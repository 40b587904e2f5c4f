package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/cards"
	"github.com/cairnhq/cairn/internal/mutate"
)

// The cards group: spec cards under .cairn/cards, linked to code with @see
// (internal/cards). Read tools answer from the call's snapshot; write tools
// plan a batch of file edits in cards and apply it through the mutation
// engine, then reindex, like write_source.

// cards opens the call's view of the cards.
func (c *Call) cards(ctx context.Context) (*cards.View, error) {
	return cards.Open(ctx, c.snap)
}

// CardWriteOut is the result of a card write: what it changed.
type CardWriteOut struct {
	Card  string         `json:"card,omitempty"`
	Write *mutate.Result `json:"write"`
}

// applyCards applies a planned batch (or, dry, shows it) and reindexes.
func (c *Call) applyCards(ctx context.Context, plan *cards.Plan, dry bool) (*mutate.Result, error) {
	if len(plan.Edits) == 0 {
		return &mutate.Result{DryRun: dry, Files: []mutate.FileDelta{}}, nil
	}
	res, err := c.mutator().Write(ctx, mutate.Request{Edits: plan.Edits, DryRun: dry})
	if err != nil {
		return nil, err
	}
	c.wrote(ctx, res)
	if res.Applied {
		c.Next("edit_undo", map[string]any{}, "revert this write")
	}
	return res, nil
}

// pageOf cuts items to one page of a paged list at field.
func pageOf[T any](ctx context.Context, c *Call, field string, items []T, limit int, key ...any) ([]T, error) {
	pg, err := c.pager(ctx, key...)
	if err != nil {
		return nil, err
	}
	start := min(pg.offset, len(items))
	end := min(start+limit, len(items))
	pg.done(ctx, field, end-start, end, len(items), end < len(items))
	return items[start:end], nil
}
