package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/baseline"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
)

// artifactCmds are `cairn index export` and `cairn index import`: the index
// of a commit as one checksummed, versioned file (docs/ARTIFACTS.md).
func artifactCmds(g *globals) []*cobra.Command {
	var out string
	var allowDirty bool
	export := &cobra.Command{
		Use:   "export --out FILE",
		Short: "Write the index of the current commit as a checksummed, versioned artifact",
		Long: `export brings the index up to date and writes it, with the content-addressed
facts it references, to FILE: one file with a header (format version and the
SHA-256 of the rest), a manifest (schema and extractor versions, the commit)
and the databases (docs/ARTIFACTS.md). Name it <commit>` + baseline.Ext + ` to let
import find it in a directory. A working tree that differs from HEAD is
refused (exit 7) unless --allow-dirty; a running server keeps the index
(exit 7).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return finish(g, errorEnvelope(errs.E(errs.Usage, "name the artifact: --out FILE")), nil)
			}
			paths, cfg, err := g.locate(cmd.Context())
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			p := newProgress(g.stderr)
			res, err := baseline.Export(cmd.Context(), baseline.ExportOptions{Paths: paths, Config: cfg, Out: out, AllowDirty: allowDirty,
				CairnVersion: Version, Progress: p.report})
			p.done()
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			env := adminEnvelope(fmt.Sprintf("wrote %s (%s): the index of %s, %d files", res.Out, mib(res.Bytes), short(res.Manifest.Commit), res.Manifest.Files), res)
			env.Meta.TimingMS = res.TimingMS
			return finish(g, env, printAnswer)
		},
	}
	export.Flags().StringVar(&out, "out", "", "the artifact file to write")
	export.Flags().BoolVar(&allowDirty, "allow-dirty", false, "export even when the working tree differs from HEAD (the manifest says so)")

	var timeout time.Duration
	var maxBytes int64
	imp := &cobra.Command{
		Use:   "import FILE|DIR|URL",
		Short: "Start the index from an artifact: verify it, install it, index only the files that differ",
		Long: `import verifies an artifact written by export (its checksum, then its format,
schema and extractor versions), replaces this worktree's index with it (its
facts join the blob store the repository's worktrees share), then indexes
the files that differ from the artifact's commit. DIR takes <HEAD>` + baseline.Ext + `
or the only artifact in it; an http(s) URL is downloaded under --timeout and
--max-bytes. A damaged artifact exits 5 (ARTIFACT_CORRUPT), one from another
version of Cairn exits 7 (ARTIFACT_INCOMPATIBLE); either way nothing
changes. A running server keeps the index (exit 7).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			paths, cfg, err := g.locate(cmd.Context())
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			p := newProgress(g.stderr)
			res, err := baseline.Import(cmd.Context(), baseline.ImportOptions{Paths: paths, Config: cfg, Source: args[0],
				Timeout: timeout, MaxBytes: maxBytes, Progress: p.report})
			p.done()
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			env := adminEnvelope(fmt.Sprintf("imported the index of %s: %d files, %d parsed and %d relinked here", short(res.Manifest.Commit),
				res.Files, res.Parsed, res.Relinked), res)
			env.Meta.TimingMS = res.TimingMS
			return finish(g, env, func(w io.Writer, e *protocol.Envelope) {
				fmt.Fprintln(w, e.Answer)
				fmt.Fprintf(w, "time: %s\n", timingLine(res.TimingMS))
			})
		},
	}
	imp.Flags().DurationVar(&timeout, "timeout", baseline.DefaultTimeout, "bound of a download")
	imp.Flags().Int64Var(&maxBytes, "max-bytes", baseline.DefaultMaxBytes, "size cap of a download")
	return []*cobra.Command{export, imp}
}
