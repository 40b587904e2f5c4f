package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func testFamily() family {
	return family{name: "test", short: "Discover and run tests with structured results",
		long: `Find test targets (go test, pytest, unittest, jest, vitest, node --test,
cargo, Maven, Gradle, dotnet, rspec) and run them in parallel with timeouts,
reading each runner's machine output into results with failure locations.
'cairn test run' exits 1 when a test failed.`,
		cmds: func() []*toolCmd { return []*toolCmd{testDiscoverCmd(), testRunCmd()} }}
}

func testDiscoverCmd() *toolCmd {
	var in tools.TestDiscoverIn
	return &toolCmd{tool: "test_discover", use: "discover [PATHS...]", in: &in, pos: []posArg{{"PATHS", "paths", &in.Paths}},
		flags: func(f *argFlags) {
			f.StringArray(&in.AffectedBy, "affected-by", "affected_by")
			f.limit(&in.Limit, "limit", "targets to list", 100, 1000)
		},
		render: withAnswer(func(w io.Writer, r *tools.TestDiscoverOut) {
			for _, t := range r.Targets {
				avail := ""
				if !t.Available {
					avail = "  (runner not installed)"
				}
				fmt.Fprintf(w, "  %-40s %-8s cost %.2f  [%s]  %s%s\n", t.ID, t.Runner, t.Cost, t.ResolvedBy, strings.Join(t.Cmd, " "), avail)
			}
		})}
}

func testRunCmd() *toolCmd {
	var in tools.TestRunIn
	return &toolCmd{tool: "test_run", use: "run [TARGETS...]", in: &in, pos: []posArg{{"TARGETS", "targets", &in.Targets}},
		note: "Exits 1 when a test failed, errored or timed out (the results are printed first).",
		flags: func(f *argFlags) {
			f.StringArray(&in.AffectedBy, "affected-by", "affected_by")
			f.Bool(&in.FailFast, "fail-fast", "fail_fast")
			f.Int(&in.Workers, "workers", "workers", 0)
			f.Int(&in.TargetTimeoutSec, "target-timeout", "target_timeout_sec", 0)
			f.Int(&in.TimeoutSec, "run-timeout", "timeout_sec", 0)
		},
		render: withAnswer(func(w io.Writer, r *tools.TestRunOut) {
			for _, t := range r.Targets {
				fmt.Fprintf(w, "%-9s %s  %d passed, %d failed, %d skipped\n", t.Status, t.TargetID, t.Passed, t.Failed, t.Skipped)
				for _, f := range t.Failures {
					where := ""
					if f.Path != "" {
						where = fmt.Sprintf(" at %s:%d", f.Path, f.Line)
					}
					msg, _, _ := strings.Cut(f.Message, "\n")
					fmt.Fprintf(w, "  FAIL %s%s: %s\n", f.Test, where, msg)
				}
				if t.Output != "" && len(t.Failures) == 0 {
					for _, line := range strings.Split(t.Output, "\n") {
						fmt.Fprintf(w, "  | %s\n", line)
					}
				}
			}
		}),
		check: func(env *protocol.Envelope) error {
			if r, ok := env.Data.(*tools.TestRunOut); ok && r.Summary != nil && r.Status == "failed" {
				return exitError(1)
			}
			return nil
		}}
}
