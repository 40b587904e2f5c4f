package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/tools"
)

func hotspotsCmd() *toolCmd {
	var in tools.HotspotsIn
	return &toolCmd{
		tool: "hotspots", use: "hotspots", args: cobra.NoArgs, in: &in,
		flags: func(f *argFlags) {
			f.String(&in.Since, "since", "since", "")
			f.Int(&in.Symbols, "symbols", "symbols", 0)
			f.limit(&in.Limit, "limit", "files and symbols to list", 20, 100)
		},
		render: withAnswer(func(w io.Writer, r *tools.HotspotsOut) {
			fmt.Fprintln(w, "files:")
			for _, f := range r.Files {
				fmt.Fprintf(w, "  %8.2f  %3d commits %2d authors  +%d -%d  %d lines  %s\n", f.Score, f.Commits, f.Authors, f.Added, f.Deleted, f.Lines, f.Path)
			}
			if len(r.Symbols) > 0 {
				fmt.Fprintln(w, "symbols:")
			}
			for _, s := range r.Symbols {
				fmt.Fprintf(w, "  %8.2f  %3d commits %2d authors  %s %s  %s:%d-%d\n", s.Score, s.Commits, s.Authors, s.Symbol.Kind, s.Symbol.QName,
					s.Symbol.Location.Path, s.StartLine, s.EndLine)
			}
		}),
	}
}
