package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// family is a group of tool commands under one word: `cairn git status`,
// `cairn test run`, `cairn lint check`, `cairn plan apply`; a family may
// hold families of its own (`cairn cards link add`).
type family struct {
	name  string
	short string
	long  string
	cmds  func() []*toolCmd
	subs  []family
}

// families lists the command groups.
func families() []family {
	return []family{gitFamily(), testFamily(), lintFamily(), planFamily(), cardsFamily(), workspaceFamily()}
}

// members are the family's commands and those of its sub-families, each
// marked with the words that lead to it.
func (f family) members() []*toolCmd { return f.under("") }

func (f family) under(parent string) []*toolCmd {
	cs := f.own(parent)
	for _, s := range f.subs {
		cs = append(cs, s.under(f.path(parent))...)
	}
	return cs
}

// own are the family's own commands, without its sub-families'.
func (f family) own(parent string) []*toolCmd {
	if f.cmds == nil {
		return nil
	}
	cs := f.cmds()
	for _, c := range cs {
		c.family = f.path(parent)
	}
	return cs
}

// path is the words that name the family under its parent's.
func (f family) path(parent string) string { return strings.TrimSpace(parent + " " + f.name) }

// command builds the group's command with its members under it.
func (f family) command(g *globals) *cobra.Command { return f.build(g, "") }

func (f family) build(g *globals, parent string) *cobra.Command {
	cmd := &cobra.Command{Use: f.name, Short: f.short, Long: f.long, Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() }}
	for _, c := range f.own(parent) {
		sub, _ := c.command(g)
		cmd.AddCommand(sub)
	}
	for _, s := range f.subs {
		cmd.AddCommand(s.build(g, f.path(parent)))
	}
	return cmd
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
