package change

import (
	"cmp"
	"context"
	"maps"
	"slices"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/query"
)

// refIndex inverts the resolved references of every file: symbol id -> the
// files referencing it, with counts per tier. refs_find answers one symbol by
// scanning the files that mention its name, which costs hundreds of
// milliseconds for a name used across a large repository; impact analysis
// needs the same counts in milliseconds, so it reads them from this view,
// built once and then updated with the files each epoch relinks.
//
// A view is never changed once built: requests of its version may still
// read it while the next version's is made from it.
type refIndex struct {
	// by holds, per target symbol, one entry per referencing file, in file
	// id order.
	by map[int64][]fileRefs
	// fwd holds, per referencing file, the symbols it references: what an
	// update takes out of by before it counts the file again.
	fwd map[int64][]int64
}

// fileRefs counts one file's references to one symbol.
type fileRefs struct {
	file   int64
	proven int32
	strong int32
}

// refIndex returns the reverse-reference view of the request's epoch. A
// request reading through an overlay gets the epoch's view (from the cache)
// with the overlay's files counted again, a copy of its own: the cache never
// holds an overlay's counts.
func (a *analysis) refIndex(ctx context.Context) (*refIndex, error) {
	if a.Overlay() != nil {
		base, err := (&analysis{Engine: a.WithOverlay(nil), cache: a.cache}).refIndex(ctx)
		if err != nil {
			return nil, err
		}
		replaced, own := a.OverlayFileIDs(ctx)
		return base.update(ctx, a.Engine, append(replaced, own...))
	}
	return a.cache.refIndex(a.Version(),
		func() (*refIndex, error) { return buildRefIndex(ctx, a.Engine) },
		func(old *refIndex, from index.Version) (*refIndex, bool, error) {
			files, ok := a.Index().ChangedFiles(from, a.Version())
			if !ok {
				return nil, false, nil
			}
			x, err := old.update(ctx, a.Engine, files)
			return x, err == nil, err
		})
}

func buildRefIndex(ctx context.Context, e *query.Engine) (*refIndex, error) {
	x := &refIndex{by: map[int64][]fileRefs{}, fwd: map[int64][]int64{}}
	err := e.Store().AllLinks(ctx, func(fileID int64, data []byte) error {
		for _, c := range countLinks(fileID, data) {
			x.by[c.target] = append(x.by[c.target], c.fileRefs)
			x.fwd[fileID] = append(x.fwd[fileID], c.target)
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	return x, nil
}

// targetRefs is one file's count of references to one target.
type targetRefs struct {
	target int64
	fileRefs
}

// fileCounts counts one file's references per target: its indexed row, or
// through an overlay the links the overlay derived for its file (none for
// a file it replaces).
func fileCounts(ctx context.Context, e *query.Engine, f int64) ([]targetRefs, error) {
	if e.Overlay() == nil {
		data, err := e.Store().Link(ctx, f)
		return countLinks(f, data), err
	}
	links, err := e.Links(ctx, f)
	return countFileLinks(f, slices.Collect(maps.Values(links))), err
}

// countLinks counts a file's packed references per target, in target order
// (a damaged row counts nothing).
func countLinks(fileID int64, data []byte) []targetRefs {
	links, err := index.DecodeLinks(data)
	if err != nil {
		return nil
	}
	return countFileLinks(fileID, links)
}

// countFileLinks counts a file's resolved references per target, in target
// order.
func countFileLinks(fileID int64, links []index.Link) []targetRefs {
	// Links are sorted by reference, not target: count per target here.
	counts := map[int64]*fileRefs{}
	for _, l := range links {
		c := counts[l.Target]
		if c == nil {
			c = &fileRefs{file: fileID}
			counts[l.Target] = c
		}
		if l.Tier == index.TierProven {
			c.proven++
		} else {
			c.strong++
		}
	}
	out := make([]targetRefs, 0, len(counts))
	for _, t := range slices.Sorted(maps.Keys(counts)) {
		out = append(out, targetRefs{target: t, fileRefs: *counts[t]})
	}
	return out
}

// update makes the view of a later version from this one: the files listed
// (those an epoch wrote references for) are counted again from their rows,
// every other file's counts are kept. This view is left as it is.
func (x *refIndex) update(ctx context.Context, e *query.Engine, files []int64) (*refIndex, error) {
	next := &refIndex{by: maps.Clone(x.by), fwd: maps.Clone(x.fwd)}
	redone := make(map[int64]bool, len(files))
	targets := map[int64]bool{}
	fresh := map[int64][]fileRefs{} // target -> the listed files' new counts
	for _, f := range files {
		redone[f] = true
		for _, t := range x.fwd[f] {
			targets[t] = true
		}
		delete(next.fwd, f)
		counts, err := fileCounts(ctx, e, f)
		if err != nil {
			return nil, err
		}
		for _, c := range counts {
			targets[c.target] = true
			fresh[c.target] = append(fresh[c.target], c.fileRefs)
			next.fwd[f] = append(next.fwd[f], c.target)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	for t := range targets {
		list := make([]fileRefs, 0, len(x.by[t])+len(fresh[t]))
		for _, fr := range x.by[t] {
			if !redone[fr.file] {
				list = append(list, fr)
			}
		}
		list = append(list, fresh[t]...)
		if len(list) == 0 {
			delete(next.by, t)
			continue
		}
		slices.SortFunc(list, func(a, b fileRefs) int { return cmp.Compare(a.file, b.file) })
		next.by[t] = list
	}
	return next, nil
}
