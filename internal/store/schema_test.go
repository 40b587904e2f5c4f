package store

import (
	"context"
	"database/sql"
	"os"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rawExec changes a closed database file directly, as another program would.
func rawExec(t *testing.T, path, q string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q); err != nil {
		t.Fatal(err)
	}
}

// reopen closes the fixture's store and opens it again.
func (f *fixture) reopen(t *testing.T) *DB {
	t.Helper()
	f.db.Close()
	f.db = mustOpen(t, f.opts)
	return f.db
}

func TestOpenAndReopen(t *testing.T) {
	f := newFixture(t)
	if len(f.db.Warnings) != 0 {
		t.Errorf("a fresh store has warnings: %v", f.db.Warnings)
	}
	for _, p := range []string{f.opts.IndexPath, f.opts.BlobPath} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v: the index holds source text, only its owner may read it", p, st.Mode().Perm())
		}
	}
	gen, _ := f.db.Meta("blob_generation")
	db := f.reopen(t)
	if len(db.Warnings) != 0 {
		t.Errorf("reopening warns: %v", db.Warnings)
	}
	if again, _ := db.Meta("blob_generation"); again != gen || gen == "" {
		t.Errorf("blob generation %q, then %q", gen, again)
	}
	if n, _ := db.SymbolCount(context.Background()); n != 7 {
		t.Errorf("reopened with %d symbols", n)
	}
	if d := db.Check(); d != nil {
		t.Errorf("Check after reopening: %v", d)
	}
}

// A database with another schema version, without one, cut short or not a
// database at all is rebuilt on open and the open says so; a recreated blob
// store empties the worktree index (its blob ids mean nothing any more) and
// says so. A new or emptied index asks for a full build.
func TestOpenRebuilds(t *testing.T) {
	type after struct {
		Warnings    int
		Files       int
		Blobs       int
		FullPending string
	}
	kept := after{Files: 5, Blobs: 4, FullPending: "0"}
	rebuilt := after{Warnings: 1, Blobs: 4, FullPending: "1"}
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, opts Options)
		want   after
	}{
		{"nothing", func(*testing.T, Options) {}, kept},
		{"index schema version", func(t *testing.T, o Options) {
			rawExec(t, o.IndexPath, `UPDATE metadata SET value = '`+strconv.Itoa(IndexSchemaVersion-1)+`' WHERE key = 'schema_version'`)
		}, rebuilt},
		{"index without schema version", func(t *testing.T, o Options) {
			rawExec(t, o.IndexPath, `DELETE FROM metadata WHERE key = 'schema_version'`)
		}, rebuilt},
		{"index truncated", func(t *testing.T, o Options) {
			st, err := os.Stat(o.IndexPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(o.IndexPath, st.Size()/2); err != nil {
				t.Fatal(err)
			}
		}, rebuilt},
		{"index not a database", func(t *testing.T, o Options) {
			if err := os.WriteFile(o.IndexPath, []byte("these bytes are not an SQLite database, however long they get"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, rebuilt},
		{"index removed", func(t *testing.T, o Options) { removeDB(o.IndexPath) }, after{Blobs: 4, FullPending: "1"}},
		{"blob schema version", func(t *testing.T, o Options) {
			rawExec(t, o.BlobPath, `UPDATE metadata SET value = '`+strconv.Itoa(BlobSchemaVersion+1)+`' WHERE key = 'schema_version'`)
		}, after{Warnings: 2, FullPending: "1"}},
		{"blob store removed", func(t *testing.T, o Options) { removeDB(o.BlobPath) }, after{Warnings: 1, FullPending: "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t)
			f.db.Close()
			tc.damage(t, f.opts)
			db := f.reopen(t)
			files, err := db.Files(ctx)
			if err != nil {
				t.Fatal(err)
			}
			pending, _ := db.Meta("full_pending")
			got := after{Warnings: len(db.Warnings), Files: len(files), Blobs: len(blobIDs(t, db)), FullPending: pending}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("after reopening (-want +got):\n%s\nwarnings: %q", diff, db.Warnings)
			}
			if v, _ := db.Meta("schema_version"); v != strconv.Itoa(IndexSchemaVersion) {
				t.Errorf("schema version %q", v)
			}
			if d := db.Check(); d != nil {
				t.Errorf("Check after reopening: %v", d)
			}
			// The rebuilt store works for writes.
			insertBlobs(t, db, 1, blobRow("new", "", BlobText, nil))
		})
	}
}

// A change from outside that keeps the schema is not repaired on open: the
// store opens as it is, Check reports it as suspect and writes are refused
// until it is verified and accepted.
func TestOpenKeepsOutsideChanges(t *testing.T) {
	f := newFixture(t)
	f.db.Close()
	rawExec(t, f.opts.IndexPath, `UPDATE metadata SET value = '9' WHERE key = 'epoch'`)
	db := f.reopen(t)
	if len(db.Warnings) != 0 {
		t.Errorf("warnings: %v", db.Warnings)
	}
	d := db.Check()
	if d == nil || d.DB != "main" || !d.Suspect || d.Replaced {
		t.Fatalf("Check after an outside change: %+v", d)
	}
	if _, err := db.Begin(context.Background()); !IsCorrupt(err) {
		t.Errorf("a write into a suspect index: %v", err)
	}
	acceptVerified(t, db, "main")
	commit(t, db, func(tx *Tx) error { return tx.SetMeta("epoch", "10") })
}

// acceptVerified verifies one database, accepts it as Cairn's own again and
// checks that nothing is reported any more.
func acceptVerified(t *testing.T, db *DB, which string) {
	t.Helper()
	if err := db.Verify(context.Background(), which); err != nil {
		t.Fatalf("Verify(%s): %v", which, err)
	}
	if err := db.Accept(which); err != nil {
		t.Fatal(err)
	}
	if d := db.Check(); d != nil {
		t.Errorf("Check after Verify and Accept: %v", d)
	}
}

// A store found as Cairn sealed it, prepared with this schema, opens
// without being prepared again (the seal is not rewritten); one whose seal
// names another schema, or none, is prepared and the seal then names this
// one.
func TestReopenSkipsPreparingASealedStore(t *testing.T) {
	f := newFixture(t)
	f.db.Close()
	key := schemaKey(indexSchema+cardSchema, IndexSchemaVersion)
	sealOf := func() (sealRecord, os.FileInfo) {
		t.Helper()
		r, ok := readSeal(f.opts.IndexPath)
		st, err := os.Stat(sealPath(f.opts.IndexPath))
		if !ok || err != nil {
			t.Fatalf("no seal: %v", err)
		}
		return r, st
	}
	before, stBefore := sealOf()
	if before.Schema != key {
		t.Fatalf("seal names schema %q, want %q", before.Schema, key)
	}
	db := mustOpen(t, f.opts)
	after, stAfter := sealOf()
	if after != before || !stAfter.ModTime().Equal(stBefore.ModTime()) {
		t.Errorf("opening a sealed store rewrote its seal: %+v, then %+v", before, after)
	}
	db.Close()

	r, _ := readSeal(f.opts.IndexPath)
	r.Schema = "1:older"
	if err := writeSeal(f.opts.IndexPath, r); err != nil {
		t.Fatal(err)
	}
	db = mustOpen(t, f.opts)
	defer db.Close()
	if again, _ := sealOf(); again.Schema != key {
		t.Errorf("after preparing, the seal names schema %q, want %q", again.Schema, key)
	}
	if len(db.Warnings) != 0 || db.Check() != nil {
		t.Errorf("reopening warns %v, check %v", db.Warnings, db.Check())
	}
}
