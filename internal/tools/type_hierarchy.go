package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/graph"
)

// HierarchyIn are the arguments of type_hierarchy.
type HierarchyIn struct {
	Symbol string    `json:"symbol,omitempty" jsonschema:"a type: symbol_id, qualified name, path#Qualified.Name, a SCIP symbol or a unique suffix"`
	At     *Position `json:"at,omitempty" jsonschema:"the identifier at a position instead of a name"`
	Layer  string    `json:"layer,omitempty" jsonschema:"syntactic to leave the semantic layer out"`
	Common
}

func init() {
	Register(Tool{
		Name: "type_hierarchy", Group: "read", Fresh: true,
		Summary: "Base types, interfaces, subtypes and implementations of a type, each saying where it comes from: declared (syntax), method sets (syntax: Go and TypeScript interfaces satisfied by methods declared, promoted through embedded types or inherited) or the semantic layer.",
		Doc: "supertypes and subtypes follow extends and embeds transitively (depth says how far); interfaces lists what the type implements: declared " +
			"(also through its base classes), by method set where the language is structural (a type that never names the interface), and from " +
			"the semantic layer's implementation relationships (also interfaces outside the repository, by SCIP symbol). For an interface, " +
			"implementations and its method set. Method sets compare method names, not signatures; unknown_supertypes lists supertypes declared " +
			"outside the repository, whose methods syntax cannot see. A member names its type.",
		When:     []string{"which types implement an interface, including those that never name it", "what a class inherits from"},
		WhenNot:  []string{"calls through an interface: graph_callees lists them with their candidates"},
		Examples: []string{`{"symbol": "io.Store"}`, `{"symbol": "src/shapes.ts#Shape"}`},
	}, typeHierarchy)
}

func typeHierarchy(ctx context.Context, c *Call, in HierarchyIn) (*graph.HierarchyResult, error) {
	r, err := resolveArg(ctx, c, in.Symbol, in.At)
	if err != nil {
		return nil, err
	}
	limit := c.Bound("limit", in.Limit, ResultsBudget)
	res, err := graph.Hierarchy(ctx, c.Engine(), r, graph.HierarchyParams{Limit: limit, Layer: in.Layer})
	if err != nil {
		return nil, err
	}
	c.Saved(res.Bytes)
	for _, f := range []struct {
		name string
		n    int
	}{{"supertypes", len(res.Supertypes)}, {"interfaces", len(res.Interfaces)}, {"subtypes", len(res.Subtypes)}, {"implementations", len(res.Implementations)}} {
		c.Shortened(f.name, f.n, res.Totals[f.name], "limit")
	}
	c.Layers(res.Layers...)
	if res.IsInterface {
		c.Answer("interface %s: %d implementations, %d sub-interfaces, %d methods", res.Type.QName, res.Totals["implementations"], res.Totals["subtypes"], len(res.Methods))
	} else {
		c.Answer("%s %s: %d supertypes, %d interfaces, %d subtypes", res.Type.Kind, res.Type.QName, res.Totals["supertypes"], res.Totals["interfaces"], res.Totals["subtypes"])
	}
	if len(res.Unknown) > 0 {
		c.Complete(0.8, "supertypes outside the repository: their methods are unknown to syntax")
	}
	if res.Semantic == "unavailable" {
		c.Next("index_ensure", map[string]any{"semantic": true}, "the semantic layer adds implementation relationships syntax cannot see")
	}
	return res, nil
}
