package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/repomap"
	"github.com/cairnhq/cairn/internal/tools"
)

func mapCmd() *toolCmd {
	var in tools.MapIn
	return &toolCmd{
		tool: "map_repo", use: "map", args: cobra.NoArgs,
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.StringSlice(&in.Include, "include", "include")
			f.Int(&in.Depth, "depth", "depth", 0)
			f.Int(&in.Top, "top", "top", 0)
			f.limit(&in.Limit, "limit", "entries per list", 50, 500)
		},
		in:     &in,
		render: payload(renderMap),
	}
}

func renderMap(w io.Writer, m *repomap.Map) {
	defer renderMapCards(w, m.Cards)
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

func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}

// renderMapCards prints the cards summary of a map.
func renderMapCards(w io.Writer, c *query.CardsSummary) {
	if c == nil {
		return
	}
	var st []string
	for _, k := range []string{"draft", "accepted", "implementing", "implemented", "deprecated"} {
		if n := c.ByStatus[k]; n > 0 {
			st = append(st, fmt.Sprintf("%s %d", k, n))
		}
	}
	fmt.Fprintf(w, "cards: %d spec cards (%s); %d of %d code files linked with @see\n", c.Cards, strings.Join(st, ", "), c.LinkedFiles, c.LinkedFiles+c.UnlinkedFiles)
}
