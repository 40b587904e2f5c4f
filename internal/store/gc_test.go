package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// openWorktree opens a second worktree index on the blob store of opts, as
// another worktree of the same repository does.
func openWorktree(t *testing.T, opts Options, name string) (*DB, Options) {
	t.Helper()
	other := Options{IndexPath: filepath.Join(t.TempDir(), name+".db"), BlobPath: opts.BlobPath}
	return mustOpen(t, other), other
}

// blobIDs lists the blobs of the store.
func blobIDs(t *testing.T, db *DB) []int64 {
	t.Helper()
	return column[int64](t, db, `SELECT id FROM blobs.blob ORDER BY id`)
}

// worktreeHolding opens another worktree index on the blob store of f with
// one file whose content no other worktree holds, registered at 100.
func worktreeHolding(t *testing.T, f *fixture, content string) (*DB, Options, int64) {
	t.Helper()
	db, opts := openWorktree(t, f.opts, "other")
	ids := insertBlobs(t, db, 100, blobRow(content, "go", BlobParsed, []byte("facts")))
	commit(t, db, func(tx *Tx) error {
		_, err := tx.PutFile(fileRow("x.go", content, "go", ids[0], 0, 1))
		return err
	})
	register(t, db)
	return db, opts, ids[0]
}

// register registers the worktree of db as seen at 100, when the fixture
// wrote its blobs.
func register(t *testing.T, db *DB) {
	t.Helper()
	if err := db.RegisterWorktree(context.Background(), 100, ""); err != nil {
		t.Fatal(err)
	}
}

func collect(t *testing.T, db *DB, now, grace int64) GCResult {
	t.Helper()
	res, err := db.CollectGarbage(context.Background(), now, grace)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Mark and sweep: a blob survives while a registered worktree references it
// or it was used within the grace period; the rest goes, with its text and
// surfaces; a second pass finds nothing more.
func TestCollectGarbage(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t) // blobs alpha, beta, readme, png written at 100; all referenced
	register(t, f.db)
	orphan := blobRow("old orphan", "", BlobText, nil, SurfaceData{Kind: 1, Data: []byte("keys")})
	orphan.Names = []string{"Orphaned"}
	orphans := insertBlobs(t, f.db, 100, orphan)
	recent := insertBlobs(t, f.db, 5000, blobRow("recent orphan", "", BlobText, nil))
	// A second worktree holds a blob no file of the first one references.
	other, _, shared := worktreeHolding(t, f, "only in other")
	before := blobIDs(t, f.db)

	res := collect(t, f.db, 6000, 3000) // recent orphan is within its grace period
	if diff := cmp.Diff(GCResult{Worktrees: 2, Kept: 6, Removed: 1}, res); diff != "" {
		t.Errorf("first pass (-want +got):\n%s", diff)
	}
	want := slices.DeleteFunc(slices.Clone(before), func(id int64) bool { return id == orphans[0] })
	if diff := cmp.Diff(want, blobIDs(t, f.db)); diff != "" {
		t.Errorf("blobs after the first pass (-want +got):\n%s", diff)
	}
	if text, err := f.db.BlobText(ctx, orphans[0]); text != nil || err != nil {
		t.Errorf("the text of a collected blob: %q %v", text, err)
	}
	if surfaces := column[int](t, f.db, `SELECT count(*) FROM blobs.blob_surface WHERE blob_id = ?`, orphans[0]); surfaces[0] != 0 {
		t.Errorf("a collected blob left %d surface rows", surfaces[0])
	}
	if names := column[int](t, f.db, `SELECT count(*) FROM blobs.blob_name WHERE rowid = ?`, orphans[0]); names[0] != 0 {
		t.Errorf("a collected blob left %d name rows", names[0])
	}
	if res := collect(t, f.db, 6000, 3000); res.Removed != 0 || res.Kept != 6 {
		t.Errorf("a second pass: %+v", res)
	}

	// Past its grace period the recent orphan goes too.
	if diff := cmp.Diff(GCResult{Worktrees: 2, Kept: 5, Removed: 1}, collect(t, f.db, 9000, 3000)); diff != "" {
		t.Errorf("after the grace period (-want +got):\n%s", diff)
	}
	if slices.Contains(blobIDs(t, f.db), recent[0]) {
		t.Error("the recent orphan survived its grace period")
	}
	if facts, err := other.BlobFacts(ctx, shared); string(facts) != "facts" || err != nil {
		t.Errorf("the other worktree's blob: %q %v", facts, err)
	}
}

// A worktree whose index is gone is forgotten, and the blobs only it
// referenced are collected; the same collection run from the other side
// keeps what the running worktree references.
func TestCollectGarbageForgetsRemovedWorktrees(t *testing.T) {
	f := newFixture(t)
	register(t, f.db)
	other, otherOpts, _ := worktreeHolding(t, f, "only in other")
	// Collected from the other worktree: the first one's blobs are kept.
	if diff := cmp.Diff(GCResult{Worktrees: 2, Kept: 5, Removed: 0}, collect(t, other, 1<<40, 0)); diff != "" {
		t.Errorf("from the other worktree (-want +got):\n%s", diff)
	}
	other.Close()
	removeDB(otherOpts.IndexPath)
	if diff := cmp.Diff(GCResult{Worktrees: 1, Kept: 4, Removed: 1}, collect(t, f.db, 1<<40, 0)); diff != "" {
		t.Errorf("after the other worktree was removed (-want +got):\n%s", diff)
	}
	registered := column[string](t, f.db, `SELECT path FROM blobs.worktree ORDER BY path`)
	if diff := cmp.Diff([]string{f.opts.IndexPath}, registered); diff != "" {
		t.Errorf("registered worktrees (-want +got):\n%s", diff)
	}
}

// An index that cannot be read marks nothing: its blobs live as long as
// their grace period, not forever and not less.
func TestCollectGarbageUnreadableWorktree(t *testing.T) {
	f := newFixture(t)
	register(t, f.db)
	junk := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(junk, []byte("not a database at all, but long enough to look like one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.db.write("blobs", func() error {
		_, err := f.db.sql.Exec(`INSERT INTO blobs.worktree(path, last_seen) VALUES(?, 100)`, junk)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	orphan := insertBlobs(t, f.db, 1000, blobRow("orphan", "", BlobText, nil))
	if res := collect(t, f.db, 1500, 1000); res.Removed != 0 || res.Worktrees != 2 {
		t.Errorf("within the grace period: %+v", res)
	}
	if res := collect(t, f.db, 2500, 1000); res.Removed != 1 || slices.Contains(blobIDs(t, f.db), orphan[0]) {
		t.Errorf("past the grace period: %+v", res)
	}
}
