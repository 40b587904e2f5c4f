package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func lintFamily() family {
	return family{name: "lint", short: "Find the repository's linters and run them with structured diagnostics",
		long: `List the linters that apply (from configuration files and what is installed)
and run them on paths, the changed files or everything, reading their
machine output into diagnostics. 'cairn lint check' exits 1 when a
diagnostic has severity error.`,
		cmds: func() []*toolCmd { return []*toolCmd{lintToolsCmd(), lintCheckCmd()} }}
}

func lintToolsCmd() *toolCmd {
	var in tools.LintToolsIn
	return &toolCmd{tool: "lint_tools", use: "tools", args: cobra.NoArgs, in: &in,
		render: withAnswer(func(w io.Writer, r *tools.LintToolsOut) {
			for _, l := range r.Linters {
				state := "installed"
				if !l.Available {
					state = "not installed"
				}
				cfg := l.Config
				if cfg == "" {
					cfg = "(default)"
				}
				fmt.Fprintf(w, "  %-14s %-10s %-12s %s  %s\n", l.Name, l.Language, l.Dir, cfg, state)
			}
		})}
}

func lintCheckCmd() *toolCmd {
	var in tools.LintCheckIn
	return &toolCmd{tool: "lint_check", use: "check [PATHS...]", in: &in, pos: []posArg{{"PATHS", "paths", &in.Paths}},
		note: "Exits 1 when a diagnostic has severity error.",
		flags: func(f *argFlags) {
			f.Bool(&in.All, "all", "all")
			f.StringArray(&in.Linters, "linter", "linters")
			f.Bool(&in.Fix, "fix", "fix")
			f.limit(&in.Limit, "limit", "diagnostics to list", 100, 1000)
		},
		render: withAnswer(func(w io.Writer, r *tools.LintCheckOut) {
			for _, d := range r.Diagnostics {
				fmt.Fprintf(w, "%s:%d:%d: %s %s [%s] %s\n", d.Path, d.Line, d.Col, d.Severity, d.Rule, d.Linter, strings.TrimSpace(d.Message))
			}
		}),
		check: func(env *protocol.Envelope) error {
			if r, ok := env.Data.(*tools.LintCheckOut); ok && r.BySeverity["error"] > 0 {
				return exitError(1)
			}
			return nil
		}}
}
