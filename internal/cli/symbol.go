package cli

import (
	"fmt"
	"io"

	"github.com/cairnhq/cairn/internal/plural"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func symbolCmd() *toolCmd {
	var in tools.SymbolIn
	return &toolCmd{
		tool: "symbol_get", use: "symbol", on: &target{name: &in.Symbol, at: &in.At},
		note: "An ambiguous name exits 4 and lists the candidates.",
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.limit(&in.Limit, "limit", "members to list", 20, 100)
		},
		in:     &in,
		render: renderCard,
	}
}

func renderCard(w io.Writer, env *protocol.Envelope) {
	out, ok := env.Data.(*tools.SymbolCardOut)
	if !ok {
		return
	}
	c := out.SymbolCard
	fmt.Fprintf(w, "%s %s\n", c.Kind, c.QName)
	if rd := c.RedirectedFrom; rd != nil {
		fmt.Fprintf(w, "  (%s %s was %s; confidence %.2f)\n", rd.From, rd.FromQName, rd.Reason, rd.Confidence)
	}
	fmt.Fprintf(w, "  id:         %s (%s)\n", c.ID, c.VersionID)
	fmt.Fprintf(w, "  at:         %s:%d:%d (lines %d-%d)\n", c.Location.Path, c.Location.Line, c.Location.Col, c.Span.Line, c.Span.EndLine)
	if g := c.Guess; g != nil {
		fmt.Fprintf(w, "  ranked guess among %d same-named symbols (%s); others:\n", g.Total, g.Order)
		for _, o := range g.Candidates {
			fmt.Fprintf(w, "    %s %s  %s:%d\n", o.Kind, o.QName, o.Location.Path, o.Location.Line)
		}
	}
	if c.Build != "" {
		fmt.Fprintf(w, "  build:      %s\n", c.Build)
	}
	for _, v := range c.Variants {
		build := ""
		if l := v.Label(); l != "" {
			build = " [" + l + "]"
		}
		fmt.Fprintf(w, "  variant:    %s:%d:%d%s %s\n", v.Location.Path, v.Location.Line, v.Location.Col, build, v.ID)
	}
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
	if h := out.History; h != nil {
		fmt.Fprintf(w, "  history:    %s by %s; last %.12s %s\n", plural.Count(h.Commits, "commit", "commits"), plural.Count(h.Authors, "author", "authors"), h.LastCommit, h.LastDate)
	}
	for _, r := range c.Relations {
		fmt.Fprintf(w, "  %s %s\n", r.Kind, r.Target)
	}
	for _, k := range c.Cards {
		fmt.Fprintf(w, "  card:       %s [%s] %s\n", k.Key, k.Status, k.Summary)
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
			where := e.Tier
			if e.Origin != "" {
				where = e.Origin
			}
			fmt.Fprintf(w, "    %s x%d [%s]\n", target, e.Count, where)
		}
	}
	if c.BuiltinCalls > 0 {
		fmt.Fprintf(w, "  builtins called: %d (not listed)\n", c.BuiltinCalls)
	}
}
