package cli

import (
	"github.com/spf13/cobra"
)

// family is a group of tool commands under one word: `cairn git status`,
// `cairn test run`, `cairn lint check`, `cairn plan apply`.
type family struct {
	name  string
	short string
	long  string
	cmds  func() []*toolCmd
}

// families lists the command groups.
func families() []family { return []family{gitFamily(), testFamily(), lintFamily(), planFamily()} }

// members are the family's commands, each marked as belonging to it.
func (f family) members() []*toolCmd {
	cs := f.cmds()
	for _, c := range cs {
		c.family = f.name
	}
	return cs
}

// command builds the group's command with its members under it.
func (f family) command(g *globals) *cobra.Command {
	parent := &cobra.Command{Use: f.name, Short: f.short, Long: f.long, Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() }}
	for _, c := range f.members() {
		cmd, _ := c.command(g)
		parent.AddCommand(cmd)
	}
	return parent
}

// allToolCommands is every command that runs a tool: the top-level ones and
// the families' members.
func allToolCommands() []*toolCmd {
	out := toolCommands()
	for _, f := range families() {
		out = append(out, f.members()...)
	}
	return out
}
