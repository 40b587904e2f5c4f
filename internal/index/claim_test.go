package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	_ "github.com/cairnhq/cairn/internal/lang/golang"
	"github.com/cairnhq/cairn/internal/testenv/testtree"
)

// A blob this worktree found in the shared store but another worktree's
// collection removed before this one committed: the claim before the commit
// sees it gone and the file is parsed and stored again, so no file row
// points at a blob that no longer exists.
func TestClaimBlobsAfterCollection(t *testing.T) {
	dir := t.TempDir()
	const first, second = "package g\n\nfunc First() {}\n", "package g\n\nfunc Second() {}\n"
	put := func(content string) {
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(first)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/g\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init"}} {
		testtree.Git(t, dir, args...)
	}
	ctx := context.Background()
	paths, err := config.Locate(ctx, dir, filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Index.GCGraceHours = 0 // unreferenced blobs may go at once
	ix, err := Open(ctx, paths, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	reconcileOrFail := func() {
		t.Helper()
		if _, err := ix.Reconcile(ctx, ReconcileOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	reconcileOrFail()
	put(second) // the first content's blob is now referenced by nobody
	reconcileOrFail()
	time.Sleep(1100 * time.Millisecond) // older than a grace of 0 s

	put(first) // found in the store again; collected before the commit
	collected := 0
	ix.beforeClaim = func() {
		res, err := ix.db().CollectGarbage(ctx, time.Now().Unix(), 0)
		if err != nil {
			t.Fatal(err)
		}
		collected = res.Removed
	}
	reconcileOrFail()
	ix.beforeClaim = nil
	if collected == 0 {
		t.Fatal("the collection removed nothing: the test did not race")
	}
	f, ok, err := ix.db().FileByPath(ctx, "a.go")
	if err != nil || !ok {
		t.Fatalf("a.go: %v %v", ok, err)
	}
	data, err := ix.db().BlobFacts(ctx, f.BlobID) // from the store, not the cache of decoded facts
	if err != nil || data == nil {
		t.Fatalf("a.go points at blob %d, which has no facts (%v)", f.BlobID, err)
	}
	text, err := ix.db().BlobText(ctx, f.BlobID)
	if err != nil || string(text) != first {
		t.Fatalf("a.go points at blob %d, whose text is %q (%v)", f.BlobID, text, err)
	}
}
