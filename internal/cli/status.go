package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

func statusCmd() *toolCmd {
	return &toolCmd{
		tool: "status", use: "status", args: cobra.NoArgs, in: &tools.StatusIn{},
		render: renderStatus,
	}
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
	fmt.Fprintf(w, "files:      %d (%s)\n", out.Files, mapLine(out.FileStates))
	fmt.Fprintf(w, "symbols:    %d\n", out.Symbols)
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
	fmt.Fprintf(w, "state:      %s\n", out.StateDir)
	fmt.Fprintf(w, "blobs:      %s\n", out.BlobStore)
	fmt.Fprintf(w, "writer:     %s\n", out.Writer)
}
