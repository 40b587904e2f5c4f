package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/tools"
)

func archCmd(g *globals) *cobra.Command {
	var in tools.ArchIn
	cmd := &cobra.Command{
		Use:   "arch",
		Short: "Show the modules and the classified dependency edges between them",
		Long: `arch shows the repository's modules (from manifests) and how they depend on
each other. Every import is classified: local-file (inside the module),
local-module (another module of the repository), workspace-package (another
member of the same workspace, by package name), external-dependency (declared
in the manifest), stdlib, unknown. --depth 2 and more looks inside modules;
--external adds dependencies and the standard library as nodes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return invoke(cmd, g, "architecture", in, func(w io.Writer, env *protocol.Envelope) {
				r, ok := env.Data.(*query.ArchResult)
				if !ok {
					return
				}
				fmt.Fprintln(w, env.Answer)
				for _, n := range r.Nodes {
					extra := ""
					if n.Detached {
						extra = " (detached from its workspace)"
					}
					fmt.Fprintf(w, "  %-40s %-10s %5d files  %s%s\n", n.ID, n.Kind, n.Files, langLine(n.Languages), extra)
				}
				for _, e := range r.Edges {
					fmt.Fprintf(w, "  %s -> %s  [%s] %d imports in %d files\n", e.From, e.To, e.Class, e.Imports, e.Files)
				}
				fmt.Fprintf(w, "imports by class: %s\n", mapLine(r.EdgeClasses))
			})
		},
	}
	cmd.Flags().IntVar(&in.Depth, "depth", 1, "1: modules; 2 or more: directories inside modules")
	cmd.Flags().BoolVar(&in.IncludeExternal, "external", false, "include external dependencies and the standard library")
	cmd.Flags().IntVar(&in.Limit, "limit", 0, "nodes to show (default 50, at most 500)")
	return cmd
}

func langLine(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
