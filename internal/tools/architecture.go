package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/repomap"
)

// ArchIn are the arguments of architecture.
type ArchIn struct {
	Module          string `json:"module,omitempty" jsonschema:"only this module (node id such as go:svc, module name, or root directory) and its edges"`
	Depth           int    `json:"depth,omitempty" jsonschema:"1: modules; 2 or more: directories that many levels inside each module (default: the first level with more than one node)"`
	IncludeExternal bool   `json:"include_external,omitempty" jsonschema:"also show external dependencies and the standard library as nodes"`
	View
	Common
}

// ArchBudget bounds nodes and edges.
var ArchBudget = Budget{50, 500}

func init() {
	Register(Tool{
		Name: "architecture", Group: "read", Fresh: true, Cache: CacheView,
		Summary:  "Modules of the repository (from manifests: go.mod, package.json, pyproject, Cargo.toml, pom/gradle, csproj, Gemfile, composer.json) and the dependency edges between them, each classified (local-file, local-module, workspace-package, external-dependency, stdlib, unknown) with its strength in imports and files. Use to orient in a large or multi-module repository.",
		Examples: []string{`{}`, `{"depth": 2}`, `{"include_external": true}`},
	}, architecture)
}

func architecture(ctx context.Context, c *Call, in ArchIn) (*repomap.ArchResult, error) {
	depth := c.Bound("depth", in.Depth, Budget{1, 6})
	if in.Depth == 0 {
		// No depth asked: the first level that shows more than one node.
		d, err := repomap.DefaultArchDepth(ctx, c.Engine(), 6)
		if err != nil {
			return nil, err
		}
		depth = d
	}
	limit := c.Clamp("limit", in.Limit, ArchBudget)
	res, err := repomap.Architecture(ctx, c.Engine(), repomap.ArchParams{Depth: depth, IncludeExternal: in.IncludeExternal, MaxNodes: limit, MaxEdges: limit * 2,
		Module: in.Module})
	if err != nil {
		return nil, err
	}
	c.Shortened("nodes", len(res.Nodes), res.NodesTotal, "limit")
	c.Shortened("edges", len(res.Edges), res.EdgesTotal, "limit")
	c.Answer("%d nodes, %d dependency edges (depth %d)", res.NodesTotal, res.EdgesTotal, depth)
	if depth < 6 && res.NodesTotal > 0 {
		c.Next("architecture", map[string]any{"depth": depth + 1}, "look one level deeper")
	}
	return res, nil
}
