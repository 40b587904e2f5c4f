package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func doctorCmd(g *globals) *cobra.Command {
	var in tools.DoctorIn
	var strict bool
	cmd := &cobra.Command{
		Use:   "doctor [--fix] [--strict]",
		Short: "Check git, the index, configuration, grammars, disk space and semantic indexers; suggest fixes",
		Long: `doctor runs every check and prints pass, warn or fail for each, with the
command that would fix what did not pass. It never runs a fix.

--fix prints a POSIX shell script instead of the report: it changes into the
repository and holds one commented block per check that warned or failed,
with its fix command. Nothing is run; review the script, then run it
(cairn doctor --fix > fix.sh && sh fix.sh) or copy the blocks you want.

doctor works on a broken setup too: an invalid configuration is reported as a
failing check (doctor itself runs with the defaults), and an index that cannot
be opened is a failing check rather than an error.

Exit status: a check that fails is a finding, not an error, so doctor exits 0
whenever it could run its checks, whatever they found (--json: data.healthy
is false when a check failed). With --strict it exits 1 when any check
failed (warnings do not count), for scripts and CI. Errors that stop doctor
itself (a --repo that does not exist) use the usual exit codes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			env := call(cmd, g, g.openDegraded, "doctor", in)
			err := finish(g, env, func(w io.Writer, env *protocol.Envelope) {
				out, ok := env.Data.(*tools.DoctorOut)
				if !ok {
					return
				}
				if in.Fix {
					io.WriteString(w, out.FixScript)
					return
				}
				renderDoctor(w, env.Answer, out)
			})
			if err != nil {
				return err
			}
			if out, ok := env.Data.(*tools.DoctorOut); ok && strict && out.Failed > 0 {
				return exitError(1)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&in.Fix, "fix", false, "print a shell script with the fixes (runs nothing)")
	f.BoolVar(&strict, "strict", false, "exit 1 when any check fails")
	f.BoolVar(&in.SkipIntegrity, "skip-integrity", false, "skip the SQLite integrity check (it reads the whole index)")
	return cmd
}

func renderDoctor(w io.Writer, answer string, out *tools.DoctorOut) {
	width := 0
	for _, c := range out.Checks {
		width = max(width, len(c.Name))
	}
	for _, c := range out.Checks {
		fmt.Fprintf(w, "%-4s  %-*s  %s\n", strings.ToUpper(c.Status), width, c.Name, c.Message)
		pad := strings.Repeat(" ", width+8)
		if c.Fix != "" {
			fmt.Fprintf(w, "%sfix: %s\n", pad, c.Fix)
		}
		if c.Hint != "" {
			fmt.Fprintf(w, "%snote: %s\n", pad, c.Hint)
		}
	}
	fmt.Fprintln(w, answer)
}
