package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func doctorCmd() *toolCmd {
	var in tools.DoctorIn
	var strict bool
	return &toolCmd{
		tool: "doctor", use: "doctor [--fix] [--strict]", args: cobra.NoArgs, in: &in, degraded: true,
		note: `--fix prints the script instead of the report. Nothing is run; review the
script, then run it (cairn doctor --fix > fix.sh && sh fix.sh) or copy the
blocks you want.

doctor works on a broken setup too: an invalid configuration is reported as a
failing check (doctor itself runs with the defaults), and an index that cannot
be opened is a failing check rather than an error.

Exit status: a check that fails is a finding, not an error, so doctor exits 0
whenever it could run its checks, whatever they found. With --strict it exits
1 when any check failed (warnings do not count), for scripts and CI. Errors
that stop doctor itself (a --repo that does not exist) use the usual exit
codes.`,
		flags: func(f *argFlags) {
			f.Bool(&in.Fix, "fix", "fix").Usage = "print a shell script with the fixes (runs nothing)"
			f.fs.BoolVar(&strict, "strict", false, "exit 1 when any check fails")
			f.Bool(&in.SkipIntegrity, "skip-integrity", "skip_integrity")
		},
		render: func(w io.Writer, env *protocol.Envelope) {
			out, ok := env.Data.(*tools.DoctorOut)
			switch {
			case ok && in.Fix:
				io.WriteString(w, out.FixScript)
			case ok:
				renderDoctor(w, env.Answer, out)
			}
		},
		check: func(env *protocol.Envelope) error {
			if out, ok := env.Data.(*tools.DoctorOut); ok && strict && out.Failed > 0 {
				return exitError(1)
			}
			return nil
		},
	}
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
