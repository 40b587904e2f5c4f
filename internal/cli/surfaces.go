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

func surfacesCmd(g *globals) *cobra.Command {
	var in tools.SurfacesIn
	cmd := &cobra.Command{
		Use:   "surfaces KIND",
		Short: "List endpoints, config_keys, db_tables, di, exceptions or logs: where code meets the outside world",
		Long: `surfaces lists one kind of surface found in the code at index time:
  endpoints    HTTP routes (method and path) and their handlers
  config_keys  environment variables, settings and properties read
  db_tables    tables named in SQL strings or declared by ORM models
  di           dependency-injection registrations
  exceptions   exception types thrown (Go: panics, sentinel errors, error types)
  logs         log message templates with their level
Each line is PATH:LINE:COL, the method (HTTP method, log level, SQL verb, ...),
the value, [framework confidence], the detail (handler, implementation,
message) and the symbol it is written in. Confidence is high for values written
literally, low for values built at run time or derived from a convention.
Filter with --path GLOB, --lang L, --framework NAME, --query TEXT and
--confidence high; pages of --limit (default 20, at most 100), --cursor.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in.Kind = args[0]
			return invoke(cmd, g, "surfaces_list", in, renderSurfaces)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&in.Paths, "path", nil, "only paths matching this glob (repeatable)")
	f.StringArrayVar(&in.Languages, "lang", nil, "only this language (repeatable)")
	f.StringVar(&in.Framework, "framework", "", "only this framework (gin, flask, spring, sql, env, ...)")
	f.StringVarP(&in.Query, "query", "q", "", "only values containing this text (case-insensitive)")
	f.StringVar(&in.Confidence, "confidence", "", "high: only values written literally")
	f.IntVar(&in.Limit, "limit", 0, "items per page (default 20, at most 100)")
	f.StringVar(&in.Cursor, "cursor", "", "continue from a previous page")
	return cmd
}

func renderSurfaces(w io.Writer, env *protocol.Envelope) {
	fmt.Fprintln(w, env.Answer)
	r, ok := env.Data.(*query.SurfacesResult)
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
