package cards

import (
	"cmp"
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
)

// The graph joins cards and code: card relations (as declared, and their
// generated reverse edges), @see links (code -> card, type "see") and the
// index's code relations (imports, calls, extends, implements). Every
// traversal keeps a visited set, so cycles end it, and stops at a node
// budget, reporting that it did.

// Node is a card or a code entity met by a traversal.
type Node struct {
	ID       string             `json:"id"`
	Type     string             `json:"type"` // card or code
	Depth    int                `json:"depth"`
	Status   string             `json:"status,omitempty"`
	Summary  string             `json:"summary,omitempty"`
	Kind     string             `json:"kind,omitempty"`
	QName    string             `json:"qualified_name,omitempty"`
	Location *protocol.Location `json:"location,omitempty"`
	// Missing: a card key that no card file defines (a dangling target).
	Missing bool `json:"missing,omitempty"`
	// Via is the node the traversal reached it from.
	Via string `json:"via,omitempty"`
}

// Edge is a relation between two nodes, in its declared direction.
type Edge struct {
	From string `json:"from"`
	To   string `json:"to"`
	Type string `json:"type"`
}

// direction of a traversal.
type direction int

const (
	both     direction = iota // every relation, either way (subgraph, trace)
	affected                  // what a change reaches (impact)
)

// Filter narrows a traversal.
type Filter struct {
	// Types keeps only edges of these types (relation types, see, imports,
	// calls, extends, implements); all when empty.
	Types []string
	// NoCode leaves code entities out: cards and card relations only.
	NoCode bool
}

func (f Filter) keeps(typ string) bool { return len(f.Types) == 0 || slices.Contains(f.Types, typ) }

// step is an edge from the node at hand to another.
type step struct {
	edge  Edge
	other string
}

// perNode caps the code relations read from one node.
const perNode = 50

// neighbors lists a node's edges in a direction.
func (v *View) neighbors(ctx context.Context, id string, dir direction, f Filter) ([]step, error) {
	var out []step
	add := func(e Edge, other string) {
		if f.keeps(e.Type) {
			out = append(out, step{e, other})
		}
	}
	if !IsEntityKey(id) {
		for _, r := range v.m.rels[id] {
			switch {
			case r.Reverse:
				add(Edge{From: r.Dst, To: id, Type: r.Type}, r.Dst)
			case dir == both:
				add(Edge{From: id, To: r.Dst, Type: r.Type}, r.Dst)
			}
		}
		if f.NoCode {
			return out, nil
		}
		for _, l := range v.m.linksOf(id) {
			e, err := v.linkEntity(ctx, l)
			if err != nil {
				return nil, err
			}
			add(Edge{From: e.Key, To: id, Type: "see"}, e.Key)
		}
		return dedupSteps(out), nil
	}
	e, err := v.Entity(ctx, id)
	if err != nil {
		return nil, err
	}
	links, err := v.linksAt(ctx, e)
	if dir == affected {
		links, err = v.enclosingLinks(ctx, e)
	}
	if err != nil {
		return nil, err
	}
	for _, l := range links {
		add(Edge{From: e.Key, To: l.Key, Type: "see"}, l.Key)
	}
	edges, err := v.codeEdges(ctx, e, dir == both, true, perNode)
	if err != nil {
		return nil, err
	}
	for _, ce := range edges {
		if ce.out {
			add(Edge{From: e.Key, To: ce.other, Type: ce.typ}, ce.other)
		} else {
			add(Edge{From: ce.other, To: e.Key, Type: ce.typ}, ce.other)
		}
	}
	return dedupSteps(out), nil
}

