package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/cards"
)

// Traversal budgets: hops/depth and the nodes one traversal visits.
var (
	HopsBudget  = Budget{2, 6}
	NodesBudget = Budget{200, 2000}
)

// CardGraphIn are the arguments of card_subgraph and card_impact.
type CardGraphIn struct {
	Key    string   `json:"key" jsonschema:"a card key, or a code entity: module:<path>, symbol:<path>#<Name.Path> or a symbol id"`
	Depth  int      `json:"depth,omitempty" jsonschema:"hops from the start (card_subgraph default 2, card_impact default 3; at most 6)"`
	Types  []string `json:"types,omitempty" jsonschema:"only edges of these types: relation types, see, imports, calls, extends, implements"`
	NoCode bool     `json:"no_code,omitempty" jsonschema:"cards and card relations only, no code entities"`
	Nodes  int      `json:"max_nodes,omitempty" jsonschema:"at most this many nodes (default 200, at most 2000)"`
	Base
}

func (in CardGraphIn) filter() cards.Filter { return cards.Filter{Types: in.Types, NoCode: in.NoCode} }

// CardTraceIn are the arguments of card_trace.
type CardTraceIn struct {
	From   string   `json:"from" jsonschema:"a card key or code entity"`
	To     string   `json:"to" jsonschema:"a card key or code entity"`
	Depth  int      `json:"depth,omitempty" jsonschema:"longest path looked for, in hops (default 6, at most 12)"`
	Types  []string `json:"types,omitempty" jsonschema:"only edges of these types"`
	NoCode bool     `json:"no_code,omitempty" jsonschema:"through cards only"`
	Nodes  int      `json:"max_nodes,omitempty" jsonschema:"at most this many nodes explored (default 2000, at most 20000)"`
	Base
}

var (
	traceDepth = Budget{6, 12}
	traceNodes = Budget{2000, 20000}
)

func init() {
	registerCards(Tool{
		Name: "card_subgraph", Group: "cards", Fresh: true,
		Summary:  "The neighbourhood of a card or code entity within N hops (default 2): card relations either way, @see links between cards and code, and code relations (imports, calls, extends, implements), as nodes and edges; cycles are visited once. Filter by edge types or leave code out.",
		Doc:      "Edges keep their declared direction: from the card that declares a relation to its target, from code to the card it links (type see), from importer to imported, caller to callee, subtype to supertype. A node budget (max_nodes) stops large neighbourhoods; truncated says so.",
		When:     []string{"the context of a requirement: related cards and the code around them", "how a file or function connects to the cards"},
		WhenNot:  []string{"what a change reaches, in one direction: card_impact", "one path between two nodes: card_trace"},
		Examples: []string{`{"key": "auth/login"}`, `{"key": "auth/login", "depth": 3, "no_code": true}`},
	}, cardSubgraph)
	registerCards(Tool{
		Name: "card_impact", Group: "cards", Fresh: true,
		Summary:  "What a change to a card or code entity reaches within a depth (default 3): from a card, the cards that declare relations to it and the code linked to it; from code, the code that uses it (callers, importers, subtypes) and the cards linked to any of it. Lists the cards and code reached, with their depth.",
		When:     []string{"before changing a requirement: which cards and code follow", "before changing code: which requirements it touches"},
		WhenNot:  []string{"symbol-level blast radius with tests and risk: impact_analyze", "the undirected neighbourhood: card_subgraph"},
		Examples: []string{`{"key": "auth/session"}`, `{"key": "module:src/auth/session.ts", "depth": 2}`},
	}, cardImpact)
	registerCards(Tool{
		Name: "card_trace", Group: "cards", Fresh: true,
		Summary:  "The shortest chain of relations between two cards or code entities (card relations, @see links and code relations, followed either way), or found: false.",
		When:     []string{"how a requirement reaches a piece of code, or two requirements relate"},
		WhenNot:  []string{"everything around one node: card_subgraph"},
		Examples: []string{`{"from": "auth/login", "to": "auth/token-refresh"}`},
	}, cardTrace)
}

func cardSubgraph(ctx context.Context, c *Call, v *cards.View, in CardGraphIn) (*cards.Graph, error) {
	g, err := v.Subgraph(ctx, in.Key, c.Bound("depth", in.Depth, HopsBudget), c.Bound("max_nodes", in.Nodes, NodesBudget), in.filter())
	if err != nil {
		return nil, err
	}
	if g.Truncated {
		c.Truncated("nodes", len(g.Nodes), 0, "max_nodes", "")
	}
	c.Answer("%d nodes and %d edges around %s", len(g.Nodes), len(g.Edges), g.Root)
	return g, nil
}

func cardImpact(ctx context.Context, c *Call, v *cards.View, in CardGraphIn) (*cards.Impact, error) {
	depth := c.Bound("depth", in.Depth, Budget{3, HopsBudget.Cap})
	im, err := v.Impact(ctx, in.Key, depth, c.Bound("max_nodes", in.Nodes, NodesBudget), in.filter())
	if err != nil {
		return nil, err
	}
	if im.Truncated {
		c.Truncated("nodes", len(im.Nodes), 0, "max_nodes", "")
	}
	c.Answer("a change to %s reaches %d cards and %d code entities within %d hops", im.Root, len(im.Cards), len(im.Code), depth)
	return im, nil
}

func cardTrace(ctx context.Context, c *Call, v *cards.View, in CardTraceIn) (*cards.Path, error) {
	p, err := v.Trace(ctx, in.From, in.To, c.Bound("depth", in.Depth, traceDepth), c.Bound("max_nodes", in.Nodes, traceNodes),
		cards.Filter{Types: in.Types, NoCode: in.NoCode})
	if err != nil {
		return nil, err
	}
	if p.Found {
		c.Answer("%s reaches %s in %d hops", p.From, p.To, len(p.Edges))
	} else {
		c.Answer("no path from %s to %s (%d nodes explored)", p.From, p.To, p.Explored)
	}
	return p, nil
}
