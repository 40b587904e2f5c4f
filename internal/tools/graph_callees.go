package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/graph"
)

func init() {
	Register(Tool{
		Name: "graph_callees", Group: "read", Fresh: true, Cache: CacheQuery,
		Summary: "What a symbol calls, level by level up to depth 6 (default 3): resolved callees with tier and layer; dynamic calls (interface values, function-valued fields, parameters and locals, obj[name](), getattr, reflection) with their candidates; unresolved calls by name and receiver.",
		Doc: "Edges are resolved calls: precise (semantic layer), proven or strong (syntax). A call through an interface method, a field, variable, " +
			"parameter or local holding a function, or a name chosen at run time is listed under dynamic, never resolved to one target: candidates " +
			"are what may run (semantic: implementation relationships; method_sets: types whose method set covers the interface; assignments: " +
			"functions assigned to the field or local) and candidates_from says which. Calls that leave the repository are under external: " +
			"by SCIP symbol (semantic layer), or by name and receiver with the import they go through and its origin (stdlib, dependency, external). " +
			"Calls of the language's builtins (len, append, print) are only counted (builtin_calls). Calls neither layer attributes are grouped under " +
			"unresolved by name and receiver (anchored when same-name symbols exist, unknown otherwise).",
		When:     []string{"what a function does, without reading it: the functions it calls", "where a call goes when it is dynamic: the candidates"},
		WhenNot:  []string{"who calls it: graph_callers", "a tree with routes, config and DB facts per node: trace_feature"},
		Examples: []string{`{"symbol": "main.main"}`, `{"symbol": "Server.Handle", "depth": 1}`},
	}, func(ctx context.Context, c *Call, in GraphIn) (*graph.Result, error) {
		return callGraph(ctx, c, in, graph.Callees)
	})
}
