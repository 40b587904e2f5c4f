package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/protocol"
)

// adminEnvelope wraps what an admin command (one that runs no tool) reports,
// so --json prints an envelope like every other command.
func adminEnvelope(answer string, data any) *protocol.Envelope {
	return &protocol.Envelope{Answer: answer, Data: data, NextActions: []protocol.NextAction{},
		Provenance: protocol.Provenance{Consistency: "committed", RepoStateMode: "head", Freshness: protocol.Fresh, IndexState: protocol.StateReady,
			Layers: []string{}, Completeness: protocol.Completeness{Score: 1, Reason: "admin"}, Warnings: []string{},
			Truncations: []protocol.Truncation{}, LimitsApplied: map[string]protocol.Limit{}},
		Meta: protocol.Meta{SchemaVersion: protocol.SchemaVersion, RequestID: "req_cli", TimingMS: map[string]int64{}}}
}

func configCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "config", Short: "Show the configuration in effect"}
	cmd.AddCommand(&cobra.Command{
		Use:   "show",
		Short: "Print the effective configuration and where each value comes from",
		Long: `show prints every configuration key with its value and the layer that set it:
default, ~/.config/cairn/config.yaml, .cairn/config.yaml, an environment
variable CAIRN__SECTION__KEY, or a flag (--timeout sets query.timeout_ms).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			paths, cfg, err := g.locate(cmd.Context())
			if err != nil {
				return finish(g, errorEnvelope(err), nil)
			}
			flags := map[string]string{}
			if g.timeoutMS > 0 {
				flags["query.timeout_ms"] = "--timeout"
			}
			settings := config.Explain(paths.Root, cfg, flags)
			env := adminEnvelope(fmt.Sprintf("%d settings for %s", len(settings), paths.Root), map[string]any{"repo": paths.Root, "settings": settings})
			return finish(g, env, func(w io.Writer, _ *protocol.Envelope) {
				for _, s := range settings {
					b, _ := json.Marshal(s.Value)
					fmt.Fprintf(w, "%-28s %-28s %s\n", s.Key, string(b), s.Source)
				}
			})
		},
	})
	return cmd
}
