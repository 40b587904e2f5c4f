package graph

import (
	"cmp"
	"context"
	"sort"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// levels is one call graph walk in progress: the result so far, the
// frontier of the level to expand next and the edges found to nodes not
// decided yet.
type levels struct {
	w   *walker
	p   Params
	res *Result
	// rootPath and rootModule place the root, for ranking by proximity.
	rootPath   string
	rootModule int64
	seen       map[int64]bool // symbols listed as nodes
	files      map[int64]bool // files counted in res.BytesCovered
	frontier   []*query.Resolved
	pending    []Edge
}

// candidate is a symbol reached at a level, not yet ranked.
type candidate struct {
	id     int64
	weight int    // calls from or to the frontier
	tier   string // the best tier among them
	// site is the first call site of its calls, through the call that
	// names it (callers: in its own file; callees: in the caller's).
	site protocol.Location
	// test: declared in a test file; prox: how near the root (proximity).
	test bool
	prox int
}

// startLevels starts a walk at its root.
func startLevels(ctx context.Context, w *walker, r *query.Resolved, p Params) (*levels, error) {
	res := &Result{Root: r.Ref(), Direction: p.Direction, Depth: p.Depth, Nodes: []Node{}, Edges: []Edge{},
		Levels: []Level{}, Unresolved: []UnresolvedCall{}, Dynamic: []DynamicCall{}, Layers: []string{}}
	root, err := w.node(ctx, r, 0)
	if err != nil {
		return nil, err
	}
	res.Nodes = append(res.Nodes, root)
	res.BytesCovered = r.File.Size
	return &levels{w: w, p: p, res: res, rootPath: r.File.Path, rootModule: r.Row.ModuleID, seen: map[int64]bool{r.Row.ID: true},
		files: map[int64]bool{r.File.ID: true}, frontier: []*query.Resolved{r}}, nil
}

// level walks one level: the neighbours of the frontier, ranked, the best
// kept as the next frontier.
func (l *levels) level(ctx context.Context, d int) error {
	cands := map[int64]*candidate{}
	for _, n := range l.frontier {
		if err := ctx.Err(); err != nil {
			return err
		}
		calls, err := l.neighbours(ctx, n)
		if err != nil {
			return err
		}
		l.weigh(n, calls, cands)
	}
	ranked, err := l.rank(ctx, cands)
	if err != nil {
		return err
	}
	return l.keep(ctx, d, ranked)
}

// neighbours lists a node's callers or callees, and records in the result
// what the node's calls leave open (unresolved, dynamic, external calls).
func (l *levels) neighbours(ctx context.Context, n *query.Resolved) ([]call, error) {
	res, p := l.res, l.p
	if p.Direction == Callers {
		return l.w.incoming(ctx, n)
	}
	out, err := l.w.outgoing(ctx, n)
	if err != nil {
		return nil, err
	}
	res.Unresolved, res.OmittedUnresolved = appendCapped(res.Unresolved, out.unresolved, p.MaxPerNode, res.OmittedUnresolved)
	res.Dynamic, res.OmittedDynamic = appendCapped(res.Dynamic, out.dynamic, p.MaxPerNode, res.OmittedDynamic)
	res.External = append(res.External, out.external...)
	res.BuiltinCalls += out.builtins
	return out.calls, nil
}

// weigh keeps a node's calls as pending edges and adds the symbols not
// listed yet to the level's candidates.
func (l *levels) weigh(n *query.Resolved, calls []call, cands map[int64]*candidate) {
	for _, c := range calls {
		ed := Edge{From: n.ID(), To: protocol.NewSymbolID(c.other), Count: c.count, Tier: c.tier.String(), Layer: c.layer,
			Kind: c.kind, Line: c.site.Line, Via: c.via, Through: c.through, Dispatch: c.dispatch}
		if l.p.Direction == Callers {
			ed.From, ed.To = ed.To, ed.From
		}
		l.pending = append(l.pending, ed)
		if l.seen[c.other] {
			continue
		}
		cd := cands[c.other]
		if cd == nil {
			cd = &candidate{id: c.other, tier: ed.Tier, site: c.site}
			cands[c.other] = cd
		}
		cd.weight += c.count
		if tierRank(ed.Tier) < tierRank(cd.tier) {
			cd.tier = ed.Tier
		}
		if query.LessLoc(c.site, cd.site) {
			cd.site = c.site
		}
	}
}

// rankedCandidate is a candidate with its symbol row.
type rankedCandidate struct {
	c   *candidate
	row store.SymbolRow
}

// rank loads the candidates and orders them: the repository's code before
// its tests, then the nearest the root (its package, then its module), then
// the best tier, then most calls, then by name; symbols that vanished are
// dropped.
func (l *levels) rank(ctx context.Context, cands map[int64]*candidate) ([]rankedCandidate, error) {
	list := make([]*candidate, 0, len(cands))
	for _, c := range cands {
		list = append(list, c)
	}
	rows, err := l.w.symbols(ctx, idsOf(list, func(c *candidate) int64 { return c.id }))
	if err != nil {
		return nil, err
	}
	var fileIDs []int64
	for _, row := range rows {
		fileIDs = append(fileIDs, row.FileID)
	}
	if err := l.w.loadFiles(ctx, fileIDs); err != nil {
		return nil, err
	}
	var rs []rankedCandidate
	for _, c := range list {
		row, ok := rows[c.id]
		if !ok {
			continue
		}
		f, err := l.w.file(ctx, row.FileID)
		if err != nil {
			return nil, err
		}
		if f == nil {
			continue
		}
		c.test = isTestPath(f.Path)
		c.prox = query.Proximity(f.Path, l.rootPath, row.ModuleID, l.rootModule)
		rs = append(rs, rankedCandidate{c, row})
	}
	sort.Slice(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		return cmp.Or(CompareBool(a.c.test, b.c.test), cmp.Compare(a.c.prox, b.c.prox), cmp.Compare(tierRank(a.c.tier), tierRank(b.c.tier)),
			cmp.Compare(b.c.weight, a.c.weight), cmp.Compare(a.row.QName, b.row.QName), cmp.Compare(a.row.ID, b.row.ID)) < 0
	})
	return rs, nil
}

