package repomap

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDedupeEntries(t *testing.T) {
	got := dedupeEntries([]EntryPoint{
		{Path: "web/src/index.ts", Kind: "index_file", Name: "index.ts", Module: "web"},
		{Path: "web/src/index.ts", Kind: "npm_exports", Name: ".", Module: "web"},
		{Path: "cmd/x/main.go", Kind: "main_file", Name: "main.go", Module: "m"},
		{Path: "cmd/x/main.go", Kind: "go_main", Name: "main", Module: "m"},
		{Path: "web/bin/a.js", Kind: "npm_bin", Name: "b", Module: "web"},
		{Path: "web/bin/a.js", Kind: "npm_bin", Name: "a", Module: "web"},
		{Path: "web/bin/a.js", Kind: "npm_bin", Name: "a", Module: "web"},
	})
	want := []EntryPoint{
		{Path: "cmd/x/main.go", Kind: "go_main", Name: "main", Module: "m"},
		{Path: "web/bin/a.js", Kind: "npm_bin", Name: "a", Module: "web"},
		{Path: "web/bin/a.js", Kind: "npm_bin", Name: "b", Module: "web"},
		{Path: "web/src/index.ts", Kind: "npm_exports", Name: ".", Module: "web"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
