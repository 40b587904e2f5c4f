package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/cards"
	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// The cards group: spec cards under .cairn/cards, linked to code with @see
// (internal/cards). Read tools answer from the call's snapshot; write tools
// plan a batch of file edits in cards and apply it through the mutation
// engine, then reindex, like write_source.

// cards opens the call's view of the cards.
func (c *Call) cards(ctx context.Context) (*cards.View, error) {
	return cards.Open(ctx, c.snap)
}

// registerCards declares a card tool: its handler works on the call's view
// of the cards.
func registerCards[In, Out any](t Tool, h func(ctx context.Context, c *Call, v *cards.View, in In) (Out, error)) {
	registerWith(t, func(ctx context.Context, c *Call) (*cards.View, error) { return c.cards(ctx) }, h)
}

// CardDryRun is the dry_run argument every card write takes.
type CardDryRun struct {
	DryRun bool `json:"dry_run,omitempty" jsonschema:"plan only: return the diff without writing"`
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
	res, err := c.write(ctx, mutate.Request{Edits: plan.Edits, DryRun: dry})
	if err != nil {
		return nil, err
	}
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

// symbolCards lists the cards linked to a symbol (by id), for the answers
// of other tools: nil when there are none or the cards cannot be read (a
// symbol's answer does not fail for them).
func (c *Call) symbolCards(ctx context.Context, id protocol.SymbolID) []query.LinkedCard {
	sym, ok := id.Hash()
	if !ok || c.snap == nil {
		return nil
	}
	v, err := c.cards(ctx)
	if err != nil {
		return nil
	}
	linked, err := v.CardsOfSymbol(ctx, sym)
	if err != nil {
		return nil
	}
	var out []query.LinkedCard
	for _, l := range linked {
		out = append(out, query.LinkedCard{Key: l.Key, Status: l.Status, Summary: l.Summary, Via: l.Via, Missing: l.Missing})
	}
	return out
}

// impactCards lists the cards a change to an impact target touches: what
// card_impact reaches from it within two hops (nil when none, or when the
// cards cannot be read), at most ResultsBudget.Default of them, and how
// many there are.
func (c *Call) impactCards(ctx context.Context, t change.ImpactTarget) ([]query.LinkedCard, int) {
	key := cards.ModuleKey(t.Path)
	if t.Symbol != nil {
		key = string(t.Symbol.ID)
	}
	v, err := c.cards(ctx)
	if err != nil {
		return nil, 0
	}
	im, err := v.Impact(ctx, key, 2, NodesBudget.Default, cards.Filter{})
	if err != nil {
		return nil, 0
	}
	var out []query.LinkedCard
	for _, n := range im.Cards {
		lc := query.LinkedCard{Key: n.ID, Status: n.Status, Summary: n.Summary, Via: n.Via, Missing: n.Missing}
		if lc.Via == im.Root {
			lc.Via = "" // linked to the target itself: the answer's target says so
		}
		out = append(out, lc)
	}
	if len(out) > ResultsBudget.Default {
		out = out[:ResultsBudget.Default] // card_impact lists them all
	}
	return out, len(im.Cards)
}

// cardsSummary counts the cards and the code linked to them (nil in a
// repository without cards, or when they cannot be read).
func (c *Call) cardsSummary(ctx context.Context) *query.CardsSummary {
	v, err := c.cards(ctx)
	if err != nil {
		return nil
	}
	n, err := v.Count(ctx)
	if err != nil || n.Cards == 0 {
		return nil
	}
	return &query.CardsSummary{Cards: n.Cards, ByStatus: n.ByStatus, LinkedFiles: n.LinkedFiles, UnlinkedFiles: n.UnlinkedFiles}
}
