package graph

import (
	"context"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// instantiations narrows c, the calls of constructor n's class by one
// caller (an edge counts them all), to those that can run n, one of the
// constructors ov: the calls only n takes the arguments of count as they
// are, those another takes too make c an anchored candidate; false when
// none can run n.
func (w *walker) instantiations(ctx context.Context, c *call, f *store.FileRow, ov *query.OverloadSet, n *query.Resolved) (bool, error) {
	caller, ok, err := w.row(ctx, c.other)
	if err != nil || !ok || caller.FileID != f.ID {
		return true, err // the caller is elsewhere: keep the edge as it is
	}
	facts, err := w.e.Facts(ctx, f.BlobID)
	if err != nil || facts == nil {
		return true, err
	}
	links, err := w.fileLinks(ctx, f.ID)
	if err != nil {
		return true, err
	}
	only, may := 0, 0
	var first *lang.Ref
	for i, r := range facts.Refs {
		l, ok := links[i]
		if !ok || !query.Instantiates(n, l.Target, r) || int(r.Enclosing) != caller.DefIdx || !ov.Takes(n.Row.ID, r.Args) {
			continue
		}
		if ov.Only(n.Row.ID, r.Args) {
			only++
		} else {
			may++
		}
		if first == nil {
			first = &facts.Refs[i]
		}
	}
	if first == nil {
		return false, nil
	}
	c.count = only + may
	c.site = siteLoc(f.Path, int(first.Pos.Line), int(first.Pos.Col), facts.Names[first.Name])
	if only == 0 {
		c.tier = index.TierAnchored
	}
	return true, nil
}
