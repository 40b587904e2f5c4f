package tools

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/config"
)

func TestArgDocs(t *testing.T) {
	type in struct {
		Query string    `json:"query" jsonschema:"what to find"`
		At    *Position `json:"at,omitempty" jsonschema:"a position"`
		Tags  []string  `json:"tags,omitempty"`
		skip  int
		Skip  int `json:"-"`
		Base
	}
	_ = in{}.skip
	got := argDocs(reflect.TypeOf(in{}))
	want := []ArgDoc{
		{Name: "query", Type: "string", Required: true, Description: "what to find"},
		{Name: "at", Type: "object", Description: "a position", Fields: []ArgDoc{
			{Name: "path", Type: "string", Required: true},
			{Name: "line", Type: "integer", Required: true, Description: "1-based line"},
			{Name: "col", Type: "integer", Required: true, Description: "1-based column in bytes"},
		}},
		{Name: "tags", Type: "array of string"},
		{Name: "timeout_ms", Type: "integer", Description: "deadline in milliseconds"},
		{Name: "repo_state_mode", Type: "string", Description: "head (default) or full: rehash every file first"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("argDocs (-want +got):\n%s", diff)
	}
}

// Every registered tool documents its arguments and has a valid example.
func TestToolDocs(t *testing.T) {
	sel := NewSelection(config.ToolsConfig{Profile: "standard"}, "")
	for _, tool := range All() {
		d := toolDoc(tool, sel)
		for _, a := range d.Arguments {
			if a.Description == "" {
				t.Errorf("%s: argument %s has no description (jsonschema tag)", tool.Name, a.Name)
			}
		}
		for i, ex := range d.Examples {
			if _, ok := ex.(map[string]any); !ok {
				t.Errorf("%s: example %d is not a JSON object: %v", tool.Name, i, ex)
			}
		}
		if firstSentence(tool.Summary) == "" {
			t.Errorf("%s: empty summary", tool.Name)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"describe", "doctor", "read_file_full", "read_source", "refs_find", "search", "status", "symbol_get"}
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"serch", []string{"search"}},
		{"read", []string{"read_file_full", "read_source"}},
		{"symbol", []string{"symbol_get"}},
		{"stat", []string{"status"}},
		{"zzzzzz", []string{}},
	} {
		if diff := cmp.Diff(tc.want, closest(tc.q, names, 3)); diff != "" {
			t.Errorf("closest(%q) (-want +got):\n%s", tc.q, diff)
		}
	}
}

func TestFirstSentence(t *testing.T) {
	for in, want := range map[string]string{
		"One. Two.":                  "One.",
		"Filters, e.g. paths. More.": "Filters, e.g. paths.",
		"No stop":                    "No stop",
		"Version 1.2 is fine. Next.": "Version 1.2 is fine.",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSelection(t *testing.T) {
	tools := []*Tool{
		{Name: "describe", Group: "core"}, {Name: "doctor", Group: "core"}, {Name: "search", Group: "read"},
		{Name: "list_files", Group: "read"}, {Name: "git_push", Group: "git"}, {Name: "card_get", Group: "cards"},
		{Name: "workspace_list", Group: "workspace"},
	}
	on := func(s Selection) []string {
		var out []string
		for _, t := range tools {
			if s.On(t) {
				out = append(out, t.Name)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		cfg  config.ToolsConfig
		want []string
	}{
		{"minimal", config.ToolsConfig{Profile: "minimal"}, []string{"describe", "search"}},
		// cards tools register only when a repository has cards, so the group is in the profile
		{"standard", config.ToolsConfig{Profile: "standard"}, []string{"describe", "doctor", "search", "list_files", "git_push", "card_get"}},
		{"all", config.ToolsConfig{Profile: "all"}, []string{"describe", "doctor", "search", "list_files", "git_push", "card_get", "workspace_list"}},
		{"enable a group and a tool", config.ToolsConfig{Profile: "minimal", Enable: []string{"cards", "doctor"}}, []string{"describe", "doctor", "search", "card_get"}},
		{"disable wins, describe stays", config.ToolsConfig{Profile: "all", Disable: []string{"core", "git", "search"}, Enable: []string{"search"}},
			[]string{"describe", "list_files", "card_get", "workspace_list"}},
	} {
		if diff := cmp.Diff(tc.want, on(NewSelection(tc.cfg, ""))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestReadBudget(t *testing.T) {
	b := NewReadBudget(100)
	if !b.Spend(60) || b.Spend(41) || !b.Spend(40) || b.Remaining() != 0 {
		t.Fatalf("spend: used %d remaining %d", b.Used(), b.Remaining())
	}
	b.Adjust(-30)
	if b.Used() != 70 {
		t.Errorf("after a refund used = %d", b.Used())
	}
	b.Adjust(-500)
	if b.Used() != 0 {
		t.Errorf("refunds go below zero: %d", b.Used())
	}
	b.Reset()
	if b.Remaining() != 100 {
		t.Errorf("after reset remaining = %d", b.Remaining())
	}
}
