package tools

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/cairnhq/cairn/internal/config"
)

// minimalTools is the minimal profile: what an agent needs to orient, find and
// read, in a tool list of about 1,500 tokens (TOOLS.md "Profiles").
var minimalTools = []string{"describe", "status", "search", "symbol_get", "refs_find", "read_source", "map_repo"}

// standardGroups are the groups of the standard profile; cards join them when
// the repository has cards.
var standardGroups = []string{"core", "read", "edit", "test", "task", "git"}

// Selection decides which tools MCP clients see (REST and the CLI expose all).
type Selection struct {
	Profile string
	enable  []string // groups or tool names added to the profile
	disable []string // groups or tool names removed (describe stays)
	cards   bool     // the repository has .cairn/cards/
}

// NewSelection reads the tools section of the configuration for a repository.
func NewSelection(cfg config.ToolsConfig, root string) Selection {
	s := Selection{Profile: cfg.Profile, enable: cfg.Enable, disable: cfg.Disable}
	if s.Profile == "" {
		s.Profile = "standard"
	}
	if root != "" {
		if st, err := os.Stat(filepath.Join(root, ".cairn", "cards")); err == nil && st.IsDir() {
			s.cards = true
		}
	}
	return s
}

// On reports whether a tool is visible to MCP clients. describe is always
// on, so an agent can always find out what else is.
func (s Selection) On(t *Tool) bool {
	if t.Name == "describe" {
		return true
	}
	match := func(list []string) bool { return slices.Contains(list, t.Name) || slices.Contains(list, t.Group) }
	if match(s.disable) {
		return false
	}
	if match(s.enable) {
		return true
	}
	switch s.Profile {
	case "all":
		return true
	case "minimal":
		return slices.Contains(minimalTools, t.Name)
	}
	return slices.Contains(standardGroups, t.Group) || (t.Group == "cards" && s.cards)
}
