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

func diffCmd(g *globals) *cobra.Command {
	var in tools.DiffIn
	cmd := &cobra.Command{
		Use:   "diff [BASE] [TARGET]",
		Short: "Structural changes between git revisions, a revision and the working tree, or epochs; breaking vs not, blast radius",
		Long: `diff compares definitions, not lines. BASE defaults to HEAD and TARGET to
the working tree; both may be any git revision (commit, branch, tag), and
epoch:N compares recorded index states. Each change is added, removed,
signature_changed, body_changed, renamed (same kind and body under a new
name) or moved, and is breaking when it removes, renames or changes the
signature of public API (or adds a member to a public interface). With the
working tree as target, each change carries its blast radius: references per
tier, importing files and affected tests. The hint at the end says what to
review first. Pages of --limit changes (default 50, at most 200).`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				in.Base = args[0]
			}
			if len(args) > 1 {
				in.Target = args[1]
			}
			return invoke(cmd, g, "semantic_diff", in, renderDiff)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&in.Paths, "path", nil, "only this file or directory (repeatable)")
	f.BoolVar(&in.NoImpact, "no-impact", false, "skip the blast radius")
	f.IntVar(&in.Limit, "limit", 0, "changes per page (default 50, at most 200)")
	f.StringVar(&in.Cursor, "cursor", "", "continue from a previous page")
	return cmd
}

func renderDiff(w io.Writer, env *protocol.Envelope) {
	r, ok := env.Data.(*query.DiffResult)
	if !ok {
		return
	}
	fmt.Fprintln(w, env.Answer)
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

func affectedCmd(g *globals) *cobra.Command {
	var in tools.AffectedIn
	cmd := &cobra.Command{
		Use:   "affected [FILES...]",
		Short: "Tests affected by changed files (default: the working tree's changes against HEAD), with confidence and coverage gaps",
		Long: `affected walks the reverse import graph from the changed files to the test
files that reach them (Go, Java, Kotlin and C# tests of the same package
count directly). Each test is high confidence when it imports a changed file
or shares its package, low when reached through other files. The verdict is
complete, or partial with the reasons (changed files that are not code,
unresolved imports in tests, walk bounds). Coverage gaps are changed files no
test reaches. Without FILES, the changed files are those that differ from
--base (default HEAD).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			in.Files = args
			return invoke(cmd, g, "affected_tests", in, func(w io.Writer, env *protocol.Envelope) {
				r, ok := env.Data.(*query.AffectedResult)
				if !ok {
					return
				}
				fmt.Fprintln(w, env.Answer)
				for _, t := range r.Tests {
					via := ""
					if len(t.Via) > 0 {
						via = " via " + strings.Join(t.Via, " <- ")
					}
					fmt.Fprintf(w, "  %s [%s %s, depth %d]%s\n", t.Path, t.Confidence, t.Reason, t.Depth, via)
				}
				for _, r := range r.Reasons {
					fmt.Fprintf(w, "partial: %s\n", r)
				}
				for _, gap := range r.CoverageGaps {
					fmt.Fprintf(w, "no test reaches %s\n", gap)
				}
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Base, "base", "", "without FILES: compare the working tree with this revision (default HEAD)")
	f.IntVar(&in.MaxDepth, "max-depth", 0, "import hops to follow (default 3, at most 6)")
	f.IntVar(&in.Limit, "limit", 0, "tests per page (default 50, at most 500)")
	f.StringVar(&in.Cursor, "cursor", "", "continue from a previous page")
	return cmd
}

func impactCmd(g *globals) *cobra.Command {
	var in tools.ImpactIn
	var file bool
	cmd := &cobra.Command{
		Use:   "impact SYMBOL|PATH",
		Short: "What depends on a symbol or file: dependents by module, visibility, risk score, affected tests",
		Long: `impact says what a change to a symbol (or a file, with --file or when the
argument is an indexed path) would reach: direct dependents (references and
importing files) and transitive ones (importers of importers, --depth hops)
grouped by module and package, the derived visibility, how far it reaches,
a risk score with its inputs, and the tests to run. Lists are cut to the
response budget (--max-chars); the truncations say what was left out.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if file {
				in.Path = args[0]
			} else {
				in.Symbol = args[0] // an indexed path names the file (impact_analyze decides)
			}
			return invoke(cmd, g, "impact_analyze", in, renderImpact)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&file, "file", false, "the argument is a file path")
	f.IntVar(&in.Depth, "depth", 0, "import hops for transitive dependents (default 2, at most 4)")
	f.IntVar(&in.Limit, "limit", 0, "modules to list (default 10, at most 50)")
	f.IntVar(&in.MaxChars, "max-chars", 0, "response budget in characters (default 12000, at most 40000)")
	return cmd
}

func renderImpact(w io.Writer, env *protocol.Envelope) {
	r, ok := env.Data.(*query.ImpactResult)
	if !ok {
		return
	}
	fmt.Fprintln(w, env.Answer)
	v := r.Visibility
	fmt.Fprintf(w, "visibility: %s (%s, confidence %.2f); impact: %s — %s\n", v.Visibility, v.Source, v.Confidence,
		r.Classification.Level, r.Classification.Reason)
	fmt.Fprintf(w, "risk: %s %.2f\n", r.Risk.Level, r.Risk.Score)
	for _, f := range r.Risk.Factors {
		fmt.Fprintf(w, "  %-22s %.2f x %.2f  (%s)\n", f.Name, f.Value, f.Weight, f.Input)
	}
	for _, set := range []struct {
		name string
		s    query.DependentSet
	}{{"direct", r.Direct}, {"transitive", r.Transitive}} {
		fmt.Fprintf(w, "%s: %d files in %d modules\n", set.name, set.s.Files, set.s.ModulesTotal)
		for _, m := range set.s.Modules {
			fmt.Fprintf(w, "  %s: %d files, %d references\n", m.Module, m.Files, m.References)
			for _, p := range m.Packages {
				fmt.Fprintf(w, "    %s/ %d files, %d references: %s\n", p.Dir, p.Files, p.References, strings.Join(p.Sample, ", "))
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
}
