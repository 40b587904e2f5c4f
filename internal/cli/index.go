package cli

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/tools"
)

func indexCmd() *toolCmd {
	var in tools.IndexIn
	var noWait bool
	return &toolCmd{
		tool: "index_ensure", use: "index", args: cobra.NoArgs,
		note: `With --semantic or --scip the command waits for the jobs (up to an hour)
unless --no-wait is given and a server owns the index. Progress goes to
stderr for long runs; a summary to stdout.`,
		flags: func(f *argFlags) {
			f.Bool(&in.Full, "full", "full")
			f.Bool(&in.Semantic, "semantic", "semantic")
			f.String(&in.SCIP, "scip", "scip", "")
			f.fs.BoolVar(&noWait, "no-wait", false, "with --semantic: do not wait for the jobs (a server owning the index runs them)")
		},
		request: func(*cobra.Command, []string) (any, error) {
			in.SCIP = fromWorkingDir(in.SCIP)
			if (in.Semantic || in.SCIP != "") && !noWait {
				in.Wait = true
				if in.TimeoutMS == 0 {
					in.TimeoutMS = int(time.Hour / time.Millisecond)
				}
			}
			return in, nil
		},
		render: withAnswer(func(w io.Writer, out *tools.IndexOut) {
			fmt.Fprintf(w, "time: %s\n", timingLine(out.TimingMS))
			eachLine(w, "failed: %s\n", out.Failed)
			if out.Semantic != nil {
				renderSemanticJobs(w, out.Semantic)
			}
		}),
	}
}

func renderSemanticJobs(w io.Writer, s *tools.SemanticOut) {
	for _, d := range s.Detected {
		state := "not installed"
		if d.Installed {
			state = d.Path
		}
		fmt.Fprintf(w, "indexer %s for %q: %s\n", d.Indexer, d.Root, state)
	}
	eachLine(w, "skipped: %s\n", s.Skipped)
	for _, j := range s.Jobs {
		line := fmt.Sprintf("job %d %s %q: %s", j.ID, j.Indexer, j.Root, j.Status)
		switch {
		case j.Error != "":
			line += " (" + j.Error + ")"
		case j.Reason != "":
			line += " (" + j.Reason + ")"
		case j.Progress != "" && j.Status == "running":
			line += " (" + j.Progress + ")"
		}
		fmt.Fprintln(w, line)
	}
}

func timingLine(t map[string]int64) string {
	parts := []string{fmt.Sprintf("total %dms", t["total"])}
	for _, k := range slices.Sorted(maps.Keys(t)) {
		if k != "total" {
			parts = append(parts, fmt.Sprintf("%s %dms", k, t[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// fromWorkingDir makes a relative path that names a file from the working
// directory absolute, as a command-line user means it; any other path is
// left for the tool to read relative to the repository.
func fromWorkingDir(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if _, err := os.Stat(p); err != nil {
		return p
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
