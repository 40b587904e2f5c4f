package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/query"
)

// RefsIn are the arguments of refs_find.
type RefsIn struct {
	Symbol   string    `json:"symbol,omitempty" jsonschema:"symbol_id, qualified name, path#Qualified.Name or a unique suffix"`
	At       *Position `json:"at,omitempty" jsonschema:"the identifier at a position instead of a name"`
	Anchored bool      `json:"anchored,omitempty" jsonschema:"also list anchored (same name, unproven) references in locations; they are always summarised in groups"`
	Common
}

func init() {
	Register(Tool{
		Name: "refs_find", Group: "read", Fresh: true,
		Summary:  "References of a symbol with their tier (proven, strong, anchored), summarised by module and file, plus paginated locations. Use before changing a symbol.",
		Doc:      "locations lists the definition and every proven or strong reference, sorted by path and position, 50 per page by default (at most 500). anchored groups list same-name references that syntax cannot attribute (method calls on unknown receivers), grouped by receiver shape with a few exemplars; pass anchored: true to list them too.",
		When:     []string{"before changing or removing a symbol, to see every use", "tracing how a function or type is used across modules"},
		WhenNot:  []string{"plain text occurrences (comments, strings): search", "who calls whom several levels deep: graph_callers"},
		Examples: []string{`{"symbol": "rest.Config"}`, `{"symbol": "sym_0123456789abcdef", "limit": 500}`},
	}, refsFind)
}

func refsFind(ctx context.Context, c *Call, in RefsIn) (*query.RefsResult, error) {
	r, err := resolveArg(ctx, c, in.Symbol, in.At)
	if err != nil {
		return nil, err
	}
	limit := c.Clamp("limit", in.Limit, ReferencesBudget)
	key := []any{"refs", r.ID(), in.Anchored, limit}
	offset, err := c.Offset(ctx, key)
	if err != nil {
		return nil, err
	}
	res, err := c.Env.Engine.Refs(ctx, r, query.RefsParams{Limit: limit, Offset: offset, Anchored: in.Anchored})
	if err != nil {
		return nil, err
	}
	c.Saved(res.BytesCovered)
	total := res.Summary.Total
	if in.Anchored {
		total += res.AnchoredTotal
	}
	if res.More {
		c.Truncated("locations", len(res.Locations), total, "limit", c.Cursor(context.WithoutCancel(ctx), key, res.NextOffset))
	}
	if res.Partial {
		c.Truncated("locations", len(res.Locations), 0, "deadline", "")
		defer c.Complete(0.5, "the deadline stopped the search; files after it were not examined")
	}
	c.Answer("%s: %d references (%d proven, %d strong), %d anchored candidates", res.Symbol.QName, res.Summary.Total,
		res.Summary.ByTier["proven"], res.Summary.ByTier["strong"], res.AnchoredTotal)
	if res.AnchoredTotal > 0 {
		resolved := float64(res.Summary.Total) / float64(res.Summary.Total+res.AnchoredTotal)
		c.Complete(resolved, "syntactic layer: anchored references are same-name matches it could not prove")
		if !in.Anchored {
			c.Next("refs_find", map[string]any{"symbol": res.Symbol.ID, "anchored": true}, "list the anchored candidates too")
		}
	}
	return res, nil
}
