package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func searchCmd(g *globals) *cobra.Command {
	var in tools.SearchIn
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search contents (literal, --regex, --word, -i) or symbols (--mode symbol|definitions|references)",
		Long: `search finds code. Modes:
  lexical      (default) file contents: a literal, case-sensitive unless -i;
               --regex takes RE2 syntax; --word matches whole identifiers
  symbol       symbols whose name contains QUERY, ranked (exact name first,
               public before private, types and functions before fields)
  definitions  the definitions of an exact name or qualified suffix
  references   the references of a named symbol (same as 'cairn refs')
Results are ranked and bounded (--limit, default 20, at most 100); page with
--cursor. Filter with --path GLOB and --lang L (repeatable).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in.Query = args[0]
			return invoke(cmd, g, "search", in, renderSearch)
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Mode, "mode", "lexical", "lexical, symbol, definitions or references")
	f.BoolVar(&in.Regex, "regex", false, "QUERY is an RE2 regular expression")
	f.BoolVar(&in.Word, "word", false, "match whole identifiers only")
	f.BoolVarP(&in.IgnoreCase, "ignore-case", "i", false, "ignore case")
	f.StringArrayVar(&in.Paths, "path", nil, "only paths matching this glob (repeatable)")
	f.StringArrayVar(&in.Languages, "lang", nil, "only this language (repeatable)")
	f.StringArrayVar(&in.Kinds, "kind", nil, "symbol modes: only this kind (repeatable)")
	f.IntVar(&in.Limit, "limit", 0, "results per page (default 20, at most 100)")
	f.StringVar(&in.Cursor, "cursor", "", "continue from a previous page")
	return cmd
}

func renderSearch(w io.Writer, env *protocol.Envelope) {
	out, ok := env.Data.(*tools.SearchOut)
	if !ok {
		return
	}
	if out.References != nil {
		renderRefs(w, out.References)
		return
	}
	for _, h := range out.Hits {
		if h.Symbol != nil {
			sig := ""
			if h.Signature != "" {
				sig = "  " + h.Signature
			}
			fmt.Fprintf(w, "%s:%d  %s %s%s\n", h.Location.Path, h.Location.Line, h.Symbol.Kind, h.Symbol.QName, sig)
			continue
		}
		fmt.Fprintf(w, "%s:%d:%d: %s\n", h.Location.Path, h.Location.Line, h.Location.Col, h.Snippet)
	}
	if len(out.Hits) == 0 {
		fmt.Fprintln(w, env.Answer)
	}
}
