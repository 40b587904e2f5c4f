package tools

import (
	"sort"

	"github.com/cairnhq/cairn/internal/config"
)

// Groups are the tool groups of TOOLS.md, in catalog order.
var Groups = []string{"core", "read", "edit", "git", "test", "task", "cards", "workspace"}

// minimalTools is the minimal profile: exactly these tools, whichever of them
// are registered (TOOLS.md "Profiles"; its tool list stays under 1,500 tokens).
var minimalTools = map[string]bool{
	"describe": true, "status": true, "search": true, "symbol_get": true,
	"refs_find": true, "read_source": true, "map_repo": true,
}

// standardGroups is the default profile. Cards tools register only when a
// repository has cards, so listing the group here shows them exactly then.
var standardGroups = map[string]bool{
	"core": true, "read": true, "edit": true, "test": true, "task": true, "git": true, "cards": true,
}

// Visible lists the tools MCP clients see under a tools configuration, sorted
// by name: the profile (minimal, standard or all; empty means standard), plus
// tools.enable, minus tools.disable (each a group or a tool name; disable
// wins). REST and the CLI expose every tool regardless; every adapter that
// advertises tools to agents shares this one function.
func Visible(cfg config.ToolsConfig) []*Tool {
	var out []*Tool
	for _, t := range All() {
		on := false
		switch cfg.Profile {
		case "minimal":
			on = minimalTools[t.Name]
		case "all":
			on = true
		default:
			on = standardGroups[t.Group]
		}
		if matches(cfg.Enable, t) {
			on = true
		}
		if matches(cfg.Disable, t) {
			on = false
		}
		if on {
			out = append(out, t)
		}
	}
	return out
}

func matches(names []string, t *Tool) bool {
	for _, n := range names {
		if n == t.Name || n == t.Group {
			return true
		}
	}
	return false
}

// UnknownNames lists the names in tools.enable and tools.disable that are
// neither a group nor a registered tool (adapters warn about them: a typo
// silently hiding a tool is worse than a warning).
func UnknownNames(cfg config.ToolsConfig) []string {
	known := map[string]bool{}
	for _, g := range Groups {
		known[g] = true
	}
	for _, t := range All() {
		known[t.Name] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, n := range append(append([]string{}, cfg.Enable...), cfg.Disable...) {
		if !known[n] && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
