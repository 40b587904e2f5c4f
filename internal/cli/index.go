package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func indexCmd(g *globals) *cobra.Command {
	var in tools.IndexIn
	var noWait bool
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Bring the index up to date (every query does this too); --full rebuilds it; --semantic runs the SCIP indexers",
		Long: `index reconciles the index with the files on disk: only files whose size,
mtime or inode changed are read, and only content never seen before is parsed.
Every query command does the same first, so running index by hand is only
needed to build the index ahead of time or to rebuild it (--full).

--semantic also refreshes the semantic layer: every installed SCIP indexer
that fits a module (scip-go, scip-typescript, scip-python) runs as a job and
its output is imported in one transaction, as are the .scip files listed in
semantic.scip_paths. --scip FILE imports one .scip file. The command waits
for the jobs unless --no-wait is given and a server owns the index.
Progress goes to stderr for long runs; a summary to stdout.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (in.Semantic || in.SCIP != "") && !noWait {
				in.Wait = true
				if in.TimeoutMS == 0 {
					in.TimeoutMS = int(time.Hour / time.Millisecond)
				}
			}
			return invoke(cmd, g, "index_ensure", in, func(w io.Writer, env *protocol.Envelope) {
				fmt.Fprintln(w, env.Answer)
				if out, ok := env.Data.(*tools.IndexOut); ok {
					fmt.Fprintf(w, "time: %s\n", timingLine(out.TimingMS))
					for _, f := range out.Failed {
						fmt.Fprintf(w, "failed: %s\n", f)
					}
					if out.Semantic != nil {
						renderSemanticJobs(w, out.Semantic)
					}
				}
			})
		},
	}
	cmd.Flags().BoolVar(&in.Full, "full", false, "re-read every file and rebuild everything")
	cmd.Flags().BoolVar(&in.Semantic, "semantic", false, "run the installed SCIP indexers and import their output (and semantic.scip_paths)")
	cmd.Flags().StringVar(&in.SCIP, "scip", "", "import this .scip file into the semantic layer")
	cmd.Flags().BoolVar(&noWait, "no-wait", false, "with --semantic: do not wait for the jobs (a server owning the index runs them)")
	return cmd
}

func renderSemanticJobs(w io.Writer, s *tools.SemanticOut) {
	for _, d := range s.Detected {
		state := "not installed"
		if d.Installed {
			state = d.Path
		}
		fmt.Fprintf(w, "indexer %s for %q: %s\n", d.Indexer, d.Root, state)
	}
	for _, sk := range s.Skipped {
		fmt.Fprintf(w, "skipped: %s\n", sk)
	}
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
	keys := make([]string, 0, len(t))
	for k := range t {
		if k != "total" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := []string{fmt.Sprintf("total %dms", t["total"])}
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %dms", k, t[k]))
	}
	return strings.Join(parts, ", ")
}
