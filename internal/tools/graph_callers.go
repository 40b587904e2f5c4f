package tools

import (
	"context"
	"fmt"

	"github.com/cairnhq/cairn/internal/graph"
)

// GraphIn are the arguments of graph_callers and graph_callees.
type GraphIn struct {
	Symbol        string    `json:"symbol,omitempty" jsonschema:"symbol_id, qualified name, path#Qualified.Name, a SCIP symbol or a unique suffix"`
	At            *Position `json:"at,omitempty" jsonschema:"the identifier at a position instead of a name"`
	Depth         int       `json:"depth,omitempty" jsonschema:"levels to walk (default 3, at most 6)"`
	LimitPerLevel int       `json:"limit_per_level,omitempty" jsonschema:"new symbols kept per level from depth 2 on, best ranked first (default 10, at most 100; depth 1 is listed whole); limit is the same"`
	Layer         string    `json:"layer,omitempty" jsonschema:"restrict to one layer: syntactic or semantic (default: the semantic layer per file where it describes the file as it is, else syntax)"`
	View
	Common
}

// Budgets of the call graph tools.
var (
	DepthBudget    = Budget{3, 6}
	PerLevelBudget = Budget{10, 100}
	PerNodeBudget  = Budget{10, 10}
)

func init() {
	Register(Tool{
		Name: "graph_callers", Group: "read", Fresh: true, Cache: CacheQuery,
		Summary: "Who calls a symbol, level by level up to depth 6 (default 3): nodes with location and kind, edges with count, tier and layer, calls that may reach it through an interface. Use to see the blast radius of a change.",
		Doc: "Depth 1 (the direct callers) is listed whole; each deeper level keeps its limit_per_level best ranked new callers. Every level ranks the repository's code before its tests, then the root's package and module, then the evidence tier, then the call count; " +
			"the response budget drops the deepest level first, its tests first. levels[] says how many were found (below depth 1, among the callers of the nodes kept above) and kept; a cut level is listed in truncations with how many tests and non-tests it dropped. " +
			"A caller's call_line is the line of its first call. A method's callers include the calls of the interface methods it implements (Go: by method set) and of the base methods it overrides (through and dispatch on the edge). Edges come from resolved call references: " +
			"precise (semantic layer, where an imported SCIP index describes the file as it is), proven or strong (syntax). Calls syntax cannot attribute " +
			"(a method on a value of unknown type) are not edges: refs_find with anchored lists them. A symbol with build-tag or platform variants " +
			"(the same name defined in several files) gets the callers of every variant, and nodes say their build constraint. " +
			"A constructor's callers are those of its class's instantiations (new Box(4), this(4) or super(4) in a constructor, a Kotlin class header's : Box(4)) whose number of arguments only it takes, anchored where another constructor takes it too; " +
			"a Kotlin property use that runs a Java getter or setter (b.foo) is a call of it.",
		When:     []string{"what breaks if this function changes: its callers, transitively", "how a function is reached from entry points"},
		WhenNot:  []string{"every reference, including reads and imports: refs_find", "what a function calls: graph_callees", "a call tree with surfaces from an entry point: trace_feature"},
		Examples: []string{`{"symbol": "server.NewServer"}`, `{"symbol": "rest.Config.Host", "depth": 2, "limit_per_level": 20}`},
	}, func(ctx context.Context, c *Call, in GraphIn) (*graph.Result, error) {
		return callGraph(ctx, c, in, graph.Callers)
	})
}

