package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/tools"
)

func refsCmd(g *globals) *cobra.Command {
	var in tools.RefsIn
	var at string
	cmd := &cobra.Command{
		Use:   "refs [NAME]",
		Short: "List a symbol's references with their tiers, summarised by module and file",
		Long: `refs lists where a symbol is used. Each reference has a tier: precise
(from an imported SCIP index, see index --semantic), proven (bound in the same
file), strong (through an import or the same Go package), or anchored (same
name, but syntax cannot prove which symbol it is, e.g. a method call on a value
of unknown type). Per file, the semantic layer answers while the file is what
its indexer saw; files changed since answer from syntax and are listed.
--merge union shows both layers and where they disagree; --layer restricts the
answer to one. Anchored references are summarised in groups; --anchored lists
them too. Pages of --limit (default 50, at most 500); --cursor continues.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				in.Symbol = args[0]
			}
			if at != "" {
				p, err := tools.ParsePosition(at)
				if err != nil {
					return finish(g, errorEnvelope(err), nil)
				}
				in.At = p
			}
			return invoke(cmd, g, "refs_find", in, func(w io.Writer, env *protocol.Envelope) {
				fmt.Fprintln(w, env.Answer)
				if r, ok := env.Data.(*query.RefsResult); ok {
					renderRefs(w, r)
				}
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&at, "at", "", "the identifier at PATH:LINE:COL")
	f.BoolVar(&in.Anchored, "anchored", false, "list anchored (unproven same-name) references too")
	f.StringVar(&in.Merge, "merge", "", "prefer (default: the semantic layer per file when fresh) or union (both layers, with conflicts)")
	f.StringVar(&in.Layer, "layer", "", "only this layer: syntactic or semantic")
	f.IntVar(&in.Limit, "limit", 0, "locations per page (default 50, at most 500)")
	f.StringVar(&in.Cursor, "cursor", "", "continue from a previous page")
	return cmd
}

func renderRefs(w io.Writer, r *query.RefsResult) {
	for _, l := range r.Locations {
		via := ""
		if l.Via != "" {
			via = " via " + l.Via
		}
		fmt.Fprintf(w, "%s:%d:%d [%s %s%s] %s\n", l.Path, l.Line, l.Col, l.Tier, l.Kind, via, l.Snippet)
	}
	for _, f := range r.Semantic.Fallback {
		fmt.Fprintf(w, "syntactic facts for %s: %s\n", f.Path, f.Reason)
	}
	for _, c := range r.Semantic.Conflicts {
		fmt.Fprintf(w, "conflict %s:%d:%d %s: syntax says %s; semantic layer says %s\n", c.Path, c.Line, c.Col, c.Kind, c.Syntactic, c.Semantic)
	}
	for _, a := range r.Anchored {
		fmt.Fprintf(w, "anchored %s on %s: %d, e.g.", a.Token, a.Receiver, a.Count)
		for _, e := range a.Exemplars {
			fmt.Fprintf(w, " %s:%d", e.Path, e.Line)
		}
		fmt.Fprintln(w)
	}
}
