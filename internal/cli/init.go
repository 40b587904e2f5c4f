package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
)

func initCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Write .cairn/config.yaml, .cairn/.gitignore and .cairnignore into the repository",
		Long: `init is the only command that writes into the tree. It creates .cairn/ (a
commented config.yaml and a .gitignore that keeps cache/ out of git) and a
.cairnignore with defaults that keep secrets out of the index. Files that
already exist are left alone, so running it twice is safe. It ends with the
configuration of Claude Code, Cursor and VS Code for this repository, over
stdio and over HTTP.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			paths, err := g.locateOnly(cmd.Context())
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			res, err := config.Init(paths.Root)
			if err != nil {
				return finish(g, errorEnvelope(errs.Wrap(errs.Internal, err, "init")), nil)
			}
			env := adminEnvelope(fmt.Sprintf("initialised %s", paths.Root), map[string]any{
				"repo": paths.Root, "created": nonNil(res.Created), "kept": nonNil(res.Kept), "client_config": snippetData(paths.Root)})
			env.Provenance.Completeness.Reason = "init"
			return finish(g, env, func(w io.Writer, _ *protocol.Envelope) {
				eachLine(w, "created %s\n", res.Created)
				eachLine(w, "kept    %s (already there)\n", res.Kept)
				printOnboarding(w, paths.Root)
			})
		},
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
