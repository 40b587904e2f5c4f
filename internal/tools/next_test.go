package tools

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/protocol"
)

// next_actions name only tools the profile enables: every drilldown any
// tool may suggest is kept exactly when the profile shows its tool.
func TestNextActionsNameVisibleTools(t *testing.T) {
	var every []protocol.NextAction
	for _, tl := range All() {
		every = append(every, protocol.NextAction{Tool: tl.Name, Args: map[string]any{}, Why: "test"})
	}
	every = append(every, protocol.NextAction{Tool: "no_such_tool", Args: map[string]any{}})
	for _, cfg := range []config.ToolsConfig{{Profile: "minimal"}, {Profile: "standard"}, {Profile: "all"},
		{Profile: "minimal", Enable: []string{"index_ensure"}}, {Profile: "standard", Disable: []string{"git"}}} {
		var want []string
		for _, tl := range VisibleIn(cfg, "") {
			want = append(want, tl.Name)
		}
		var got []string
		for _, a := range visibleNext(cfg, "", append([]protocol.NextAction(nil), every...)) {
			got = append(got, a.Tool)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", cfg, diff)
		}
	}
}
