package cli

import (
	"fmt"

	"github.com/spf13/cobra"
)

func versionCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(g.stdout, "cairn %s\n", Version)
		},
	}
}
