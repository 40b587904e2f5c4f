package scan

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/testenv/testtree"
)

// A saved tree verifies while nothing changed, and stops verifying after any
// change a scan would see in a file: new content of the same size, the same
// content and time written again (only the inode's change time moves),
// another mode, or the file replaced by a link to another.
func TestVerifyNoticesFileChanges(t *testing.T) {
	ctx := context.Background()
	changes := map[string]func(t *testing.T, path string){
		"new content of the same size": func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte("package c"), 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"the same bytes and time written again": func(t *testing.T, p string) {
			info, _ := os.Stat(p)
			time.Sleep(10 * time.Millisecond)
			if err := os.WriteFile(p, []byte("package b"), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(p, info.ModTime(), info.ModTime())
		},
		"another mode": func(t *testing.T, p string) {
			time.Sleep(10 * time.Millisecond)
			if err := os.Chmod(p, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"a link in its place": func(t *testing.T, p string) {
			dir := filepath.Dir(p)
			info, _ := os.Stat(dir)
			os.Remove(p)
			if err := os.Symlink(filepath.Join(dir, "c.go"), p); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(dir, info.ModTime(), info.ModTime()) // only the file tells
		},
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			testtree.Write(t, root, map[string]string{"a.go": "package a", "sub/b.go": "package b", "sub/c.go": "package b"})
			past := time.Now().Add(-time.Hour) // out of the racy window of a scan
			for _, p := range []string{"a.go", "sub/b.go", "sub/c.go", "sub", "."} {
				os.Chtimes(filepath.Join(root, p), past, past)
			}
			opts := Options{Paths: config.Paths{Root: root + string(filepath.Separator)}}
			_, tree, err := Record(ctx, opts)
			if err != nil || tree == nil {
				t.Fatalf("no tree recorded: %v", err)
			}
			if res, ok := Verify(ctx, opts, tree); !ok || len(res.Files) != 3 {
				t.Fatalf("the unchanged tree does not verify (%v, %d files)", ok, len(res.Files))
			}
			change(t, filepath.Join(root, "sub", "b.go"))
			if _, ok := Verify(ctx, opts, tree); ok {
				t.Errorf("the tree still verifies after %s", name)
			}
		})
	}
}
