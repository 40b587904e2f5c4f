package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/tools"
)

func symbolCmd(g *globals) *cobra.Command {
	var in tools.SymbolIn
	var at string
	cmd := &cobra.Command{
		Use:   "symbol [NAME]",
		Short: "Show a symbol's card (by id, qualified name, path#Name or unique suffix; or --at PATH:LINE:COL)",
		Long: `symbol prints what Cairn knows about one symbol: kind, signature, doc summary,
visibility, module, location, members, outgoing calls and type relations.
Name it by symbol_id (sym_...), by qualified name (k8s.io/client-go/rest.Config,
django.db.models.Model.save, src/a.ts#Foo.bar), by path#Qualified.Name, or by
any unique suffix (rest.Config, Mux.handle). --at resolves the identifier at a
position. An ambiguous name exits 4 and lists the candidates.`,
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
			return invoke(cmd, g, "symbol_get", in, renderCard)
		},
	}
	cmd.Flags().StringVar(&at, "at", "", "the identifier at PATH:LINE:COL")
	cmd.Flags().IntVar(&in.Limit, "limit", 0, "members to list (default 20, at most 100)")
	return cmd
}

func renderCard(w io.Writer, env *protocol.Envelope) {
	c, ok := env.Data.(*query.SymbolCard)
	if !ok {
		return
	}
	fmt.Fprintf(w, "%s %s\n", c.Kind, c.QName)
	if rd := c.RedirectedFrom; rd != nil {
		fmt.Fprintf(w, "  (%s %s was %s; confidence %.2f)\n", rd.From, rd.FromQName, rd.Reason, rd.Confidence)
	}
	fmt.Fprintf(w, "  id:         %s (%s)\n", c.ID, c.VersionID)
	fmt.Fprintf(w, "  at:         %s:%d:%d (lines %d-%d)\n", c.Location.Path, c.Location.Line, c.Location.Col, c.Span.Line, c.Span.EndLine)
	if c.Signature != "" {
		fmt.Fprintf(w, "  signature:  %s\n", c.Signature)
	}
	if c.Doc != "" {
		fmt.Fprintf(w, "  doc:        %s\n", c.Doc)
	}
	fmt.Fprintf(w, "  visibility: %s; module %s; %s\n", c.Visibility, c.Module, c.Language)
	if c.Parent != nil {
		fmt.Fprintf(w, "  parent:     %s %s\n", c.Parent.Kind, c.Parent.QName)
	}
	for _, r := range c.Relations {
		fmt.Fprintf(w, "  %s %s\n", r.Kind, r.Target)
	}
	if len(c.Members) > 0 {
		fmt.Fprintf(w, "  members (%d):\n", c.MembersTotal)
		for _, m := range c.Members {
			fmt.Fprintf(w, "    %s %s  %s:%d\n", m.Kind, m.Name, m.Location.Path, m.Location.Line)
		}
	}
	if len(c.Surfaces) > 0 {
		fmt.Fprintf(w, "  surfaces (%d):\n", c.SurfacesTotal)
		for _, s := range c.Surfaces {
			fmt.Fprintf(w, "    %d: %s %s\n", s.Location.Line, s.Kind, surfaceLine(s))
		}
	}
	if len(c.Calls) > 0 {
		fmt.Fprintf(w, "  calls (%d):\n", c.CallsTotal)
		for _, e := range c.Calls {
			target := e.Name
			if e.Target != nil {
				target = e.Target.QName
			} else if e.Receiver != "" {
				target = e.Receiver + "." + e.Name
			}
			fmt.Fprintf(w, "    %s x%d [%s]\n", target, e.Count, e.Tier)
		}
	}
}
