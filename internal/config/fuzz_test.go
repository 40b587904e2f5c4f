package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad reads fuzzed .cairn/config.yaml files: Load never panics, and a
// configuration it accepts passes its own validation.
func FuzzLoad(f *testing.F) {
	f.Add([]byte("edits: off\nindex:\n  exclude: [\"gen/**\"]\nquery:\n  timeout_ms: 5000\n"))
	f.Add([]byte("tools:\n  profile: minimal\n  enable: [git]\n  disable: [refactor_move]\nread:\n  allow_secrets: true\n"))
	f.Add([]byte("edits: maybe\n"))
	f.Add([]byte("index: [1, 2]\n"))
	f.Add([]byte("&a [*a, *a]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "no-user-config"))
		os.MkdirAll(filepath.Join(root, ".cairn"), 0o755)
		os.WriteFile(filepath.Join(root, ".cairn", "config.yaml"), data, 0o644)
		c, err := Load(root)
		if err != nil {
			return
		}
		if err := c.validate(); err != nil {
			t.Fatalf("Load accepted a configuration its validation refuses: %v\n%s", err, data)
		}
	})
}
