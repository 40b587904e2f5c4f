package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func openTemp(t *testing.T) (*DB, Options) {
	t.Helper()
	dir := t.TempDir()
	opts := Options{IndexPath: filepath.Join(dir, "index.db"), BlobPath: filepath.Join(dir, "blobs.db")}
	return mustOpen(t, opts), opts
}

// mustOpen opens a store that is closed when the test ends.
func mustOpen(t *testing.T, opts Options) *DB {
	t.Helper()
	db, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func insertBlob(t *testing.T, db *DB, text string) int64 {
	t.Helper()
	ids, err := db.InsertBlobs(context.Background(), []BlobRow{{
		Key: BlobKey{Hash: Hash{1, 2, 3}, Lang: "go", XVer: 1}, Size: int64(len(text)), Status: BlobParsed,
		Facts: []byte("facts of " + text), Text: []byte(text),
		Surfaces: []SurfaceData{{Kind: 1, Data: []byte("routes")}},
	}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	return ids[0]
}

// IsCorrupt decides by result codes and the store's own checks: never by
// the words of a message.
func TestIsCorrupt(t *testing.T) {
	for _, err := range []error{
		errors.New("malformed cursor"),
		fmt.Errorf("no symbol named %q", "malformed"),
		errors.New("file is not a database of symbols"),
		nil,
	} {
		if IsCorrupt(err) {
			t.Errorf("IsCorrupt(%v) = true", err)
		}
	}
	if !IsCorrupt(fmt.Errorf("query: %w", damaged("blobs", "x"))) {
		t.Error("a wrapped Damage is not corrupt")
	}
}

// A value changed inside a page (SQLite's page checks cannot see it) is
// refused when it is read, and Verify finds it.
func TestChecksumsRefuseChangedRecords(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name, q string
		read    func(db *DB, id int64) error
	}{
		{"facts", `UPDATE blobs.blob SET facts = CAST('facts of package q' || substr(facts, 18) AS BLOB)`,
			func(db *DB, id int64) error { _, err := db.BlobFacts(ctx, id); return err }},
		{"text", `UPDATE blobs.blob_text SET content = 'package q' || substr(content, 10)`,
			func(db *DB, id int64) error { _, err := db.BlobText(ctx, id); return err }},
		{"surfaces", `UPDATE blobs.blob_surface SET data = CAST('rootes' || substr(data, 7) AS BLOB)`,
			func(db *DB, id int64) error { _, err := db.Surfaces(ctx, 1); return err }},
		{"row", `UPDATE blobs.blob SET size = size + 1`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db, _ := openTemp(t)
			id := insertBlob(t, db, "package p\nfunc F() {}\n")
			if _, err := db.sql.Exec(`INSERT INTO file(path, blob_id, hash, norm_hash, git_oid, size, mtime_ns, ctime_ns, inode, lang, pkg, status, module_id, epoch)
				VALUES('p.go', ?, x'', x'', '', 0, 0, 0, 0, 'go', '', 0, 0, 1)`, id); err != nil {
				t.Fatal(err)
			}
			if c.read != nil {
				if err := c.read(db, id); err != nil {
					t.Fatalf("read before the change: %v", err)
				}
			}
			if err := db.Verify(ctx, "blobs"); err != nil {
				t.Fatalf("verify of an intact store: %v", err)
			}
			if _, err := db.sql.Exec(c.q); err != nil {
				t.Fatal(err)
			}
			var d *Damage
			if c.read != nil {
				if err := c.read(db, id); !errors.As(err, &d) || d.DB != "blobs" {
					t.Fatalf("read of a changed %s: %v", c.name, err)
				}
			}
			if err := db.Verify(ctx, "blobs"); !errors.As(err, &d) {
				t.Fatalf("verify after changing the %s: %v", c.name, err)
			}
		})
	}
}

// Changes made outside Cairn are seen through the seal; Cairn's own writes
// (and closing, which checkpoints) are not mistaken for them; a verified
// store is accepted again; a writer refuses to write over an unsealed change.
func TestSeal(t *testing.T) {
	db, opts := openTemp(t)
	insertBlob(t, db, "package p\n")
	if d := db.Check(); d != nil {
		t.Fatalf("after Cairn's own write: %v", d)
	}
	db.Close()
	db2 := mustOpen(t, opts)
	if d := db2.Check(); d != nil {
		t.Fatalf("after close and reopen: %v", d)
	}
	f, err := os.OpenFile(opts.BlobPath, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte{0}, 100) // inside the header's reserved area: harmless, but not Cairn's
	f.Close()
	d := db2.Check()
	if d == nil || d.DB != "blobs" || !d.Suspect {
		t.Fatalf("an outside write: %+v", d)
	}
	var werr *Damage
	if _, err := db2.InsertBlobs(context.Background(), []BlobRow{{Key: BlobKey{Hash: Hash{9}}, Status: BlobText}}, 1); !errors.As(err, &werr) {
		t.Fatalf("a write over an unsealed change: %v", err)
	}
	acceptVerified(t, db2, "blobs")
}

// Quarantine moves only the damaged file; the next Open creates it afresh and
// another process notices the replacement.
func TestQuarantine(t *testing.T) {
	db, opts := openTemp(t)
	insertBlob(t, db, "package p\n")
	if err := Quarantine(opts.IndexPath); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(opts.IndexPath + ".damaged"); err != nil {
		t.Fatal(err)
	}
	db2 := mustOpen(t, opts)
	if d := db.Check(); d == nil || !d.Replaced || d.DB != "main" {
		t.Fatalf("the old handle after the replacement: %+v", d)
	}
	if d := db2.Check(); d != nil {
		t.Fatalf("the new store: %v", d)
	}
	if n, _ := db2.SymbolCount(context.Background()); n != 0 {
		t.Fatalf("a fresh index has %d symbols", n)
	}
	var blobs int
	db2.sql.QueryRow(`SELECT count(*) FROM blobs.blob`).Scan(&blobs)
	if blobs != 1 {
		t.Fatalf("the blob store lost its blobs: %d", blobs)
	}
}

// TestClosingAMovedDatabaseKeepsTheNewLog: a handle still open on a
// database that was moved aside (quarantined, or made a baseline, while
// another process read it) closes without touching the files of the
// database made at its old path. The last connection to a database
// checkpoints it and deletes its write-ahead log and shared-memory file by
// name, which after the move are the new database's; Quarantine and the
// baselines rely on SQLite's pager skipping both when the file it opened
// is no longer the one at its path.
func TestClosingAMovedDatabaseKeepsTheNewLog(t *testing.T) {
	old, opts := openTemp(t)
	insertBlob(t, old, "package p\n")
	if _, err := old.sql.Exec(`CREATE TABLE main.probe(x)`); err != nil {
		t.Fatal(err)
	}
	if err := Quarantine(opts.IndexPath); err != nil {
		t.Fatal(err)
	}
	fresh := mustOpen(t, opts)
	// Commits that stay in the new database's log (far below the
	// automatic checkpoint).
	for _, s := range []string{`CREATE TABLE main.probe(x)`, `INSERT INTO main.probe VALUES (1), (2), (3)`} {
		if _, err := fresh.sql.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(opts.IndexPath + "-wal"); err != nil {
		t.Fatalf("the new database has no log: %v", err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	// Another reader, as a new process would open it.
	reader, err := sql.Open("sqlite", "file:"+opts.IndexPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	var n int
	if err := reader.QueryRow(`SELECT count(*) FROM probe`).Scan(&n); err != nil || n != 3 {
		t.Fatalf("after the moved database's handle closed, a reader of the new one sees %d rows (%v); want 3", n, err)
	}
}
