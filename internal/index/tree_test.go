package index_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/testenv"
)

// backdate moves the modification time of every directory of the tree an
// hour back, as if the tree had been still for a while: a reconcile may then
// keep what it saw and prove the next one unchanged by stat calls.
func backdate(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}

// settle reconciles a still tree twice: the first keeps what it saw, the
// second must prove it by stat calls alone.
func settle(t *testing.T, dir string, ix *index.Index) *index.Stats {
	t.Helper()
	backdate(t, dir)
	if st := reconcile(t, ix); st.Changed || st.Modified+st.Added+st.Deleted != 0 {
		t.Fatalf("a still tree changed: %+v", st)
	}
	st := reconcile(t, ix)
	if !st.Proven {
		t.Fatalf("a still tree was listed again: %+v", st)
	}
	return st
}

// A reconcile that proves the tree unchanged by stat calls sees every change
// a full listing sees: edits in place, new, removed and renamed files, the
// ignore rules of Cairn and of git, and a symlink's target.
func TestReconcileProvenFreshness(t *testing.T) {
	dir, ix := repo(t, map[string]string{
		"go.mod":         "module example.com/p\n",
		"a.go":           "package p\nfunc A() {}\n",
		"sub/b.go":       "package p\nfunc B() {}\n",
		"sub/.gitignore": "# nothing yet\n",
		".cairnignore":   "sub/.gitignore\n",
	})
	if err := os.Symlink("target.txt", filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	testenv.WriteFile(t, dir, "target.txt", "one\n")
	// A link into a directory no scan enters, whose target appears later:
	// nothing the scan lists moves, only the link's outcome.
	os.Mkdir(filepath.Join(dir, "node_modules"), 0o755)
	if err := os.Symlink("node_modules/later.txt", filepath.Join(dir, "dangling.txt")); err != nil {
		t.Fatal(err)
	}
	testenv.WriteFile(t, dir, "sub/untracked.go", "package p\nfunc U() {}\n")
	first := reconcile(t, ix)
	base := settle(t, dir, ix)
	if base.Epoch != first.Epoch || base.Files != first.Files {
		t.Fatalf("proven %+v, listed %+v", base, first)
	}
	steps := []struct {
		name   string
		change func()
		check  func(st *index.Stats) bool
	}{
		{"edit in place", func() { testenv.WriteFile(t, dir, "sub/b.go", "package p\nfunc B() { A() }\n") },
			func(st *index.Stats) bool { return st.Modified == 1 }},
		{"new file", func() { testenv.WriteFile(t, dir, "sub/c.go", "package p\nfunc C() {}\n") },
			func(st *index.Stats) bool { return st.Added == 1 }},
		{"new directory", func() { testenv.WriteFile(t, dir, "deep/er/d.go", "package er\n") },
			func(st *index.Stats) bool { return st.Added == 1 }},
		{"removed file", func() { os.Remove(filepath.Join(dir, "sub/c.go")) },
			func(st *index.Stats) bool { return st.Deleted == 1 }},
		{"renamed file", func() { os.Rename(filepath.Join(dir, "deep/er/d.go"), filepath.Join(dir, "deep/er/e.go")) },
			func(st *index.Stats) bool { return st.Renamed == 1 }},
		{"symlink target edited", func() { testenv.WriteFile(t, dir, "target.txt", "two, longer\n") },
			func(st *index.Stats) bool { return st.Modified == 2 }}, // the target and the link
		{"a link's target appears", func() { testenv.WriteFile(t, dir, "node_modules/later.txt", "x\n") },
			func(st *index.Stats) bool {
				return st.SkippedFiles["symlink_pruned"] == 1 && st.SkippedFiles["broken_symlink"] == 0
			}},
		{"cairnignore", func() { testenv.WriteFile(t, dir, ".cairnignore", "sub/.gitignore\nsub/b.go\n") },
			func(st *index.Stats) bool { return st.Deleted == 1 && st.Modified == 1 }},
		{"gitignore outside the listing", func() { testenv.WriteFile(t, dir, "sub/.gitignore", "untracked.go\n") },
			func(st *index.Stats) bool { return st.Deleted == 1 }},
	}
	for _, s := range steps {
		s.change()
		st := reconcile(t, ix)
		if st.Proven || !s.check(st) {
			t.Fatalf("%s: %+v", s.name, st)
		}
		settle(t, dir, ix)
	}
}

// A directory changed within a second of the scan that read it is read
// again by the next reconcile: its time may not show a change made just
// after the scan.
func TestReconcileRacyDirectory(t *testing.T) {
	dir, ix := repo(t, map[string]string{"go.mod": "module example.com/r\n", "a.go": "package r\n"})
	reconcile(t, ix)
	settle(t, dir, ix)
	testenv.WriteFile(t, dir, "b.go", "package r\n") // the root's time is now
	if st := reconcile(t, ix); st.Added != 1 {
		t.Fatalf("new file: %+v", st)
	}
	if st := reconcile(t, ix); st.Proven {
		t.Fatalf("a directory changed a moment ago was trusted: %+v", st)
	}
}
