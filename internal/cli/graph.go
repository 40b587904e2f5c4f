package cli

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

// graphCmd is `cairn callers` or `cairn callees`.
func graphCmd(use, tool string) *toolCmd {
	var in tools.GraphIn
	return &toolCmd{
		tool: tool, use: use, on: &target{name: &in.Symbol, at: &in.At, required: true},
		flags: func(f *argFlags) {
			f.Int(&in.Depth, "depth", "depth", 0)
			f.limit(&in.LimitPerLevel, "limit_per_level", "new symbols per level below depth 1", 10, 100)
			f.String(&in.Layer, "layer", "layer", "")
			f.view(&in.View)
			f.maxChars(&in.MaxChars)
		},
		in:     &in,
		render: withAnswer(renderGraph),
	}
}

func callersCmd() *toolCmd { return graphCmd("callers", "graph_callers") }

func calleesCmd() *toolCmd { return graphCmd("callees", "graph_callees") }

func renderGraph(w io.Writer, r *graph.Result) {
	byID := map[protocol.SymbolID]graph.Node{}
	for _, n := range r.Nodes {
		byID[n.ID] = n
	}
	arrow := "<-"
	if r.Direction == graph.Callees {
		arrow = "->"
	}
	for _, n := range r.Nodes {
		line := fmt.Sprintf("%s%s %s (%s) %s:%d", strings.Repeat("  ", n.Depth), arrowFor(n.Depth, arrow), n.QName, n.Kind, n.Location.Path, n.Location.Line)
		if n.Build != "" {
			line += " [build: " + n.Build + "]"
		}
		if n.CallLine > 0 {
			line += fmt.Sprintf(" (calls at :%d)", n.CallLine)
		}
		for _, e := range r.Edges {
			other, me := e.From, e.To
			if r.Direction == graph.Callees {
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
				if e.Through != "" {
					line += " through " + e.Through + " (" + e.Dispatch + ")"
				}
				break
			}
		}
		fmt.Fprintln(w, line)
		for _, v := range n.Variants {
			build := cmp.Or(v.Label(), "no constraint")
			fmt.Fprintf(w, "%s   variant %s:%d [%s]\n", strings.Repeat("  ", n.Depth), v.Location.Path, v.Location.Line, build)
		}
	}
	for _, d := range r.Dynamic {
		from := byID[d.From].QName
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
			name = u.Receiver + "." + u.Name
		}
		fmt.Fprintf(w, "unresolved %s x%d in %s:%d [%s, %d same-name symbols]\n", name, u.Count, byID[u.From].QName, u.Line, u.Tier, u.Candidates)
	}
	for _, x := range r.External {
		what := x.Symbol
		if what == "" {
			what = x.Name
			if x.Receiver != "" {
				what = x.Receiver + "." + x.Name
			}
			what += " [" + x.Origin + "]"
		}
		fmt.Fprintf(w, "external %s x%d in %s:%d\n", what, x.Count, byID[x.From].QName, x.Line)
	}
}

func arrowFor(depth int, arrow string) string {
	if depth == 0 {
		return "*"
	}
	return arrow
}

func hierarchyCmd() *toolCmd {
	var in tools.HierarchyIn
	return &toolCmd{
		tool: "type_hierarchy", use: "hierarchy", on: &target{name: &in.Symbol, at: &in.At, required: true},
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.String(&in.Layer, "layer", "layer", "")
			f.limit(&in.Limit, "limit", "entries per list", tools.HierarchyBudget.Default, tools.HierarchyBudget.Cap)
			f.maxChars(&in.MaxChars)
		},
		in:     &in,
		render: withAnswer(renderHierarchy),
	}
}

func renderHierarchy(w io.Writer, r *graph.HierarchyResult) {
	for _, sec := range []struct {
		title string
		links []graph.TypeLink
	}{{"supertypes", r.Supertypes}, {"interfaces", r.Interfaces}, {"subtypes", r.Subtypes}, {"implementations", r.Implementations},
		{"candidates", r.Candidates}} {
		for _, l := range sec.links {
			line := fmt.Sprintf("%s: %s %s [%s]", sec.title, l.Relation, l.Name, l.Source)
			if l.Symbol != nil {
				line += fmt.Sprintf(" %s:%d", l.Symbol.Location.Path, l.Symbol.Location.Line)
			}
			if l.Via != "" {
				line += " via " + l.Via
			}
			if l.Pointer {
				line += " (pointer receiver)"
			}
			if l.Undecided != "" {
				line += " undecided: " + l.Undecided
			}
			fmt.Fprintln(w, line)
		}
	}
	if len(r.Methods) > 0 {
		fmt.Fprintf(w, "methods: %s\n", strings.Join(r.Methods, ", "))
	}
	eachLine(w, "outside the repository: %s\n", r.Unknown)
	eachLine(w, "note: %s\n", r.Notes)
}

func traceCmd() *toolCmd {
	var in tools.TraceIn
	return &toolCmd{
		tool: "trace_feature", use: "trace", on: &target{name: &in.Symbol, at: &in.At, required: true},
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.Int(&in.Depth, "depth", "depth", 0)
			f.limit(&in.Limit, "limit", "nodes in the tree", 50, 500)
			f.String(&in.Layer, "layer", "layer", "")
		},
		in: &in,
		render: withAnswer(func(w io.Writer, r *graph.TraceResult) {
			renderTrace(w, r.Entry)
		}),
	}
}

func renderTrace(w io.Writer, n *graph.TraceNode) {
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
