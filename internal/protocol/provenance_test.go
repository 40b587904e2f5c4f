package protocol

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A fresh and complete provenance is sent compact and read back whole; any
// other is sent whole.
func TestProvenanceWire(t *testing.T) {
	fresh := Provenance{RepoStateID: "rs_1", Head: "abc", Consistency: "committed", RepoStateMode: "head", Freshness: Fresh,
		IndexState: StateReady, Epoch: 3, Layers: []string{"syntactic"}, Completeness: Completeness{Score: 1, Reason: "full-index"},
		Warnings: []string{}, Truncations: []Truncation{}, LimitsApplied: map[string]Limit{}}
	dirty := fresh
	dirty.Dirty, dirty.Consistency = true, "workspace"
	stale := fresh
	stale.Freshness = MayBeStale
	warned := fresh
	warned.Warnings = []string{"w"}
	tests := []struct {
		name string
		in   Provenance
		wire string
	}{
		{"fresh", fresh, `{"repo_state_id":"rs_1","head":"abc","freshness":"fresh","epoch":3,"layers":["syntactic"]}`},
		{"dirty", dirty, `{"repo_state_id":"rs_1","head":"abc","dirty":true,"consistency":"workspace","freshness":"fresh","epoch":3,"layers":["syntactic"]}`},
		{"stale", stale, `{"repo_state_id":"rs_1","head":"abc","dirty":false,"consistency":"committed","repo_state_mode":"head","freshness":"may-be-stale","index_state":"ready","epoch":3,"layers":["syntactic"],"completeness":{"score":1,"reason":"full-index"},"warnings":[],"truncations":[],"limits_applied":{}}`},
		{"warned", warned, ""},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if tt.wire != "" && string(b) != tt.wire {
			t.Errorf("%s: wire\n got %s\nwant %s", tt.name, b, tt.wire)
		}
		var back Provenance
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.in, back); diff != "" {
			t.Errorf("%s: read back (-want +got):\n%s", tt.name, diff)
		}
	}
}
