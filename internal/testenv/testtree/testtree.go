// Package testtree writes the file trees and runs the git commands tests
// build their repositories with, in an environment that keeps the user's
// configuration out. It imports nothing of the module, so the
// tests inside the packages testenv builds on (scan, index, mutate, gitx,
// history), for which importing testenv would be an import cycle, use it
// too. Only tests import it.
package testtree

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Isolate points HOME, the XDG directories and git's configuration at
// temporary directories for the rest of the test, so no user file leaks in,
// gives git a fixed identity and clears Cairn's CAIRN__ overrides.
func Isolate(t testing.TB) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "Test")
	t.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "Test")
	t.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "CAIRN__") {
			t.Setenv(k, "") // restored when the test ends
			os.Unsetenv(k)
		}
	}
}

// Write writes files (slash-separated paths below dir to contents),
// making their directories.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		WriteFile(t, dir, p, content)
	}
}

// WriteFile writes a file at the slash-separated path p below dir, making
// its directories.
func WriteFile(t testing.TB, dir, p, content string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Read reads every file below dir, by slash-separated path relative to
// dir: what Write would write again.
func Read(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Git runs git in dir and fails the test when it fails.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
