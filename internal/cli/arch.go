package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/repomap"
	"github.com/cairnhq/cairn/internal/tools"
)

func archCmd() *toolCmd {
	var in tools.ArchIn
	return &toolCmd{
		tool: "architecture", use: "arch", args: cobra.NoArgs,
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.Int(&in.Depth, "depth", "depth", 0)
			f.Bool(&in.IncludeExternal, "external", "include_external")
			f.limit(&in.Limit, "limit", "nodes to show", 50, 500)
		},
		in: &in,
		render: withAnswer(func(w io.Writer, r *repomap.ArchResult) {
			for _, n := range r.Nodes {
				extra := ""
				if n.Detached {
					extra = " (detached from its workspace)"
				}
				fmt.Fprintf(w, "  %-40s %-10s %5d files  %s%s\n", n.ID, n.Kind, n.Files, mapLine(n.Languages), extra)
			}
			for _, e := range r.Edges {
				fmt.Fprintf(w, "  %s -> %s  [%s] %d imports in %d files\n", e.From, e.To, e.Class, e.Imports, e.Files)
			}
			fmt.Fprintf(w, "imports by class: %s\n", mapLine(r.EdgeClasses))
		}),
	}
}
