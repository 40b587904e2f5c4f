package scan

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzResolve canonicalises fuzzed path arguments in a repository with
// symlinks inside and out: no panic, and whatever it accepts is a clean
// repository path that, with every symlink followed, stays inside the root.
func FuzzResolve(f *testing.F) {
	base := f.TempDir()
	root := filepath.Join(base, "repo")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "pkg", "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "pkg", "a.go"), []byte("package pkg\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("s\n"), 0o644)
	os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "out.txt"))
	os.Symlink(outside, filepath.Join(root, "outdir"))
	os.Symlink("pkg", filepath.Join(root, "inlink"))
	os.Symlink("loop2", filepath.Join(root, "loop1"))
	os.Symlink("loop1", filepath.Join(root, "loop2"))
	for _, s := range []string{"pkg/a.go", "../outside/secret.txt", root + "/pkg/a.go", outside + "/secret.txt", "out.txt", "outdir/secret.txt",
		"inlink/a.go", "inlink/../../outside", "loop1/x", "pkg/./sub/../a.go", "a\x00b", "%2e%2e/x", "\uff0e\uff0e/x", strings.Repeat("a/", 100)} {
		f.Add(s)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, p string) {
		var tg Target
		var err error
		done := make(chan struct{})
		go func() {
			defer close(done)
			tg, err = Resolve(ctx, root, p)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("Resolve(%q) ran past 5s", p)
		}
		if err != nil {
			return
		}
		for _, rp := range []string{string(tg.Path), string(tg.Real)} {
			if rp != "" && (path.Clean(rp) != rp || rp == ".." || strings.HasPrefix(rp, "../") || strings.HasPrefix(rp, "/")) {
				t.Fatalf("Resolve(%q) = %+v: not a clean repository path", p, tg)
			}
		}
		real, err := filepath.EvalSymlinks(filepath.Join(root, string(tg.Path)))
		if err != nil {
			return // does not exist (yet): nothing to follow
		}
		if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			t.Fatalf("Resolve(%q) = %+v leads outside the repository, to %s", p, tg, real)
		}
	})
}
