package cli

import (
	"fmt"
	"io"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/tools"
)

func refsCmd() *toolCmd {
	var in tools.RefsIn
	return &toolCmd{
		tool: "refs_find", use: "refs", on: &target{name: &in.Symbol, at: &in.At},
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.Bool(&in.Anchored, "anchored", "anchored")
			f.String(&in.Merge, "merge", "merge", "")
			f.String(&in.Layer, "layer", "layer", "")
			f.page(&in.Limit, &in.Cursor, "locations per page", 50, 500)
		},
		in: &in,
		render: func(w io.Writer, env *protocol.Envelope) {
			withAnswer(renderRefs)(w, env)
			payload(renderUnitRefs)(w, env)
		},
	}
}

// renderUnitRefs prints the references into a file or package.
func renderUnitRefs(w io.Writer, r *change.UnitRefsResult) {
	for _, p := range r.Summary.ByPackage {
		test := ""
		if p.TestOnly {
			test = " [test only]"
		}
		fmt.Fprintf(w, "%s/ %d%s:", p.Dir, p.Count, test)
		for _, f := range p.Files {
			fmt.Fprintf(w, " %s (%d)", f.Path, f.Count)
		}
		fmt.Fprintln(w)
	}
	for _, l := range r.Locations {
		fmt.Fprintf(w, "%s:%d:%d [%s %s] %s\n", l.Path, l.Line, l.Col, l.Tier, l.Kind, l.Symbol)
	}
}

func renderRefs(w io.Writer, r *query.RefsResult) {
	for _, l := range r.Locations {
		via := ""
		if l.Relation == query.RelationName {
			via = " by name"
		} else if l.Relation == query.RelationAccessor {
			via = " as accessor"
		} else if l.Relation != "" {
			via = " via " + l.Relation + " " + l.Via
		} else if l.Via != "" {
			via = " via " + l.Via
		}
		kind, tier, _ := r.Uniform.Field(l)
		fmt.Fprintf(w, "%s:%d:%d [%s %s%s] %s\n", l.Path, l.Line, l.Col, tier, kind, via, l.Snippet)
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
