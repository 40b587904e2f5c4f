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

func mapCmd(g *globals) *cobra.Command {
	var in tools.MapIn
	cmd := &cobra.Command{
		Use:   "map",
		Short: "Show the repository's structure, languages, modules, entry points, dependencies, tests and public API",
		Long: `map prints the repository's shape as the index knows it. Sections (--include,
repeatable or comma-separated; default all):
  structure     directories to --depth (default 2) with files, bytes, languages
  languages     files and bytes per language
  modules       go.mod, package.json, pyproject.toml ... and the files they own
  entry_points  Go package main with func main, Python __main__ guards and
                scripts, package.json main/module/bin/exports, main.* and
                index.* at module roots
  dependencies  declared in go.mod, package.json, pyproject.toml, requirements*.txt
  test_layout   test files per language by naming convention, busiest dirs
  public_api    public symbols per module by kind, and the top --top ones
Each list holds at most --limit entries (default 50, at most 500).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return invoke(cmd, g, "map_repo", in, renderMap)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&in.Include, "include", nil, "sections to show (default all)")
	f.IntVar(&in.Depth, "depth", 0, "directory depth of structure (default 2, at most 6)")
	f.IntVar(&in.Top, "top", 0, "public symbols per module (default 10, at most 50)")
	f.IntVar(&in.Limit, "limit", 0, "entries per list (default 50, at most 500)")
	return cmd
}

func renderMap(w io.Writer, env *protocol.Envelope) {
	m, ok := env.Data.(*query.RepoMap)
	if !ok {
		return
	}
	if s := m.Structure; s != nil {
		fmt.Fprintf(w, "structure (depth %d, %d files):\n", s.Depth, s.Files)
		if len(s.RootFiles) > 0 {
			fmt.Fprintf(w, "  ./  %s\n", strings.Join(s.RootFiles, " "))
		}
		for _, d := range s.Dirs {
			indent := strings.Repeat("  ", strings.Count(d.Path, "/"))
			fmt.Fprintf(w, "  %s%s/  %d files, %d bytes  %s\n", indent, d.Path, d.Files, d.Bytes, countsLine(d.Languages))
		}
	}
	if m.Languages != nil {
		fmt.Fprintln(w, "languages:")
		for _, l := range *m.Languages {
			fmt.Fprintf(w, "  %-12s %5d files %10d bytes  %.1f%%\n", l.Language, l.Files, l.Bytes, l.Percent)
		}
	}
	if m.Modules != nil {
		fmt.Fprintln(w, "modules:")
		for _, md := range *m.Modules {
			fmt.Fprintf(w, "  %-30s %-6s %-20s %d files\n", md.Name, md.Kind, orDot(md.Root), md.Files)
		}
	}
	if m.EntryPoints != nil {
		fmt.Fprintln(w, "entry points:")
		for _, ep := range *m.EntryPoints {
			at := ep.Path
			if ep.Line > 0 {
				at = fmt.Sprintf("%s:%d", ep.Path, ep.Line)
			}
			extra := ""
			if ep.Source != "" {
				extra = fmt.Sprintf(" (from %s: %s)", ep.Source, ep.Target)
			}
			if !ep.Indexed {
				extra += " [not indexed]"
			}
			fmt.Fprintf(w, "  %-13s %s  %s%s\n", ep.Kind, at, ep.Name, extra)
		}
	}
	if m.Dependencies != nil {
		fmt.Fprintln(w, "dependencies:")
		for _, md := range *m.Dependencies {
			fmt.Fprintf(w, "  %s (%s): %d\n", md.Manifest, md.Module, md.Total)
			for _, d := range md.Dependencies {
				fmt.Fprintf(w, "    %s %s [%s]\n", d.Name, d.Version, d.Scope)
			}
		}
	}
	if t := m.TestLayout; t != nil {
		fmt.Fprintf(w, "tests: %d files\n", t.Files)
		for _, l := range t.Languages {
			fmt.Fprintf(w, "  %-12s %d files (%s), %d colocated\n", l.Language, l.Files, countsLine(l.Conventions), l.Colocated)
		}
		var dirs []string
		for _, d := range t.Dirs {
			dirs = append(dirs, fmt.Sprintf("%s %d", orDot(d.Path), d.Files))
		}
		if len(dirs) > 0 {
			fmt.Fprintf(w, "  dirs: %s\n", strings.Join(dirs, ", "))
		}
	}
	if m.PublicAPI != nil {
		fmt.Fprintln(w, "public api:")
		for _, a := range *m.PublicAPI {
			fmt.Fprintf(w, "  %s (%s): %d public (%s)\n", a.Module, orDot(a.Root), a.Public, countsLine(a.ByKind))
			for _, s := range a.Top {
				fmt.Fprintf(w, "    %s %s  %s:%d\n", s.Kind, s.QName, s.Location.Path, s.Location.Line)
			}
		}
	}
}

// countsLine prints a count map largest first: "go 3, python 1".
func countsLine(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}
