package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/tools"
)

func importersCmd() *toolCmd {
	var in tools.ImportersIn
	return &toolCmd{
		tool: "importers", use: "importers PATH", args: cobra.ExactArgs(1), in: &in,
		pos: []posArg{{"PATH", "target", &in.Target}},
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.Int(&in.Depth, "depth", "depth", 0)
			f.BoolP(&in.Recursive, "recursive", "r", "recursive")
			f.page(&in.Limit, &in.Cursor, "importing files per page", tools.ImportersBudget.Default, tools.ImportersBudget.Cap)
			f.maxChars(&in.MaxChars)
		},
		render: withAnswer(renderImporters),
	}
}

func renderImporters(w io.Writer, r *change.ImportersResult) {
	if r.Target.ImportPath != "" {
		fmt.Fprintf(w, "import path: %s\n", r.Target.ImportPath)
	}
	for _, im := range r.Importers {
		line := fmt.Sprintf("  %s:%d", im.Path, im.Line)
		if im.Import != "" {
			line += "  " + im.Import
		}
		if im.Test {
			line += "  [test]"
		}
		fmt.Fprintln(w, line)
	}
	for _, p := range r.Packages {
		line := fmt.Sprintf("  %s/  depth %d, %d files", p.Dir, p.Depth, p.Files)
		if p.Via != "" {
			line += " via " + p.Via
		}
		if p.TestOnly {
			line += "  [test only]"
		}
		fmt.Fprintln(w, line)
	}
}
