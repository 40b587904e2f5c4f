package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/repomap"
	"github.com/cairnhq/cairn/internal/tools"
)

func surfacesCmd() *toolCmd {
	var in tools.SurfacesIn
	return &toolCmd{
		tool: "surfaces_list", use: "surfaces KIND", args: cobra.ExactArgs(1), in: &in,
		pos: []posArg{{"KIND", "kind", &in.Kind}},
		note: `Each line is PATH:LINE:COL, the method (HTTP method, log level, SQL verb,
...), the value, [framework confidence], the detail (handler, implementation,
message) and the symbol it is written in.`,
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.StringArray(&in.Paths, "path", "paths")
			f.StringArray(&in.Languages, "lang", "languages")
			f.String(&in.Framework, "framework", "framework", "")
			f.StringP(&in.Query, "query", "q", "query", "")
			f.String(&in.Confidence, "confidence", "confidence", "")
			f.page(&in.Limit, &in.Cursor, "items per page", 20, 100)
		},
		render: renderSurfaces,
	}
}

func renderSurfaces(w io.Writer, env *protocol.Envelope) {
	fmt.Fprintln(w, env.Answer)
	r, ok := env.Data.(*repomap.SurfacesResult)
	if !ok {
		return
	}
	for _, it := range r.Items {
		fmt.Fprintf(w, "%s:%d:%d  %s\n", it.Location.Path, it.Location.Line, it.Location.Col, surfaceLine(it))
	}
	for _, t := range env.Provenance.Truncations {
		if t.Cursor != "" {
			fmt.Fprintf(w, "more: --cursor %s\n", t.Cursor)
		}
	}
}

// surfaceLine renders a surface after its location: method, value,
// [framework confidence], detail and the symbol it is written in.
func surfaceLine(it query.SurfaceItem) string {
	var b strings.Builder
	if it.Method != "" {
		b.WriteString(it.Method + " ")
	}
	b.WriteString(it.Value)
	fmt.Fprintf(&b, "  [%s %s]", it.Framework, it.Confidence)
	if it.Detail != "" {
		fmt.Fprintf(&b, " %s", quoteIfSpaced(it.Detail))
	}
	if it.Symbol != nil {
		fmt.Fprintf(&b, "  in %s", it.Symbol.QName)
	}
	return b.String()
}

func quoteIfSpaced(s string) string {
	if strings.ContainsAny(s, " \t") {
		return fmt.Sprintf("%q", s)
	}
	return s
}
