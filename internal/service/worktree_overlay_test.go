package service_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/store"
	"github.com/cairnhq/cairn/internal/testenv"
)

// worktreePaths locates a worktree with its state where Cairn puts it by
// default: its own index, and the blob store and baselines beside the git
// common dir.
func worktreePaths(t *testing.T, dir string) config.Paths {
	t.Helper()
	paths, err := config.Locate(context.Background(), dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// baselines lists the baseline files beside a blob store.
func baselines(t *testing.T, paths config.Paths) []string {
	t.Helper()
	found, _ := filepath.Glob(filepath.Join(store.BaselineDir(paths.BlobPath), "*.db"))
	return found
}

func sumOf(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// emptyIndexBytes is the size of a new, empty index: the pages of its
// schema.
func emptyIndexBytes(t *testing.T) int64 {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(store.Options{IndexPath: filepath.Join(dir, "index.db"), BlobPath: filepath.Join(dir, "blobs.db")})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	return fileSize(t, filepath.Join(dir, "index.db"))
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// Three worktrees of a repository on three commits share one baseline: the
// first one's index becomes it when the second is indexed, and each keeps
// a small overlay. Every answer of every worktree equals that of a clean
// standalone index of the same tree, also after an edit, an added and a
// deleted file in one of them; no write changes the baseline; a removed
// worktree and a collection leave the others answering.
func TestWorktreesShareOneBaseline(t *testing.T) {
	testenv.Isolate(t)
	files := opsRepo(t)
	for p := 3; p < 5; p++ { // more generated code, so the baseline outweighs the overlays' small tables
		for f := range opsFiles {
			files[fmt.Sprintf("gen/p%d/f%02d.go", p, f)] = genFile(p, f, 0)
		}
	}
	root := testenv.Repo(t, files)
	testenv.WriteFile(t, root, "gen/p1/f03.go", genFile(1, 3, 1))
	testenv.Commit(t, root, "edit")
	testenv.WriteFile(t, root, "gen/p2/extra.go", "package p2\n\n// Extra calls into the package.\nfunc Extra() int { return Fn001(1) }\n")
	os.Remove(filepath.Join(root, "gen/p0/f15.go"))
	testenv.Commit(t, root, "add and delete")
	wts := map[string]string{"main": root}
	for i, rev := range []string{"HEAD~2", "HEAD~1"} {
		dir := filepath.Join(t.TempDir(), fmt.Sprintf("wt%d", i))
		testenv.Git(t, root, "worktree", "add", "-q", "--detach", dir, rev)
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		wts[fmt.Sprintf("wt%d", i)] = dir
	}
	cfg := config.Default()
	same := func(step, name string) {
		t.Helper()
		got := answers(t, worktreePaths(t, wts[name]), cfg)
		want := cleanAnswers(t, wts[name], "", cfg)
		if !sameAnswers(got, want) {
			t.Fatalf("%s, worktree %s: %s", step, name, firstDiff(got, want))
		}
	}
	same("alone", "main")
	if got := baselines(t, worktreePaths(t, root)); len(got) != 0 {
		t.Fatalf("one worktree made baselines %v", got)
	}
	same("seeded", "wt0")
	same("seeded", "wt1")
	base := baselines(t, worktreePaths(t, root))
	if len(base) != 1 {
		t.Fatalf("baselines: %v, want one", base)
	}
	baseSum := sumOf(t, base[0])
	// What an index holds beyond the pages of an empty one: an overlay's
	// is under a tenth of the baseline's.
	empty := emptyIndexBytes(t)
	for name, dir := range wts {
		paths := worktreePaths(t, dir)
		own, whole := fileSize(t, paths.IndexPath)-empty, fileSize(t, base[0])-empty
		t.Logf("%s: own %d, baseline %d", name, own, whole)
		if own*10 > whole {
			t.Errorf("worktree %s: its own index holds %d bytes, more than a tenth of the baseline's %d", name, own, whole)
		}
	}
	same("overlay", "main") // its index moved into the baseline; it is an overlay too

	// Edits in one overlay worktree: an edited, an added, a deleted file.
	wt := wts["wt1"]
	testenv.WriteFile(t, wt, "gen/p0/f03.go", genFile(0, 3, 2))
	testenv.WriteFile(t, wt, "gen/p1/new.go", "package p1\n\n// Fresh is new here.\nfunc Fresh() int { return Fn052(3) + Fn001(2) }\n")
	os.Remove(filepath.Join(wt, "gen/p1/f07.go"))
	same("edited", "wt1")
	for name := range wts {
		same("after edits elsewhere", name)
	}
	if sumOf(t, base[0]) != baseSum {
		t.Fatal("a worktree's write changed the baseline")
	}

	// A removed worktree and a collection: the others still answer, the
	// baseline they name stays.
	testenv.Git(t, root, "worktree", "remove", "--force", wts["wt0"])
	delete(wts, "wt0")
	s := mustOpen(t, worktreePaths(t, root), cfg, service.Options{})
	rep, err := s.CollectGarbage(context.Background(), 0)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Forgotten) != 1 || len(rep.BaselinesRemoved) != 0 {
		t.Fatalf("collection forgot %+v and removed baselines %v; want the removed worktree and no baseline", rep.Forgotten, rep.BaselinesRemoved)
	}
	for name := range wts {
		same("after a collection", name)
	}
	if sumOf(t, base[0]) != baseSum {
		t.Fatal("the collection changed the baseline")
	}

	// A full rebuild makes a worktree standalone; once none names the
	// baseline, a collection removes it.
	for name, dir := range wts {
		s := mustOpen(t, worktreePaths(t, dir), cfg, service.Options{})
		answer(t, call(t, s, "index_ensure", map[string]any{"full": true, "wait": true}))
		s.Close()
		same("rebuilt", name)
	}
	time.Sleep(1100 * time.Millisecond) // the baseline's age must pass the zero grace
	s = mustOpen(t, worktreePaths(t, root), cfg, service.Options{})
	rep, err = s.CollectGarbage(context.Background(), 0)
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.BaselinesRemoved) != 1 || strings.Join(baselines(t, worktreePaths(t, root)), ",") != "" {
		t.Fatalf("after every worktree was rebuilt, the collection removed baselines %v; left %v", rep.BaselinesRemoved, baselines(t, worktreePaths(t, root)))
	}
	for name := range wts {
		same("baseline collected", name)
	}
}