func dedupSteps(s []step) []step {
	seen := map[step]bool{}
	out := s[:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// node describes a node for an answer.
func (v *View) node(ctx context.Context, id string, depth int) (Node, error) {
	if !IsEntityKey(id) {
		n := Node{ID: id, Type: "card", Depth: depth}
		if c := v.m.card(id); c != nil {
			n.Status, n.Summary = c.Status, c.Summary
		} else {
			n.Missing = true
		}
		return n, nil
	}
	e, err := v.Entity(ctx, id)
	if err != nil {
		return Node{}, err
	}
	loc := e.Location
	return Node{ID: e.Key, Type: "code", Depth: depth, Kind: e.Kind, QName: e.QName, Location: &loc}, nil
}

// start checks and names the node a traversal starts from: a card key or
// a code entity (its canonical key).
func (v *View) start(ctx context.Context, id string) (string, error) {
	if IsEntityKey(id) {
		e, err := v.Entity(ctx, id)
		if err != nil {
			return "", err
		}
		return e.Key, nil
	}
	if v.m.card(id) == nil {
		return "", v.noCard(id)
	}
	return id, nil
}

// noCard is the error for a key no card defines.
func (v *View) noCard(key string) error {
	e := &errs.Error{Kind: errs.NotFound, Msg: "no card " + key, Fixes: []string{"cairn cards search <words> finds it by text", "cairn cards list shows every card"}}
	var near []string
	for _, c := range v.m.cards {
		if c.Key != "" && (containsFold(c.Key, key) || containsFold(key, c.Key)) {
			near = append(near, c.Key)
		}
	}
	if len(near) > 0 {
		if len(near) > 5 {
			near = near[:5]
		}
		e.Details = map[string]any{"did_you_mean": near}
	}
	return e
}

// Graph is the result of a traversal.
type Graph struct {
	Root  string `json:"root"`
	Nodes []Node `json:"nodes"` // by depth, then id
	Edges []Edge `json:"edges"` // by from, to, type
	// Truncated: the node budget stopped the traversal.
	Truncated bool `json:"truncated,omitempty"`
}

// walk runs a breadth-first traversal from root up to hops, visiting at
// most maxNodes nodes.
func (v *View) walk(ctx context.Context, root string, hops, maxNodes int, dir direction, f Filter) (*Graph, error) {
	root, err := v.start(ctx, root)
	if err != nil {
		return nil, err
	}
	depth := map[string]int{root: 0}
	via := map[string]string{}
	order := []string{root}
	edges := map[Edge]bool{}
	g := &Graph{Root: root}
	for i := 0; i < len(order); i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		id := order[i]
		if depth[id] >= hops {
			continue
		}
		steps, err := v.neighbors(ctx, id, dir, f)
		if err != nil {
			return nil, err
		}
		for _, s := range steps {
			if f.NoCode && IsEntityKey(s.other) {
				continue
			}
			if _, seen := depth[s.other]; !seen {
				if len(order) >= maxNodes {
					g.Truncated = true
					continue
				}
				depth[s.other] = depth[id] + 1
				via[s.other] = id
				order = append(order, s.other)
			}
			edges[s.edge] = true
		}
	}
	for _, id := range order {
		n, err := v.node(ctx, id, depth[id])
		if err != nil {
			return nil, err
		}
		n.Via = via[id]
		g.Nodes = append(g.Nodes, n)
	}
	sort.SliceStable(g.Nodes, func(i, j int) bool {
		if g.Nodes[i].Depth != g.Nodes[j].Depth {
			return g.Nodes[i].Depth < g.Nodes[j].Depth
		}
		return g.Nodes[i].ID < g.Nodes[j].ID
	})
	g.Edges = []Edge{}
	for e := range edges {
		g.Edges = append(g.Edges, e)
	}
	sortEdges(g.Edges)
	return g, nil
}

func sortEdges(es []Edge) {
	slices.SortFunc(es, func(a, b Edge) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To), strings.Compare(a.Type, b.Type))
	})
}

// Subgraph is the neighbourhood of a card or code entity: every node
// within hops relations either way.
func (v *View) Subgraph(ctx context.Context, root string, hops, maxNodes int, f Filter) (*Graph, error) {
	return v.walk(ctx, root, hops, maxNodes, both, f)
}

// Impact is what a change to a card or code entity reaches within depth:
// for a card, the cards that declare relations to it and the code linked to
// it; for code, the code that uses it (callers, importers, subtypes) and
// the cards linked to it, to what encloses it or to its file.
type Impact struct {
	Graph
	Cards []Node `json:"cards"` // the cards reached (the root excluded)
	Code  []Node `json:"code"`  // the code entities reached (the root excluded)
}

// Impact computes an Impact.
func (v *View) Impact(ctx context.Context, root string, depth, maxNodes int, f Filter) (*Impact, error) {
	g, err := v.walk(ctx, root, depth, maxNodes, affected, f)
	if err != nil {
		return nil, err
	}
	im := &Impact{Graph: *g, Cards: []Node{}, Code: []Node{}}
	for _, n := range g.Nodes {
		switch {
		case n.ID == g.Root:
		case n.Type == "card":
			im.Cards = append(im.Cards, n)
		default:
			im.Code = append(im.Code, n)
		}
	}
	return im, nil
}

// Path is the shortest chain of relations between two nodes.
type Path struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Found bool   `json:"found"`
	Nodes []Node `json:"nodes"` // from first, to last
	Edges []Edge `json:"edges"` // the relation between consecutive nodes, as declared
	// Explored counts the nodes visited looking for it.
	Explored int `json:"explored"`
}

// Trace finds the shortest path between two nodes, following relations
// either way, up to maxDepth hops and maxNodes visited nodes.
func (v *View) Trace(ctx context.Context, from, to string, maxDepth, maxNodes int, f Filter) (*Path, error) {
	from, err := v.start(ctx, from)
	if err != nil {
		return nil, err
	}
	if to, err = v.start(ctx, to); err != nil {
		return nil, err
	}
	p := &Path{From: from, To: to, Nodes: []Node{}, Edges: []Edge{}}
	type visit struct {
		prev  string
		edge  Edge
		depth int
	}
	seen := map[string]visit{from: {}}
	queue := []string{from}
	for len(queue) > 0 && from != to {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		id := queue[0]
		queue = queue[1:]
		if seen[id].depth >= maxDepth {
			continue
		}
		steps, err := v.neighbors(ctx, id, both, f)
		if err != nil {
			return nil, err
		}
		for _, s := range steps {
			if _, ok := seen[s.other]; ok || len(seen) >= maxNodes {
				continue
			}
			seen[s.other] = visit{prev: id, edge: s.edge, depth: seen[id].depth + 1}
			if s.other == to {
				queue = nil
				break
			}
			queue = append(queue, s.other)
		}
	}
	p.Explored = len(seen)
	if _, ok := seen[to]; !ok {
		return p, nil
	}
	p.Found = true
	var chain []string
	for id := to; ; id = seen[id].prev {
		chain = append(chain, id)
		if id == from {
			break
		}
	}
	slices.Reverse(chain)
	for i, id := range chain {
		n, err := v.node(ctx, id, i)
		if err != nil {
			return nil, err
		}
		p.Nodes = append(p.Nodes, n)
		if i > 0 {
			p.Edges = append(p.Edges, seen[id].edge)
		}
	}
	return p, nil
}
