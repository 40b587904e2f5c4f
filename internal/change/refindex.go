package change

import (
	"context"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/query"
)

// refIndex inverts the resolved references of every file: symbol id -> the
// files referencing it, with counts per tier. refs_find answers one symbol by
// scanning the files that mention its name, which costs hundreds of
// milliseconds for a name used across a large repository; impact analysis
// needs the same counts in milliseconds, so it reads them from this view,
// built once per epoch.
type refIndex struct {
	// by holds, per target symbol, one entry per referencing file.
	by map[int64][]fileRefs
}

// fileRefs counts one file's references to one symbol.
type fileRefs struct {
	file   int64
	proven int32
	strong int32
}

// refIndex returns the reverse-reference view of the request's epoch.
func (a *analysis) refIndex(ctx context.Context) (*refIndex, error) {
	return a.cache.refIndex(a.Version(), func() (*refIndex, error) { return buildRefIndex(ctx, a.Engine) })
}

func buildRefIndex(ctx context.Context, e *query.Engine) (*refIndex, error) {
	x := &refIndex{by: map[int64][]fileRefs{}}
	err := e.Store().AllLinks(ctx, func(fileID int64, data []byte) error {
		links, err := index.DecodeLinks(data)
		if err != nil {
			return nil // a damaged row counts nothing
		}
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
		for t, c := range counts {
			x.by[t] = append(x.by[t], *c)
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	return x, nil
}
