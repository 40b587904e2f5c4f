package store

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// writeEpoch rewrites every file of a batch with one epoch, in one transaction.
func writeEpoch(db *DB, epoch int64, files int) error {
	tx, err := db.Begin(context.Background())
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for i := range files {
		p := fmt.Sprintf("f%02d.go", i)
		if _, err := tx.PutFile(fileRow(p, p, "go", 1, 0, epoch)); err != nil {
			return err
		}
	}
	if err := tx.SetMeta("epoch", strconv.FormatInt(epoch, 10)); err != nil {
		return err
	}
	return tx.Commit()
}

// One writer and many readers (WAL): readers are never blocked or refused,
// and each read sees one committed batch whole, never a part of one. The
// readers' seal check trusts the file while the writer changes it.
func TestConcurrentReadersOneWriter(t *testing.T) {
	ctx := context.Background()
	writer, opts := openTemp(t)
	const files, batches, readers = 20, 40, 4
	if err := writeEpoch(writer, 1, files); err != nil {
		t.Fatal(err)
	}
	ro := opts
	ro.ReadOnly = true // as a process that does not own the index opens it
	reader, err := Open(ro)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()

	done := make(chan struct{})
	errc := make(chan error, readers+1)
	go func() {
		defer close(done)
		for e := int64(2); e <= batches; e++ {
			if err := writeEpoch(writer, e, files); err != nil {
				errc <- fmt.Errorf("writer, epoch %d: %w", e, err)
				return
			}
		}
	}()
	var wg sync.WaitGroup
	seen := make([]map[int64]bool, readers)
	for r := range readers {
		seen[r] = map[int64]bool{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				rows, err := reader.Files(ctx)
				if err != nil {
					errc <- fmt.Errorf("reader %d: %w", r, err)
					return
				}
				if len(rows) != files {
					errc <- fmt.Errorf("reader %d saw %d files", r, len(rows))
					return
				}
				for _, f := range rows {
					if f.Epoch != rows[0].Epoch {
						errc <- fmt.Errorf("reader %d saw epochs %d and %d in one read", r, rows[0].Epoch, f.Epoch)
						return
					}
				}
				seen[r][rows[0].Epoch] = true
				if d := reader.Check(); d != nil {
					errc <- fmt.Errorf("reader %d: Check during writes: %v", r, d)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	if got, _ := reader.Meta("epoch"); got != strconv.Itoa(batches) {
		t.Errorf("the reader ends at epoch %q, want %d", got, batches)
	}
	for r, s := range seen {
		if len(s) == 0 {
			t.Errorf("reader %d read nothing", r)
		}
	}
}

// A reader is not blocked by an open write transaction: it reads the last
// committed state until the writer commits.
func TestReaderDuringWriteTransaction(t *testing.T) {
	f := newFixture(t)
	ro := f.opts
	ro.ReadOnly = true
	reader, err := Open(ro)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	tx, err := f.db.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.PutFile(fileRow("c/new.go", "new", "go", f.blob["alpha"], 0, 4)); err != nil {
		t.Fatal(err)
	}
	if err := tx.DeleteFile(f.file["a/alpha.go"]); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // far below busy_timeout
	defer cancel()
	rows, err := reader.Files(ctx)
	if err != nil {
		t.Fatalf("a read during a write transaction: %v", err)
	}
	if diff := cmp.Diff(f.paths, paths(rows)); diff != "" {
		t.Errorf("before the commit (-want +got):\n%s", diff)
	}
	if d := reader.Check(); d != nil {
		t.Errorf("Check during a write transaction: %v", d)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, err = reader.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"README.md", "a/copy.go", "b/beta.py", "c/new.go", "img.png"}
	if diff := cmp.Diff(want, paths(rows)); diff != "" {
		t.Errorf("after the commit (-want +got):\n%s", diff)
	}
	if d := reader.Check(); d != nil {
		t.Errorf("Check after the commit: %v", d)
	}
}

// Two worktrees writing the same new blobs at once get the same ids and
// one row per blob.
func TestConcurrentBlobWriters(t *testing.T) {
	a, opts := openTemp(t)
	b, _ := openWorktree(t, opts, "b")
	var rows []BlobRow
	for i := range 200 {
		rows = append(rows, blobRow(fmt.Sprintf("content %d", i), "go", BlobParsed, []byte("facts")))
	}
	var wg sync.WaitGroup
	ids := make([][]int64, 2)
	errs := make([]error, 2)
	for i, db := range []*DB{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i], errs[i] = db.InsertBlobs(context.Background(), rows, 1)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(ids[0], ids[1]); diff != "" {
		t.Errorf("ids differ between the writers (-a +b):\n%s", diff)
	}
	if n := len(blobIDs(t, a)); n != len(rows) {
		t.Errorf("%d blob rows for %d blobs", n, len(rows))
	}
	if err := a.Verify(context.Background(), "blobs"); err != nil {
		t.Error(err)
	}
}
