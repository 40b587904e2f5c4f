package tools

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/cards"
	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/protocol"
)

// Groups are the tool groups of TOOLS.md, in catalog order.
var Groups = []string{"core", "read", "edit", "git", "test", "task", "cards", "workspace"}

// minimalTools is the minimal profile: exactly these tools, whichever of them
// are registered (TOOLS.md "Profiles"; its tool list stays under 1,500 tokens).
var minimalTools = []string{"describe", "status", "search", "symbol_get", "refs_find", "read_source", "map_repo"}

// standardGroups is the default profile. Cards tools register only when a
// repository has cards, so listing the group here shows them exactly then.
var standardGroups = []string{"core", "read", "edit", "test", "task", "git", "cards"}

// IsVisible decides whether MCP clients see a tool under a tools configuration:
// the profile (minimal, standard or all; empty means standard), plus
// tools.enable, minus tools.disable (each a group or a tool name; disable
// wins), and describe always, so an agent can find out what else is on.
func IsVisible(cfg config.ToolsConfig, t *Tool) bool {
	if t.Name == "describe" {
		return true
	}
	var on bool
	switch cfg.Profile {
	case "minimal":
		on = slices.Contains(minimalTools, t.Name)
	case "all":
		on = true
	default:
		on = slices.Contains(standardGroups, t.Group)
	}
	if matches(cfg.Enable, t) {
		on = true
	}
	if matches(cfg.Disable, t) {
		on = false
	}
	return on
}

// Visible lists the tools MCP clients see, sorted by name. REST and the CLI
// expose every tool regardless; every adapter that advertises tools to agents
// shares this one function.
func Visible(cfg config.ToolsConfig) []*Tool {
	var out []*Tool
	for _, t := range All() {
		if IsVisible(cfg, t) {
			out = append(out, t)
		}
	}
	return out
}

// cardsOn reports whether the cards tools show for a repository: when it
// has a card directory, or when the group (or one of its tools) is enabled
// by name. root "" stands for no repository in particular: the group
// follows the profile alone.
func cardsOn(cfg config.ToolsConfig, root string, t *Tool) bool {
	if t.Group != "cards" || root == "" || matches(cfg.Enable, t) {
		return true
	}
	st, err := os.Stat(filepath.Join(root, filepath.FromSlash(cards.Dir)))
	return err == nil && st.IsDir()
}

// VisibleIn lists the tools MCP clients see for a repository: Visible, with
// the cards group only where the repository has cards or asks for them.
func VisibleIn(cfg config.ToolsConfig, root string) []*Tool {
	return slices.DeleteFunc(Visible(cfg), func(t *Tool) bool { return !cardsOn(cfg, root, t) })
}

func matches(names []string, t *Tool) bool {
	return slices.Contains(names, t.Name) || slices.Contains(names, t.Group)
}

// Selection is a tools configuration as describe reports it.
type Selection struct {
	Profile string
	cfg     config.ToolsConfig
	root    string // the repository ("" for none: groups follow the profile)
}

// NewSelection reads the tools section of the configuration.
func NewSelection(cfg config.ToolsConfig, root string) Selection {
	if cfg.Profile == "" {
		cfg.Profile = "standard"
	}
	return Selection{Profile: cfg.Profile, cfg: cfg, root: root}
}

// On reports whether a tool is visible to MCP clients.
func (s Selection) On(t *Tool) bool { return IsVisible(s.cfg, t) && cardsOn(s.cfg, s.root, t) }

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

// toolWord finds the words of a text that may name a tool (snake_case).
var toolWord = regexp.MustCompile(`[a-z][a-z0-9]*(?:_[a-z0-9]+)+`)

// namesHidden reports whether a text names a registered tool the selection
// hides.
func (s Selection) namesHidden(text string) bool {
	for _, w := range toolWord.FindAllString(text, -1) {
		if t := Lookup(w); t != nil && !s.On(t) {
			return true
		}
	}
	return false
}

// Texts returns a tool's documentation as the selection's clients see it:
// a sentence of the summary or the doc, or an item of when and when-not,
// that names a tool the selection hides is left out (an agent would reach
// for a tool it does not have).
func (s Selection) Texts(t *Tool) (summary, doc string, when, whenNot []string) {
	keep := func(items []string) []string {
		out := []string{}
		for _, it := range items {
			if !s.namesHidden(it) {
				out = append(out, it)
			}
		}
		return out
	}
	sentences := func(text string) string {
		var kept []string
		for _, sn := range splitSentences(text) {
			if !s.namesHidden(sn) {
				kept = append(kept, sn)
			}
		}
		return strings.Join(kept, " ")
	}
	return sentences(t.Summary), sentences(t.Doc), keep(t.When), keep(t.WhenNot)
}

// splitSentences splits prose after ". " (a full stop ending a sentence).
func splitSentences(text string) []string {
	var out []string
	for text != "" {
		i := strings.Index(text, ". ")
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = strings.TrimLeft(text[i+2:], " ")
	}
	return out
}

// visibleNext keeps the next actions that name a tool the configuration
// shows (the others name a tool the client does not have).
func visibleNext(cfg config.ToolsConfig, root string, next []protocol.NextAction) []protocol.NextAction {
	sel := NewSelection(cfg, root)
	return slices.DeleteFunc(next, func(a protocol.NextAction) bool {
		t := Lookup(a.Tool)
		return t == nil || !sel.On(t)
	})
}