// keep lists the best candidates as nodes of depth d and makes them the
// next frontier: every one at depth 1 (up to maxFirstLevel), the best
// p.LimitPerLevel below.
func (l *levels) keep(ctx context.Context, d int, rs []rankedCandidate) error {
	lvl := Level{Depth: d, Found: len(rs)}
	limit := l.p.LimitPerLevel
	if d == 1 {
		limit = maxFirstLevel
	}
	var next []*query.Resolved
	for i, x := range rs {
		if lvl.Kept == limit {
			for _, y := range rs[i:] {
				lvl.Cut.add(y.c.test)
			}
			lvl.Cut.Reason = "limit_per_level"
			break
		}
		nr, err := l.w.resolved(ctx, x.row)
		if err != nil {
			return err
		}
		if nr == nil {
			continue
		}
		node, err := l.w.node(ctx, nr, d)
		if err != nil {
			return err
		}
		if l.p.Direction == Callers {
			node.CallLine = x.c.site.Line
		}
		l.res.Nodes = append(l.res.Nodes, node)
		l.seen[x.row.ID] = true
		if !l.files[nr.File.ID] {
			l.files[nr.File.ID] = true
			l.res.BytesCovered += nr.File.Size
		}
		next = append(next, nr)
		lvl.Kept++
	}
	l.res.Levels = append(l.res.Levels, lvl)
	l.frontier = next
	return nil
}

// levelMark is where the result stood before a level.
type levelMark struct {
	nodes, edges, unresolved, dynamic, external, omittedU, omittedD, builtins int
	bytes                                                                     int64
}

func (l *levels) mark() levelMark {
	res := l.res
	return levelMark{len(res.Nodes), len(l.pending), len(res.Unresolved), len(res.Dynamic), len(res.External),
		res.OmittedUnresolved, res.OmittedDynamic, res.BuiltinCalls, res.BytesCovered}
}

// rollback drops what a level that did not finish added.
func (l *levels) rollback(at levelMark) {
	res := l.res
	res.Nodes, l.pending = res.Nodes[:at.nodes], l.pending[:at.edges]
	res.Unresolved, res.Dynamic, res.External = res.Unresolved[:at.unresolved], res.Dynamic[:at.dynamic], res.External[:at.external]
	res.OmittedUnresolved, res.OmittedDynamic, res.BuiltinCalls, res.BytesCovered = at.omittedU, at.omittedD, at.builtins, at.bytes
}
