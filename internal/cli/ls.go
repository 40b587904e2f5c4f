package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/tools"
)

func lsCmd() *toolCmd {
	var in tools.ListIn
	return &toolCmd{
		tool: "list_files", use: "ls [PATH]", args: cobra.MaximumNArgs(1), in: &in,
		pos: []posArg{{"PATH", "path", &in.Path}},
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.Int(&in.Depth, "depth", "depth", 1)
			f.String(&in.Glob, "glob", "glob", "")
			f.StringArray(&in.Languages, "lang", "languages")
			f.page(&in.Limit, &in.Cursor, "entries per page", 100, 1000)
		},
		render: payload(func(w io.Writer, r *query.ListResult) {
			for _, e := range r.Entries {
				if e.Type == "dir" {
					fmt.Fprintf(w, "%s/  (%d files, %d bytes)\n", e.Path, e.Files, e.Size)
					continue
				}
				extra := e.Lang
				if e.State != "" {
					extra = strings.TrimSpace(extra + " " + e.State)
				}
				fmt.Fprintf(w, "%s  %d bytes  %s\n", e.Path, e.Size, extra)
			}
		}),
	}
}
