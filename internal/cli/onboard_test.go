package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var readmeSnippet = regexp.MustCompile("(?s)<!-- snippet: ([a-z0-9-]+) -->\\s*```(\\w+)\\n(.*?)```")

// TestOnboardingMatchesREADME: init prints the same client configurations
// as README.md (whose snippets an end-to-end test launches), for the
// repository at hand.
func TestOnboardingMatchesREADME(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := map[string]string{}
	for _, m := range readmeSnippet.FindAllStringSubmatch(string(b), -1) {
		readme[m[1]] = m[3]
	}
	for _, s := range clientSnippets("/path/to/repo") {
		if got, ok := readme[s.name]; !ok || got != s.body {
			t.Errorf("%s differs from README.md:\nREADME:\n%s\ninit:\n%s", s.name, got, s.body)
		}
	}

	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "config"))
	repo := filepath.Join(t.TempDir(), "my repo")
	os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
	var out, errb bytes.Buffer
	if code := Run(context.Background(), []string{"init", "--repo", repo, "--state-dir", t.TempDir()}, &out, &errb); code != 0 {
		t.Fatalf("init: exit %d: %s", code, errb.String())
	}
	real, _ := filepath.EvalSymlinks(repo)
	for _, want := range []string{"claude mcp add cairn -- cairn mcp --repo '" + real + "'", `"args": ["mcp", "--repo", "` + real + `"]`,
		"http://127.0.0.1:PORT/mcp", "VS Code (.vscode/mcp.json), over HTTP"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("init output lacks %q:\n%s", want, out.String())
		}
	}
}
