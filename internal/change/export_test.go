package change

import (
	"context"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cairnhq/cairn/internal/query"
)

// CompareViews returns the difference between the views the cache gives
// the engine's version (updated from an earlier version when it can) and
// views built from nothing at that version, and how many of the cache's
// misses so far were served by updates.
func CompareViews(ctx context.Context, e *query.Engine, c *Cache) (diff string, updates int64, err error) {
	cached := &analysis{Engine: e, cache: c}
	g, err := cached.depGraph(ctx)
	if err != nil {
		return "", 0, err
	}
	ri, err := cached.refIndex(ctx)
	if err != nil {
		return "", 0, err
	}
	fresh := &analysis{Engine: e}
	fg, err := fresh.buildDepGraph(ctx)
	if err != nil {
		return "", 0, err
	}
	fri, err := buildRefIndex(ctx, e)
	if err != nil {
		return "", 0, err
	}
	opts := cmp.Options{cmp.AllowUnexported(depGraph{}, refIndex{}, fileRefs{}, importEdge{}), cmpopts.IgnoreFields(depGraph{}, "subs"),
		cmpopts.EquateEmpty()}
	diff = cmp.Diff(normalized(fg, fri), normalized(g, ri), opts)
	return diff, c.deps.updates.Load() + c.refs.updates.Load(), nil
}

// normalized copies the views with the per-file key lists sorted: their
// order follows the order files were added in, which says nothing.
func normalized(g *depGraph, ri *refIndex) [2]any {
	ng := &depGraph{files: g.files, mods: g.mods, byPath: g.byPath, byID: g.byID, rev: g.rev, imp: g.imp,
		imports: g.imports, unresolved: g.unresolved, tests: g.tests, dirFiles: g.dirFiles, pkgFiles: g.pkgFiles,
		symFile: g.symFile, revKeys: sortedLists(g.revKeys), impKeys: sortedLists(g.impKeys)}
	nri := refIndex{by: ri.by, fwd: map[int64][]int64{}}
	for f, ts := range ri.fwd {
		nri.fwd[f] = slices.Sorted(slices.Values(ts))
	}
	return [2]any{ng, &nri}
}

func sortedLists[K comparable](m map[K][]string) map[K][]string {
	out := make(map[K][]string, len(m))
	for k, v := range m {
		out[k] = slices.Sorted(slices.Values(v))
	}
	return out
}
