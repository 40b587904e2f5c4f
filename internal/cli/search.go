package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/tools"
)

func searchCmd() *toolCmd {
	var in tools.SearchIn
	return &toolCmd{
		tool: "search", use: "search QUERY", args: cobra.ExactArgs(1), in: &in,
		pos: []posArg{{"QUERY", "query", &in.Query}},
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.String(&in.Mode, "mode", "mode", "lexical")
			f.Bool(&in.Regex, "regex", "regex")
			f.Bool(&in.Word, "word", "word")
			f.BoolP(&in.IgnoreCase, "ignore-case", "i", "ignore_case")
			f.StringArray(&in.Paths, "path", "paths")
			f.StringArray(&in.Languages, "lang", "languages")
			f.StringArray(&in.Kinds, "kind", "kinds")
			f.page(&in.Limit, &in.Cursor, "results per page", 20, 100)
		},
		render: renderSearch,
	}
}

func renderSearch(w io.Writer, env *protocol.Envelope) {
	out, ok := env.Data.(*tools.SearchOut)
	if !ok {
		return
	}
	switch r := out.References.(type) {
	case *query.RefsResult:
		renderRefs(w, r)
		return
	case *change.UnitRefsResult:
		renderUnitRefs(w, r)
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
