package manifest

import "testing"

func TestWorkspaceIncludes(t *testing.T) {
	ws := &Workspace{Members: []string{"./svc", "packages/*", "libs/**", "tools/gen/", `win\proj`, "a/[bc]"}, Exclude: []string{"packages/legacy", "libs/**/fixtures"}}
	tests := []struct {
		dir  string
		want bool
	}{
		{"", true}, {".", true},
		{"svc", true}, {"svc/inner", false},
		{"packages/ui", true}, {"packages", false}, {"packages/ui/deep", false}, {"packages/legacy", false},
		{"libs", true}, {"libs/a", true}, {"libs/a/b", true}, {"libs/a/fixtures", false},
		{"tools/gen", true}, {"tools", false},
		{"win/proj", true},
		{"a/b", true}, {"a/d", false},
		{"other", false},
	}
	for _, tc := range tests {
		if got := ws.Includes(tc.dir); got != tc.want {
			t.Errorf("Includes(%q) = %v, want %v", tc.dir, got, tc.want)
		}
	}
	open := &Workspace{Members: []string{"app"}, Open: true}
	if !open.Includes("anything") {
		t.Error("an open workspace must include every directory")
	}
	if (&Workspace{Members: []string{}}).Includes("x") {
		t.Error("an empty workspace must include no other directory")
	}
}
