package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/tools"
)

// graphCmd is `cairn callers` or `cairn callees`.
func graphCmd(g *globals, use, tool, short, long string) *cobra.Command {
	var in tools.GraphIn
	var at string
	cmd := &cobra.Command{
		Use:   use + " [NAME]",
		Short: short,
		Long:  long,
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := symbolArgs(args, at, &in.Symbol, &in.At); err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			return invoke(cmd, g, tool, in, func(w io.Writer, env *protocol.Envelope) {
				fmt.Fprintln(w, env.Answer)
				if r, ok := env.Data.(*query.GraphResult); ok {
					renderGraph(w, r)
				}
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&at, "at", "", "the identifier at PATH:LINE:COL")
	f.IntVar(&in.Depth, "depth", 0, "levels to walk (default 3, at most 6)")
	f.IntVar(&in.LimitPerLevel, "limit", 0, "new symbols per level (default 10, at most 100)")
	f.StringVar(&in.Layer, "layer", "", "only this layer: syntactic or semantic")
	f.IntVar(&in.MaxChars, "max-chars", 0, "response budget in characters (default 12000, at most 40000)")
	return cmd
}

func callersCmd(g *globals) *cobra.Command {
	return graphCmd(g, "callers", "graph_callers", "Show who calls a symbol, level by level (default depth 3)",
		`callers walks the call graph upwards from a symbol: its callers, their
callers, and so on (--depth, default 3, at most 6), keeping the most-called
--limit new symbols per level. Each edge says its tier (precise from the
semantic layer; proven or strong from syntax) and how many call sites it has.
Calls syntax cannot attribute are not edges (cairn refs --anchored lists
them); calls through an interface method the symbol implements are listed as
dynamic (semantic layer).`)
}

func calleesCmd(g *globals) *cobra.Command {
	return graphCmd(g, "callees", "graph_callees", "Show what a symbol calls, level by level, with dynamic and unresolved calls",
		`callees walks the call graph downwards from a symbol. Resolved calls are
edges with their tier. Calls through an interface, a function-valued field,
variable, parameter or local, or a name chosen at run time (obj[name](),
getattr, reflection, eval) are listed as dynamic with the candidates that may
run; calls neither layer attributes are listed as unresolved, by name and
receiver.`)
}

// symbolArgs reads a NAME argument or --at PATH:LINE:COL.
func symbolArgs(args []string, at string, name *string, pos **tools.Position) error {
	if len(args) == 1 {
		*name = args[0]
	}
	if at != "" {
		p, err := tools.ParsePosition(at)
		if err != nil {
			return err
		}
		*pos = p
	}
	if *name == "" && *pos == nil {
		return errs.E(errs.Usage, "name a symbol (NAME) or a position (--at PATH:LINE:COL)")
	}
	return nil
}

func renderGraph(w io.Writer, r *query.GraphResult) {
	byID := map[string]query.GraphNode{}
	for _, n := range r.Nodes {
		byID[n.ID] = n
	}
	arrow := "<-"
	if r.Direction == query.Callees {
		arrow = "->"
	}
	for _, n := range r.Nodes {
		line := fmt.Sprintf("%s%s %s (%s) %s:%d", strings.Repeat("  ", n.Depth), arrowFor(n.Depth, arrow), n.QName, n.Kind, n.Location.Path, n.Location.Line)
		if n.Build != "" {
			line += " [build: " + n.Build + "]"
		}
		for _, e := range r.Edges {
			other, me := e.From, e.To
			if r.Direction == query.Callees {
				other, me = e.To, e.From
			}
			if other == n.ID && byID[me].Depth == n.Depth-1 {
				line += fmt.Sprintf("  x%d %s/%s", e.Count, e.Tier, e.Layer)
				if e.Kind != "call" {
					line += " " + e.Kind
				}
				if e.Via != "" {
					line += " via " + e.Via
				}
				break
			}
		}
		fmt.Fprintln(w, line)
		for _, v := range n.Variants {
			build := v.Build
			if build == "" {
				build = "no constraint"
			}
			fmt.Fprintf(w, "%s   variant %s:%d [%s]\n", strings.Repeat("  ", n.Depth), v.Location.Path, v.Location.Line, build)
		}
	}
	for _, d := range r.Dynamic {
		from := byID[d.From].QName
		if d.Caller != nil {
			from = d.Caller.QName
		}
		what := d.Name
		if d.Text != "" {
			what = d.Text
		}
		line := fmt.Sprintf("dynamic %s in %s:%d: %s", d.Kind, from, d.Line, what)
		if d.Through != nil {
			line += " through " + d.Through.QName
		}
		if d.CandidatesTotal > 0 {
			var names []string
			for _, c := range d.Candidates {
				names = append(names, c.QName)
			}
			line += fmt.Sprintf("; candidates (%s, %d): %s", d.CandidatesFrom, d.CandidatesTotal, strings.Join(names, ", "))
		}
		fmt.Fprintln(w, line)
	}
	for _, u := range r.Unresolved {
		name := u.Name
		if u.Receiver != "" {
			name = u.Receiver + " ." + u.Name
		}
		fmt.Fprintf(w, "unresolved %s x%d in %s:%d [%s, %d same-name symbols]\n", name, u.Count, byID[u.From].QName, u.Line, u.Tier, u.Candidates)
	}
	for _, x := range r.External {
		fmt.Fprintf(w, "external %s x%d in %s:%d\n", x.Symbol, x.Count, byID[x.From].QName, x.Line)
	}
}

func arrowFor(depth int, arrow string) string {
	if depth == 0 {
		return "*"
	}
	return arrow
}

func hierarchyCmd(g *globals) *cobra.Command {
	var in tools.HierarchyIn
	var at string
	cmd := &cobra.Command{
		Use:   "hierarchy [NAME]",
		Short: "Show a type's base types, interfaces, subtypes and implementations",
		Long: `hierarchy shows what a type extends, embeds and implements, and what extends,
embeds and implements it. Each answer says its source: syntax (declared in the
code), syntax_method_set (Go and TypeScript: the type's methods, including
those promoted through embedded types or inherited, cover the interface's,
though it never names it) or semantic (the semantic layer's implementation
relationships).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := symbolArgs(args, at, &in.Symbol, &in.At); err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			return invoke(cmd, g, "type_hierarchy", in, func(w io.Writer, env *protocol.Envelope) {
				fmt.Fprintln(w, env.Answer)
				r, ok := env.Data.(*query.HierarchyResult)
				if !ok {
					return
				}
				for _, sec := range []struct {
					title string
					links []query.TypeLink
				}{{"supertypes", r.Supertypes}, {"interfaces", r.Interfaces}, {"subtypes", r.Subtypes}, {"implementations", r.Implementations}} {
					for _, l := range sec.links {
						line := fmt.Sprintf("%s: %s %s [%s]", sec.title, l.Relation, l.Name, l.Source)
						if l.Symbol != nil {
							line += fmt.Sprintf(" %s:%d", l.Symbol.Location.Path, l.Symbol.Location.Line)
						}
						if l.Via != "" {
							line += " via " + l.Via
						}
						fmt.Fprintln(w, line)
					}
				}
				if len(r.Methods) > 0 {
					fmt.Fprintf(w, "methods: %s\n", strings.Join(r.Methods, ", "))
				}
				for _, u := range r.Unknown {
					fmt.Fprintf(w, "outside the repository: %s\n", u)
				}
				for _, n := range r.Notes {
					fmt.Fprintf(w, "note: %s\n", n)
				}
			})
		},
	}
	cmd.Flags().StringVar(&at, "at", "", "the identifier at PATH:LINE:COL")
	cmd.Flags().StringVar(&in.Layer, "layer", "", "syntactic to leave the semantic layer out")
	cmd.Flags().IntVar(&in.Limit, "limit", 0, "entries per list (default 20, at most 100)")
	return cmd
}

func traceCmd(g *globals) *cobra.Command {
	var in tools.TraceIn
	var at string
	cmd := &cobra.Command{
		Use:   "trace [NAME]",
		Short: "Show the call tree from an entry point, with the surfaces of each node",
		Long: `trace follows the calls from an entry point (a handler, main, a command) down
to --depth levels (default 3, at most 6), most-called first, up to --limit
nodes (default 50). A call back into an ancestor is marked (cycle), a callee
already expanded elsewhere is marked (repeated). Each node lists its surfaces
(routes, configuration keys, tables, ...) and how many of its calls are
dynamic or unresolved.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := symbolArgs(args, at, &in.Symbol, &in.At); err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			return invoke(cmd, g, "trace_feature", in, func(w io.Writer, env *protocol.Envelope) {
				fmt.Fprintln(w, env.Answer)
				if r, ok := env.Data.(*query.TraceResult); ok {
					renderTrace(w, r.Entry)
				}
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&at, "at", "", "the identifier at PATH:LINE:COL")
	f.IntVar(&in.Depth, "depth", 0, "levels below the entry point (default 3, at most 6)")
	f.IntVar(&in.Limit, "limit", 0, "nodes in the tree (default 50, at most 500)")
	f.StringVar(&in.Layer, "layer", "", "only this layer: syntactic or semantic")
	return cmd
}

func renderTrace(w io.Writer, n *query.TraceNode) {
	line := fmt.Sprintf("%s%s (%s) %s:%d", strings.Repeat("  ", n.Depth), n.QName, n.Kind, n.Location.Path, n.Location.Line)
	if n.Build != "" {
		line += " [build: " + n.Build + "]"
	}
	if n.Count > 0 {
		line += fmt.Sprintf("  x%d %s", n.Count, n.Tier)
	}
	var marks []string
	if n.Cycle {
		marks = append(marks, "cycle")
	}
	if n.Repeated {
		marks = append(marks, "repeated")
	}
	if n.Truncated {
		marks = append(marks, "more below")
	}
	if n.Dynamic > 0 {
		marks = append(marks, fmt.Sprintf("%d dynamic", n.Dynamic))
	}
	if n.Unresolved > 0 {
		marks = append(marks, fmt.Sprintf("%d unresolved", n.Unresolved))
	}
	if len(marks) > 0 {
		line += " [" + strings.Join(marks, ", ") + "]"
	}
	fmt.Fprintln(w, line)
	for _, s := range n.Surfaces {
		fmt.Fprintf(w, "%s  surface %s: %s\n", strings.Repeat("  ", n.Depth), s.Kind, s.Value)
	}
	for _, c := range n.Children {
		renderTrace(w, c)
	}
}
