package graph

import (
	"cmp"
	"context"
	"sort"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// maxNodeSurfaces bounds the surfaces listed per trace node; SurfacesTotal
// counts them all.
const maxNodeSurfaces = 20

// annotate attaches the surfaces written inside n's definition (routes,
// configuration keys, tables, DI, exceptions, logs).
func annotate(e *query.Engine, n *TraceNode) {
	items, total := e.SurfacesIn(n.r, maxNodeSurfaces)
	if items == nil {
		items = []query.SurfaceItem{}
	}
	n.Surfaces = items
	if total > len(items) {
		n.SurfacesTotal = total
	}
}

// TraceParams bounds a trace.
type TraceParams struct {
	Depth int // levels below the entry point
	Limit int // nodes in the tree
	Layer string
}

// TraceNode is one call in the tree.
type TraceNode struct {
	query.SymbolRef
	Depth int `json:"depth"`
	// How the parent calls it (empty for the entry point).
	CallKind string `json:"call_kind,omitempty"`
	Count    int    `json:"count,omitempty"`
	Tier     string `json:"tier,omitempty"`
	Layer    string `json:"layer,omitempty"`
	Line     int    `json:"line,omitempty"` // the call site in the parent's file
	Build    string `json:"build,omitempty"`
	// Surfaces are the node's architectural facts (routes, config, DB, ...).
	Surfaces []query.SurfaceItem `json:"surfaces"`
	// SurfacesTotal counts them when the list was cut.
	SurfacesTotal int `json:"surfaces_total,omitempty"`
	// Dynamic and Unresolved count the node's calls that no edge describes
	// (graph_callees lists them).
	Dynamic    int `json:"dynamic_calls,omitempty"`
	Unresolved int `json:"unresolved_calls,omitempty"`
	// Cycle: the node calls back into one of its ancestors; not expanded.
	Cycle bool `json:"cycle,omitempty"`
	// Repeated: the node is expanded elsewhere in the tree; not again.
	Repeated bool `json:"repeated,omitempty"`
	// Truncated: children exist but the depth or node limit stopped here.
	Truncated bool         `json:"truncated,omitempty"`
	Children  []*TraceNode `json:"children"`

	r      *query.Resolved
	parent *TraceNode
}

// TraceResult is trace_feature's payload.
type TraceResult struct {
	Entry    *TraceNode `json:"entry"`
	Depth    int        `json:"depth"`
	Nodes    int        `json:"nodes"`     // in the tree
	Found    int        `json:"found"`     // calls reached, listed or not
	Cycles   int        `json:"cycles"`    // back edges marked
	Layers   []string   `json:"layers"`    // the layers that answered
	Semantic string     `json:"semantic"`  // as in Result
	Partial  bool       `json:"-"`         // the deadline stopped it
	Bytes    int64      `json:"-"`         // size of the files in the tree
	Truncate bool       `json:"truncated"` // the depth or the limit cut the tree
}

// Trace builds the call tree from an entry point, breadth first so the
// limit is shared fairly among levels: children are the node's callees
// (the semantic layer per file where it describes the file as it is, else
// syntax), most-called first. A callee already on the path is marked as a
// cycle and one already expanded elsewhere as repeated; neither is expanded.
func Trace(ctx context.Context, e *query.Engine, r *query.Resolved, p TraceParams) (*TraceResult, error) {
	w, err := newWalker(ctx, e, p.Layer)
	if err != nil {
		return nil, err
	}
	if p.Limit < 1 {
		p.Limit = 50
	}
	root := &TraceNode{SymbolRef: r.Ref(), Build: query.BuildOf(r), Children: []*TraceNode{}, r: r}
	res := &TraceResult{Entry: root, Depth: p.Depth, Nodes: 1, Bytes: r.File.Size}
	files := map[int64]bool{r.File.ID: true}
	expanded := map[int64]bool{}
	queue := []*TraceNode{root}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if ctx.Err() != nil {
			res.Partial, res.Truncate = true, true
			break
		}
		annotate(e, n)
		out, err := w.outgoing(ctx, n.r)
		if err != nil {
			return nil, err
		}
		n.Dynamic, n.Unresolved = len(out.dynamic), len(out.unresolved)
		if len(out.calls) == 0 {
			continue
		}
		if n.Depth >= p.Depth {
			n.Truncated = true
			continue
		}
		expanded[n.r.Row.ID] = true
		rows, err := w.symbols(ctx, idsOf(out.calls, func(c call) int64 { return c.other }))
		if err != nil {
			return nil, err
		}
		calls := out.calls
		sort.SliceStable(calls, func(i, j int) bool {
			a, b := calls[i], calls[j]
			return cmp.Or(cmp.Compare(b.count, a.count), cmp.Compare(a.tier, b.tier), cmp.Compare(rows[a.other].QName, rows[b.other].QName)) < 0
		})
		for _, c := range calls {
			row, ok := rows[c.other]
			if !ok {
				continue
			}
			res.Found++
			if res.Nodes >= p.Limit {
				n.Truncated, res.Truncate = true, true
				continue
			}
			cr, err := w.resolved(ctx, row)
			if err != nil {
				return nil, err
			}
			if cr == nil {
				continue
			}
			child := &TraceNode{SymbolRef: cr.Ref(), Depth: n.Depth + 1, CallKind: c.kind, Count: c.count, Tier: c.tier.String(),
				Layer: c.layer, Line: c.site.Line, Build: query.BuildOf(cr), Surfaces: []query.SurfaceItem{}, Children: []*TraceNode{}, r: cr, parent: n}
			n.Children = append(n.Children, child)
			res.Nodes++
			if !files[cr.File.ID] {
				files[cr.File.ID] = true
				res.Bytes += cr.File.Size
			}
			switch {
			case onPath(n, row.ID):
				child.Cycle = true
				res.Cycles++
				annotate(e, child)
			case expanded[row.ID] || queued(queue, row.ID):
				child.Repeated = true
				annotate(e, child)
			default:
				queue = append(queue, child)
			}
		}
	}
	for _, n := range queue { // left over when the deadline stopped the walk
		if n.Surfaces == nil {
			n.Surfaces = []query.SurfaceItem{}
		}
	}
	res.Layers, res.Semantic, _ = w.layersUsed()
	return res, nil
}

// onPath reports whether a symbol is n or one of its ancestors.
func onPath(n *TraceNode, id int64) bool {
	for ; n != nil; n = n.parent {
		if n.r.Row.ID == id {
			return true
		}
	}
	return false
}

func queued(q []*TraceNode, id int64) bool {
	for _, n := range q {
		if n.r.Row.ID == id {
			return true
		}
	}
	return false
}

// EntryID is the id of the trace's entry point.
func (t *TraceResult) EntryID() protocol.SymbolID { return protocol.NewSymbolID(t.Entry.r.Row.ID) }
