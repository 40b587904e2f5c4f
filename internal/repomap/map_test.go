package repomap

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTestConvention(t *testing.T) {
	tests := []struct{ path, lang, want string }{
		{"pkg/a_test.go", "go", "*_test.go"},
		{"pkg/a.go", "go", ""},
		{"pkg/testdata/x_test.go", "go", ""},
		{"tests/test_a.py", "python", "test_*.py"},
		{"a/b_test.py", "python", "*_test.py"},
		{"tests/conftest.py", "python", "conftest.py"},
		{"tests/helpers.py", "python", "tests/ dir"},
		{"src/a.test.ts", "typescript", "*.test.*"},
		{"src/a.spec.js", "javascript", "*.spec.*"},
		{"src/__tests__/a.tsx", "tsx", "__tests__/"},
		{"test/util.js", "javascript", "test/ dir"},
		{"tests/data.json", "", ""},
		{"src/contest.py", "python", ""},
	}
	for _, tc := range tests {
		if got := testConvention(tc.path, tc.lang); got != tc.want {
			t.Errorf("testConvention(%q, %q) = %q, want %q", tc.path, tc.lang, got, tc.want)
		}
	}
}

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
