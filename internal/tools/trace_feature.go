package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/graph"
)

// TraceIn are the arguments of trace_feature.
type TraceIn struct {
	Symbol string    `json:"symbol,omitempty" jsonschema:"the entry point: symbol_id, qualified name, path#Qualified.Name, a SCIP symbol or a unique suffix"`
	At     *Position `json:"at,omitempty" jsonschema:"the identifier at a position instead of a name"`
	Depth  int       `json:"depth,omitempty" jsonschema:"levels below the entry point (default 3, at most 6)"`
	Layer  string    `json:"layer,omitempty" jsonschema:"syntactic or semantic only (default: the best per file)"`
	View
	Common
}

// TraceBudget bounds the nodes of a trace.
var TraceBudget = Budget{50, 500}

func init() {
	Register(Tool{
		Name: "trace_feature", Group: "read", Fresh: true,
		Summary: "Call tree from an entry point (a handler, main, a command), depth-limited, cycles marked, each node with its surfaces (routes, config keys, DB tables, ...). Use to follow a feature end to end.",
		Doc: "Children are a node's resolved callees, most-called first, breadth first under limit (default 50 nodes, at most 500). A callee already on the " +
			"path is marked cycle, one expanded elsewhere repeated; neither is expanded again. dynamic_calls and unresolved_calls count the calls " +
			"no edge describes (graph_callees lists them). surfaces holds what the surface providers know about the node.",
		When:     []string{"following a request or command through the code", "what a feature touches: routes, configuration, tables"},
		WhenNot:  []string{"who calls a function: graph_callers", "one level of callees with the dynamic calls: graph_callees"},
		Examples: []string{`{"symbol": "main.main"}`, `{"symbol": "api.HandleLogin", "depth": 4, "limit": 100}`},
	}, traceFeature)
}

func traceFeature(ctx context.Context, c *Call, in TraceIn) (*graph.TraceResult, error) {
	r, err := resolveArg(ctx, c, in.Symbol, in.At)
	if err != nil {
		return nil, err
	}
	depth := c.Bound("depth", in.Depth, DepthBudget)
	limit := c.Bound("limit", in.Limit, TraceBudget)
	res, err := graph.Trace(ctx, c.Engine(), r, graph.TraceParams{Depth: depth, Limit: limit, Layer: in.Layer})
	if err != nil {
		return nil, err
	}
	c.Saved(res.Bytes)
	if res.Truncate {
		c.Truncated("entry.children", res.Nodes, res.Found+1, "limit", "")
	}
	if res.Partial {
		c.Complete(0.5, "the deadline stopped the trace")
	}
	c.Layers(res.Layers...)
	c.Answer("%s: %d nodes in a call tree of depth %d, %d cycles", res.Entry.QName, res.Nodes, depth, res.Cycles)
	c.Next("graph_callees", map[string]any{"symbol": res.Entry.ID, "depth": 1}, "the dynamic and unresolved calls of the entry point")
	return res, nil
}