// callGraph runs graph_callers or graph_callees.
func callGraph(ctx context.Context, c *Call, in GraphIn, direction string) (*graph.Result, error) {
	r, err := resolveArg(ctx, c, in.Symbol, in.At)
	if err != nil {
		return nil, err
	}
	depth := c.Bound("depth", in.Depth, DepthBudget)
	per := in.LimitPerLevel
	if per == 0 {
		per = in.Limit
	}
	per = c.Bound("limit_per_level", per, PerLevelBudget)
	maxChars := c.maxChars()
	res, err := graph.CallGraph(ctx, c.Engine(), r, graph.Params{Direction: direction, Depth: depth, LimitPerLevel: per,
		MaxPerNode: PerNodeBudget.Default, Layer: in.Layer})
	if err != nil {
		return nil, err
	}
	c.Saved(res.BytesCovered)
	if res.OmittedUnresolved > 0 {
		c.Truncated("unresolved", len(res.Unresolved), len(res.Unresolved)+res.OmittedUnresolved, "per_node", "")
	}
	if res.OmittedDynamic > 0 {
		c.Truncated("dynamic", len(res.Dynamic), len(res.Dynamic)+res.OmittedDynamic, "per_node", "")
	}
	c.Layers(res.Layers...)
	if res.Partial {
		c.Truncated("nodes", len(res.Nodes), 0, "deadline", "")
		c.Truncated("levels", len(res.Levels), depth, "deadline", "")
		c.Complete(0.5, "the deadline stopped the walk; deeper levels were not examined")
	}
	switch res.Semantic {
	case "partial", "stale":
		c.Warn("answered from syntax for files changed since the semantic index: %v", res.Fallback)
		c.Next("index_ensure", map[string]any{"semantic": true}, "refresh the semantic index")
	}
	// The payload is fitted to what the envelope leaves of the budget, then
	// described (truncations, answer, next actions); when the description
	// leaves less room than was reserved for it, it is fitted and described
	// again, so that what the answer counts is what the payload holds.
	before := graphSize{len(res.Nodes), len(res.Unresolved), len(res.Dynamic), len(res.External)}
	marks := struct{ truncations, next int }{len(c.truncations), len(c.next)}
	var trim graph.Trim
	room := c.payloadBudget(ctx, maxChars)
	for range fitRounds {
		t := res.Fit(room)
		if !t.Any() && trim.Any() {
			break
		}
		trim.Nodes, trim.Unresolved, trim.Dynamic, trim.External = trim.Nodes+t.Nodes, trim.Unresolved+t.Unresolved, trim.Dynamic+t.Dynamic, trim.External+t.External
		c.truncations, c.next = c.truncations[:marks.truncations], c.next[:marks.next]
		describeGraph(c, res, direction, depth, before, trim)
		if !trim.Any() {
			break
		}
		room = c.payloadRoom(ctx, maxChars)
	}
	return res, nil
}

// graphSize counts a call graph's lists.
type graphSize struct{ nodes, unresolved, dynamic, external int }

// describeGraph states what a fitted call graph holds and left out: a
// truncation per cut level (tests and others dropped) and per list the
// budget cut, the answer line and the next actions.
func describeGraph(c *Call, res *graph.Result, direction string, depth int, before graphSize, trim graph.Trim) {
	found := 0
	var dropped graph.Cut
	for _, l := range res.Levels {
		found += l.Found
		if l.Found > l.Kept && l.Cut.Any() {
			c.TruncatedCode(fmt.Sprintf("nodes[depth=%d]", l.Depth), l.Kept, l.Found, l.Cut.Reason, l.Cut.Tests, l.Cut.NonTests)
			dropped.Tests += l.Cut.Tests
			dropped.NonTests += l.Cut.NonTests
		}
	}
	if trim.Any() {
		for _, l := range []struct {
			field      string
			n, was, by int
		}{{"nodes", len(res.Nodes), before.nodes, trim.Nodes}, {"unresolved", len(res.Unresolved), before.unresolved, trim.Unresolved},
			{"dynamic", len(res.Dynamic), before.dynamic, trim.Dynamic}, {"external", len(res.External), before.external, trim.External}} {
			if l.by > 0 {
				c.Truncated(l.field, l.n, l.was, "max_chars", "")
			}
		}
		c.Next(c.Tool, map[string]any{"symbol": res.Root.ID, "depth": max(depth-1, 1), "max_chars": CharsBudget.Cap}, "the answer was cut to fit max_chars: ask for less depth or a larger budget")
	}
	word := "callers"
	if direction == graph.Callees {
		word = "callees"
	}
	notListed := ""
	if dropped.Any() {
		notListed = fmt.Sprintf(", not listed: %s", dropped)
	}
	c.Answer("%s: %d %s over %d levels (%d found%s), %d edges, %d dynamic, %d unresolved", res.Root.QName, len(res.Nodes)-1, word,
		len(res.Levels), found, notListed, len(res.Edges), len(res.Dynamic), len(res.Unresolved))
	if direction == graph.Callers {
		c.Next("refs_find", map[string]any{"symbol": res.Root.ID, "anchored": true}, "calls syntax cannot attribute (anchored) are not edges: list them")
	} else if len(res.Unresolved) > 0 {
		c.Next("index_ensure", map[string]any{"semantic": true}, "the semantic layer resolves calls on values of unknown type")
	}
}
