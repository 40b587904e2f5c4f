package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func statusCmd() *toolCmd {
	var verbose, follow bool
	c := &toolCmd{
		tool: "status", use: "status", args: cobra.NoArgs, in: &tools.StatusIn{},
		note: `--verbose adds the tokens saved (per client and task when a server answers),
and the last 50 lines of the server log in the state dir (logs/cairn.log).
--follow prints the status, then the server log as it grows, until Ctrl+C.
--json prints the envelope.`,
		flags: func(f *argFlags) {
			f.fs.BoolVarP(&verbose, "verbose", "v", false, "also the savings and the last 50 lines of the server log")
			f.fs.BoolVarP(&follow, "follow", "f", false, "then print the server log as it grows, until Ctrl+C")
		},
	}
	c.render = func(w io.Writer, env *protocol.Envelope) {
		renderStatus(w, env)
		if out, ok := env.Data.(*tools.StatusOut); ok && (verbose || follow) {
			renderSavings(w, out.Savings)
			renderCaches(w, out.Caches)
			if verbose {
				tailLog(w, logPath(out.StateDir), 50)
			}
		}
	}
	c.check = func(env *protocol.Envelope) error {
		out, ok := env.Data.(*tools.StatusOut)
		if !follow || !ok {
			return nil
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return followLog(ctx, os.Stdout, logPath(out.StateDir))
	}
	return c
}

func renderStatus(w io.Writer, env *protocol.Envelope) {
	out, ok := env.Data.(*tools.StatusOut)
	if !ok {
		return
	}
	fmt.Fprintf(w, "repo:       %s\n", out.Repo)
	if out.Git {
		dirty := ""
		if out.Dirty {
			dirty = " (dirty)"
		}
		fmt.Fprintf(w, "git:        %s %s%s\n", out.Branch, short(out.Head), dirty)
	}
	fmt.Fprintf(w, "index:      %s, epoch %d, %s (%s)\n", out.IndexState, out.Epoch, env.Provenance.Freshness, out.IndexedAt)
	if out.StateReason != "" {
		fmt.Fprintf(w, "            %s\n", out.StateReason)
	}
	fmt.Fprintf(w, "files:      %d (%s)\n", out.Files, mapLine(out.FileStates))
	fmt.Fprintf(w, "symbols:    %d\n", out.Symbols)
	shared := "the blob store"
	if out.Storage.BaselineBytes > 0 {
		shared = "the blob store and baseline index"
	}
	fmt.Fprintf(w, "storage:    %s own, %s in %s shared by %d worktrees\n", mib(out.Storage.OwnBytes), mib(out.Storage.SharedBytes), shared, out.Storage.Worktrees)
	for _, l := range out.Languages {
		fmt.Fprintf(w, "  %-11s %d files, layers: %s\n", l.Language, l.Files, strings.Join(l.Layers, ", "))
	}
	for _, x := range out.Semantic.Indexes {
		at := short(x.IndexedCommit)
		if at == "" {
			at = "unknown commit"
		}
		behind := ""
		switch {
		case x.StaleAgainstHd && x.CommitsBehind >= 0:
			behind = fmt.Sprintf(", %d commits behind HEAD", x.CommitsBehind)
		case x.StaleAgainstHd:
			behind = ", not at HEAD"
		}
		fmt.Fprintf(w, "semantic:   %s %s at %s%s: %d usable, %d changed, %d missing files (imported %s)\n",
			x.Tool, x.ToolVersion, at, behind, x.Usable, x.Changed, x.Missing, x.ImportedAt)
	}
	for _, j := range out.Semantic.Jobs {
		fmt.Fprintf(w, "  job %d %s %q: %s %s\n", j.ID, j.Indexer, j.Root, j.Status, j.Progress+j.Error+j.Reason)
	}
	if s := out.Savings; s != nil {
		fmt.Fprintf(w, "saved:      %d tokens over %d calls (%d tokens returned)\n", s.Repository.TokensSaved, s.Repository.Calls, s.Repository.Tokens)
	}
	fmt.Fprintf(w, "state:      %s\n", out.StateDir)
	fmt.Fprintf(w, "blobs:      %s\n", out.BlobStore)
	fmt.Fprintf(w, "writer:     %s\n", out.Writer)
}

func renderCaches(w io.Writer, caches []obs.CacheView) {
	for _, c := range caches {
		fmt.Fprintf(w, "  cache  %-24s %6d hits %9d misses %5.1f%% hit rate\n", c.Name, c.Hits, c.Misses, 100*c.HitRatio)
	}
}

func renderSavings(w io.Writer, s *tools.SavingsStatus) {
	if s == nil {
		fmt.Fprintln(w, "savings:    none recorded yet")
		return
	}
	if s.Process != nil {
		fmt.Fprintf(w, "this server: %d tokens saved over %d calls; %d open tasks\n", s.Process.TokensSaved, s.Process.Calls, s.OpenTasks)
	}
	for _, c := range s.Clients {
		name := c.ID
		if c.Name != "" {
			name = c.Name + " (" + c.ID + ")"
		}
		fmt.Fprintf(w, "  client %-24s %6d calls %9d tokens saved\n", name, c.Calls, c.TokensSaved)
	}
	for _, t := range s.Tasks {
		fmt.Fprintf(w, "  task   %-24s %6d calls %9d tokens saved\n", t.TaskID, t.Calls, t.TokensSaved)
	}
}

// mib writes a byte count for people.
func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
