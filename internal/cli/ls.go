package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/tools"
)

func lsCmd(g *globals) *cobra.Command {
	var in tools.ListIn
	cmd := &cobra.Command{
		Use:   "ls [PATH]",
		Short: "List indexed files and directories with sizes and languages",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				in.Path = args[0]
			}
			return invoke(cmd, g, "list_files", in, func(w io.Writer, env *protocol.Envelope) {
				r, ok := env.Data.(*query.ListResult)
				if !ok {
					return
				}
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
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&in.Depth, "depth", 1, "levels to expand")
	f.StringVar(&in.Glob, "glob", "", "only files matching this glob")
	f.StringArrayVar(&in.Languages, "lang", nil, "only this language (repeatable)")
	f.IntVar(&in.Limit, "limit", 0, "entries per page (default 100, at most 1000)")
	f.StringVar(&in.Cursor, "cursor", "", "continue from a previous page")
	return cmd
}
