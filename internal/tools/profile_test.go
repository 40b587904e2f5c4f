package tools_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/tools"
)

func visible(cfg config.ToolsConfig) []string {
	var out []string
	for _, t := range tools.Visible(cfg) {
		out = append(out, t.Name)
	}
	return out
}

// registered keeps the names that are registered, sorted (some tools of the
// profiles are added by other parts of Cairn).
func registered(names ...string) []string {
	var out []string
	for _, tl := range tools.All() {
		for _, n := range names {
			if tl.Name == n {
				out = append(out, n)
			}
		}
	}
	return out
}

// inGroups lists the registered tools of some groups, plus extra names.
func inGroups(groups []string, extra ...string) []string {
	var out []string
	for _, tl := range tools.All() {
		keep := false
		for _, g := range groups {
			keep = keep || tl.Group == g
		}
		for _, n := range extra {
			keep = keep || tl.Name == n
		}
		if keep {
			out = append(out, tl.Name)
		}
	}
	return out
}

func TestVisible(t *testing.T) {
	minimal := []string{"describe", "status", "search", "symbol_get", "refs_find", "read_source", "map_repo"}
	tests := []struct {
		name string
		cfg  config.ToolsConfig
		want []string
	}{
		{"standard", config.ToolsConfig{Profile: "standard"}, inGroups([]string{"core", "read", "edit", "test", "task", "git", "cards"})},
		{"empty profile is standard", config.ToolsConfig{}, inGroups([]string{"core", "read", "edit", "test", "task", "git", "cards"})},
		{"all", config.ToolsConfig{Profile: "all"}, inGroups(tools.Groups)},
		{"minimal", config.ToolsConfig{Profile: "minimal"}, registered(minimal...)},
		{"enable a tool", config.ToolsConfig{Profile: "minimal", Enable: []string{"list_files"}},
			registered(append(minimal, "list_files")...)},
		{"enable a group", config.ToolsConfig{Profile: "minimal", Enable: []string{"core"}}, inGroups([]string{"core"}, minimal...)},
		{"disable wins", config.ToolsConfig{Profile: "all", Enable: []string{"search"}, Disable: []string{"read"}},
			func() []string {
				var out []string
				for _, n := range inGroups(tools.Groups) {
					if tools.Lookup(n).Group != "read" {
						out = append(out, n)
					}
				}
				return out
			}()},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, visible(tc.cfg)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	if len(visible(config.ToolsConfig{Profile: "minimal"})) == 0 || len(visible(config.ToolsConfig{Profile: "minimal", Disable: []string{"search"}})) !=
		len(visible(config.ToolsConfig{Profile: "minimal"}))-1 {
		t.Errorf("minimal profile: search is not there to disable")
	}
}

func TestUnknownNames(t *testing.T) {
	got := tools.UnknownNames(config.ToolsConfig{Enable: []string{"git", "serach", "search"}, Disable: []string{"cards", "nope", "serach"}})
	if diff := cmp.Diff([]string{"nope", "serach"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestInputSchemas(t *testing.T) {
	for _, tl := range tools.All() {
		s, err := tl.InputSchema()
		if err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		b, _ := json.Marshal(s)
		if s.Type != "object" || strings.Contains(string(b), `"null"`) {
			t.Errorf("%s: %s", tl.Name, b)
		}
		common := []string{"timeout_ms", "repo_state_mode"} // Base: every tool
		if _, paged := s.Properties["limit"]; paged {
			common = append(common, "limit", "cursor", "max_chars") // Common: tools with lists
		}
		for _, common := range common {
			p := s.Properties[common]
			if p == nil || p.Description == "" {
				t.Errorf("%s: common argument %s missing or undescribed", tl.Name, common)
			}
			for _, r := range s.Required {
				if r == common {
					t.Errorf("%s: common argument %s is required", tl.Name, common)
				}
			}
		}
		c, err := tl.CompactInputSchema()
		if err != nil {
			t.Fatal(err)
		}
		want := len(s.Properties)
		if _, ok := s.Properties["cursor"]; ok && !tl.Paged {
			want-- // a tool that never pages does not advertise a cursor
		}
		if _, ok := s.Properties["consistency"]; ok {
			want -= 3 // nor the consistency modes (consistency, workspace_id, virtual_files)
		}
		if c.Properties["timeout_ms"].Description != "" || len(c.Properties) != want || c.AdditionalProperties != nil {
			t.Errorf("%s: compact schema keeps common descriptions or additionalProperties, or loses properties", tl.Name)
		}
		if _, ok := c.Properties["cursor"]; ok != tl.Paged && ok {
			t.Errorf("%s: compact schema advertises a cursor for a tool that never pages", tl.Name)
		}
		if s.Properties["timeout_ms"].Description == "" {
			t.Errorf("%s: the compact schema changed the full one", tl.Name)
		}
	}
}

// Every tool's documentation, as a profile's clients see it (the MCP
// description, describe), names only tools that profile enables.
func TestTextsNameVisibleTools(t *testing.T) {
	word := regexp.MustCompile(`[a-z][a-z0-9]*(?:_[a-z0-9]+)+`)
	hiddenIn := func(on map[string]bool, texts ...string) []string {
		var out []string
		for _, s := range texts {
			for _, w := range word.FindAllString(s, -1) {
				if tools.Lookup(w) != nil && !on[w] {
					out = append(out, w)
				}
			}
		}
		return out
	}
	filtered := 0
	for _, cfg := range []config.ToolsConfig{{Profile: "minimal"}, {Profile: "standard"}, {Profile: "all"},
		{Profile: "minimal", Enable: []string{"list_files"}}, {Profile: "standard", Disable: []string{"read", "git"}}} {
		sel := tools.NewSelection(cfg, "")
		on := map[string]bool{}
		for _, tl := range tools.Visible(cfg) {
			on[tl.Name] = true
		}
		for _, tl := range tools.Visible(cfg) {
			summary, doc, when, whenNot := sel.Texts(tl)
			if bad := hiddenIn(on, append([]string{summary, doc}, append(when, whenNot...)...)...); len(bad) > 0 {
				t.Errorf("%+v: %s's documentation names %v, which the profile does not enable", cfg, tl.Name, bad)
			}
			if summary == "" {
				t.Errorf("%+v: %s has no summary left", cfg, tl.Name)
			}
			filtered += len(hiddenIn(on, append([]string{tl.Summary, tl.Doc}, append(tl.When, tl.WhenNot...)...)...))
		}
	}
	if filtered == 0 {
		t.Errorf("no tool's documentation names a tool a profile hides: the test checks nothing")
	}
}
