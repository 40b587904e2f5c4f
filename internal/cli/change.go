package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/tools"
	"github.com/spf13/cobra"
)

func diffCmd() *toolCmd {
	var in tools.DiffIn
	return &toolCmd{
		tool: "semantic_diff", use: "diff [BASE] [TARGET]", args: cobra.MaximumNArgs(2), in: &in,
		pos: []posArg{{"BASE", "base", &in.Base}, {"TARGET", "target", &in.Target}},
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.StringArray(&in.Paths, "path", "paths")
			f.Bool(&in.NoImpact, "no-impact", "no_impact")
			f.page(&in.Limit, &in.Cursor, "changes per page", 50, 200)
		},
		render: withAnswer(renderDiff),
	}
}

func renderDiff(w io.Writer, r *change.DiffResult) {
	if r.BreakingSummary != "" {
		fmt.Fprintln(w, r.BreakingSummary)
	}
	path := ""
	for _, c := range r.Changes {
		if c.Path != path {
			path = c.Path
			fmt.Fprintf(w, "%s\n", path)
		}
		sev := ""
		if c.Severity == "breaking" {
			sev = " BREAKING"
		}
		line := fmt.Sprintf("  %s %s %s [%s%s]", c.Change, c.Kind, c.QName, c.Visibility, sev)
		if c.OldName != "" && c.OldName != c.QName {
			line += " was " + c.OldName
		}
		if c.OldPath != "" {
			line += " from " + c.OldPath
		}
		if len(c.DeltaTags) > 0 {
			line += " " + strings.Join(c.DeltaTags, ",")
		}
		fmt.Fprintln(w, line)
		if c.OldSignature != "" && c.NewSignature != "" && c.OldSignature != c.NewSignature {
			fmt.Fprintf(w, "    - %s\n    + %s\n", c.OldSignature, c.NewSignature)
		}
		if c.Why != "" {
			fmt.Fprintf(w, "    why: %s\n", c.Why)
		}
		if im := c.Impact; im != nil {
			fmt.Fprintf(w, "    impact: %d references (%s), %d dependent files, tests: %s\n", im.ReferenceCount, im.ReferenceBasis,
				im.ImportingTotal, listOrNone(im.AffectedTests))
		}
	}
	for _, f := range r.NonStructural {
		fmt.Fprintf(w, "%s: %s (%s, not structural)\n", f.Path, f.Status, f.Category)
	}
	fmt.Fprintf(w, "hint: %s\n", r.AgenticHint)
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func affectedCmd() *toolCmd {
	var in tools.AffectedIn
	return &toolCmd{
		tool: "affected_tests", use: "affected [FILES...]", in: &in, pos: []posArg{{"FILES", "files", &in.Files}},
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.String(&in.Base, "base", "base", "")
			f.Int(&in.MaxDepth, "max-depth", "max_depth", 0)
			f.page(&in.Limit, &in.Cursor, "tests per page", 50, 500)
		},
		render: withAnswer(func(w io.Writer, r *change.AffectedResult) {
			for _, t := range r.Tests {
				via := ""
				if len(t.Via) > 0 {
					via = " via " + strings.Join(t.Via, " <- ")
				}
				fmt.Fprintf(w, "  %s [%s %s, depth %d]%s\n", t.Path, t.Confidence, t.Reason, t.Depth, via)
			}
			eachLine(w, "partial: %s\n", r.Reasons)
			eachLine(w, "no test reaches %s\n", r.CoverageGaps)
		}),
	}
}

func impactCmd() *toolCmd {
	var in tools.ImpactIn
	var file bool
	return &toolCmd{
		tool: "impact_analyze", use: "impact SYMBOL|PATH", args: cobra.ExactArgs(1), pos: []posArg{{"SYMBOL|PATH", "symbol", nil}},
		flags: func(f *argFlags) {
			f.view(&in.View)
			f.fs.BoolVar(&file, "file", false, "the argument is a file or directory path")
			f.Int(&in.Depth, "depth", "depth", 0)
			f.BoolP(&in.Recursive, "recursive", "r", "recursive")
			f.limit(&in.Limit, "limit", "modules to list", 10, 50)
			f.maxChars(&in.MaxChars)
		},
		request: func(_ *cobra.Command, args []string) (any, error) {
			if file {
				in.Path = args[0]
			} else {
				in.Symbol = args[0] // an indexed path names the file (impact_analyze decides)
			}
			return in, nil
		},
		words: func(ex map[string]any) []string {
			if p, ok := ex["path"].(string); ok {
				delete(ex, "path")
				return []string{"--file", p}
			}
			return nil
		},
		render: withAnswer(renderImpact),
	}
}

func renderImpact(w io.Writer, r *change.ImpactResult) {
	v := r.Visibility
	fmt.Fprintf(w, "visibility: %s (%s, confidence %.2f); impact: %s — %s\n", v.Visibility, v.Source, v.Confidence,
		r.Classification.Level, r.Classification.Reason)
	fmt.Fprintf(w, "risk: %s %.2f\n", r.Risk.Level, r.Risk.Score)
	for _, f := range r.Risk.Factors {
		fmt.Fprintf(w, "  %-22s %.2f x %.2f  (%s)\n", f.Name, f.Value, f.Weight, f.Input)
	}
	for _, set := range []struct {
		name string
		s    change.DependentSet
	}{{"direct", r.Direct}, {"transitive", r.Transitive}} {
		fmt.Fprintf(w, "%s: %d files in %d modules\n", set.name, set.s.Files, set.s.ModulesTotal)
		for _, m := range set.s.Modules {
			fmt.Fprintf(w, "  %s: %d files, %d references\n", m.Module, m.Files, m.References)
			for _, p := range m.Packages {
				test := ""
				if p.TestOnly {
					test = " [test only]"
				}
				fmt.Fprintf(w, "    %s/ %d files, %d references%s: %s\n", p.Dir, p.Files, p.References, test, strings.Join(p.Sample, ", "))
			}
		}
	}
	if r.Callers.Available {
		fmt.Fprintf(w, "callers: %d\n", r.Callers.Total)
		for _, c := range r.Callers.Items {
			fmt.Fprintf(w, "  %s %s\n", c.Kind, c.QName)
		}
	} else {
		fmt.Fprintf(w, "callers: %s\n", r.Callers.Reason)
	}
	fmt.Fprintf(w, "tests: %d (%d high, %s)\n", r.Tests.Total, r.Tests.High, r.Tests.Confidence)
	for _, t := range r.Tests.Tests {
		fmt.Fprintf(w, "  %s [%s %s]\n", t.Path, t.Confidence, t.Reason)
	}
	for _, k := range r.Cards {
		via := ""
		if k.Via != "" {
			via = " (via " + k.Via + ")"
		}
		fmt.Fprintf(w, "card: %s [%s] %s%s\n", k.Key, k.Status, k.Summary, via)
	}
}
