package tools

import (
	"context"
	"fmt"

	"github.com/cairnhq/cairn/internal/graph"
)

// HierarchyIn are the arguments of type_hierarchy.
type HierarchyIn struct {
	Symbol string    `json:"symbol,omitempty" jsonschema:"a type: symbol_id, qualified name, path#Qualified.Name, a SCIP symbol or a unique suffix"`
	At     *Position `json:"at,omitempty" jsonschema:"the identifier at a position instead of a name"`
	Layer  string    `json:"layer,omitempty" jsonschema:"syntactic to leave the semantic layer out"`
	View
	Common
}

// HierarchyBudget bounds each list of type_hierarchy: large enough that the
// implementations of a widely implemented interface come whole; the response
// budget cuts tests first.
var HierarchyBudget = Budget{200, 1000}

func init() {
	Register(Tool{
		Name: "type_hierarchy", Group: "read", Fresh: true, Cache: CacheQuery,
		Summary: "Base types, interfaces, subtypes and implementations of a type, each saying where it comes from: declared (syntax), method sets (syntax: Go and TypeScript interfaces satisfied by methods declared, promoted through embedded types or inherited) or the semantic layer.",
		Doc: "supertypes and subtypes follow extends and embeds transitively (depth says how far); interfaces lists what the type implements: declared " +
			"(also through its base classes), by method set where the language is structural (a type that never names the interface), and from " +
			"the semantic layer's implementation relationships (also interfaces outside the repository, by SCIP symbol). For an interface, " +
			"implementations and its method set. Go method sets compare signatures (parameter and result types, normalised through imports and type " +
			"aliases; a type parameter unifies with one type); a type whose method names match but whose signatures syntax cannot compare is listed " +
			"under candidates with the reason (undecided), never as an implementation; pointer says only *T has the methods. Other languages compare " +
			"method names. unknown_supertypes lists supertypes declared outside the repository, whose methods syntax cannot see. Lists put the " +
			"repository's code before its tests; a cut drops tests first and its truncation counts both. A member names its type.",
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
	limit := c.Bound("limit", in.Limit, HierarchyBudget)
	maxChars := c.maxChars()
	res, err := graph.Hierarchy(ctx, c.Engine(), r, graph.HierarchyParams{Limit: limit, Layer: in.Layer})
	if err != nil {
		return nil, err
	}
	c.Saved(res.Bytes)
	res.Fit(c.payloadBudget(ctx, maxChars))
	cut := map[string]graph.Cut{}
	for _, ct := range res.Cut {
		sum := cut[ct.Field]
		sum.Tests, sum.NonTests = sum.Tests+ct.Tests, sum.NonTests+ct.NonTests
		if sum.Reason == "" || ct.Reason == "max_chars" {
			sum.Reason = ct.Reason
		}
		cut[ct.Field] = sum
	}
	dropped, asked := "", "interfaces"
	if res.IsInterface {
		asked = "implementations"
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"supertypes", len(res.Supertypes)}, {"interfaces", len(res.Interfaces)}, {"subtypes", len(res.Subtypes)}, {"implementations", len(res.Implementations)},
		{"candidates", len(res.Candidates)}} {
		if ct, ok := cut[f.name]; ok {
			c.TruncatedCode(f.name, f.n, res.Totals[f.name], ct.Reason, ct.Tests, ct.NonTests)
			if f.name == asked {
				dropped = fmt.Sprintf(" (%s not listed: %s)", f.name, ct)
			}
		}
	}
	if len(cut) > 0 {
		c.Next(c.Tool, map[string]any{"symbol": res.Type.ID, "max_chars": CharsBudget.Cap, "limit": HierarchyBudget.Cap}, "the lists were cut: ask with a larger budget")
	}
	c.Layers(res.Layers...)
	if n := res.Totals["candidates"]; n > 0 {
		dropped = fmt.Sprintf(", %d candidates (signatures syntax cannot compare)", n) + dropped
	}
	if res.IsInterface {
		c.Answer("interface %s: %d implementations, %d sub-interfaces, %d methods%s", res.Type.QName, res.Totals["implementations"],
			res.Totals["subtypes"], len(res.Methods), dropped)
	} else {
		c.Answer("%s %s: %d supertypes, %d interfaces, %d subtypes%s", res.Type.Kind, res.Type.QName, res.Totals["supertypes"],
			res.Totals["interfaces"], res.Totals["subtypes"], dropped)
	}
	if len(res.Unknown) > 0 {
		c.Complete(0.8, "supertypes outside the repository: their methods are unknown to syntax")
	}
	if res.Semantic == "unavailable" {
		c.Next("index_ensure", map[string]any{"semantic": true}, "the semantic layer adds implementation relationships syntax cannot see")
	}
	return res, nil
}
