package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"testing"
)

// overwritePage fills the root b-tree page of a table (never the file's
// first page) with 0xff, leaving the rest of the database as it was.
func overwritePage(t *testing.T, path, table string) {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var root, size int64
	err = raw.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = ?`, table).Scan(&root)
	if err == nil {
		err = raw.QueryRow(`PRAGMA page_size`).Scan(&size)
	}
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	junk := make([]byte, size)
	for i := range junk {
		junk[i] = 0xff
	}
	if _, err := f.WriteAt(junk, (root-1)*size); err != nil {
		t.Fatal(err)
	}
}

// IsCorrupt accepts SQLite's own result codes for a damaged file and no
// other SQLite error; Diagnose names the database that is damaged.
func TestIsCorruptResultCodes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, o Options)
		read   func(db *DB) error
		db     string // the database Diagnose blames
		guess  bool   // db is not the damaged one: Verify of it need not fail
	}{
		{"index page (SQLITE_CORRUPT)", func(t *testing.T, o Options) { overwritePage(t, o.IndexPath, "file") },
			func(db *DB) error { _, err := db.Files(ctx); return err }, "main", false},
		{"blob page (SQLITE_CORRUPT)", func(t *testing.T, o Options) { overwritePage(t, o.BlobPath, "blob") },
			func(db *DB) error { _, err := db.BlobFacts(ctx, 1); return err }, "blobs", false},
		{"not a database (SQLITE_NOTADB)", func(t *testing.T, o Options) {
			if err := os.WriteFile(o.IndexPath, make([]byte, 8192), 0o600); err != nil {
				t.Fatal(err)
			}
		}, func(db *DB) error { _, err := db.Files(ctx); return err }, "main", false},
		// Every statement fails when either file is not a database: the
		// guess falls on the worktree index, never on the shared blob store
		// (the next Open rebuilds a blob store it cannot read).
		{"blob store not a database (SQLITE_NOTADB)", func(t *testing.T, o Options) {
			if err := os.WriteFile(o.BlobPath, make([]byte, 8192), 0o600); err != nil {
				t.Fatal(err)
			}
		}, func(db *DB) error { _, err := db.BlobFacts(ctx, 1); return err }, "main", true},
		{"blob text page (SQLITE_CORRUPT)", func(t *testing.T, o Options) { overwritePage(t, o.BlobPath, "blob_text_content") },
			func(db *DB) error { _, err := db.BlobText(ctx, 1); return err }, "blobs", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.db.Close()
			tc.damage(t, f.opts)
			// Read-only, as a process that does not own the index opens it:
			// nothing is checked or repaired before the first read.
			f.opts.ReadOnly = true
			db := f.reopen(t)
			err := tc.read(db)
			if err == nil {
				t.Fatal("a read of a damaged database succeeded")
			}
			if !IsCorrupt(err) {
				t.Fatalf("IsCorrupt(%v) = false", err)
			}
			d := db.Diagnose(ctx, err)
			if d == nil || d.DB != tc.db || d.Suspect || d.Replaced {
				t.Fatalf("Diagnose(%v) = %+v, want damage of %s", err, d, tc.db)
			}
			var vd *Damage
			if err := db.Verify(ctx, tc.db); !tc.guess && (!errors.As(err, &vd) || vd.DB != tc.db) {
				t.Errorf("Verify(%s) = %v", tc.db, err)
			}
		})
	}
}

// SQLite errors that do not say a file is damaged are not damage.
func TestIsCorruptOtherErrors(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, q := range map[string]string{
		"syntax":        `SELEC 1`,
		"no such table": `SELECT * FROM malformed`,
		"constraint":    `INSERT INTO file(path) VALUES('x')`,
		"unique":        `INSERT INTO sname(id, name) SELECT id, name FROM sname`,
	} {
		_, err := f.db.sql.Exec(q)
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		if IsCorrupt(err) {
			t.Errorf("%s: IsCorrupt(%v) = true", name, err)
		}
	}
	if _, err := f.db.Files(ctx); err == nil || IsCorrupt(err) {
		t.Errorf("a cancelled read: %v", err)
	}
	// Diagnose of an error it cannot place blames the worktree index, never the shared blob store.
	if d := f.db.Diagnose(context.Background(), errors.New("disk I/O error")); d == nil || d.DB != "main" {
		t.Errorf("Diagnose of an intact store: %+v", d)
	}
	own := damaged("blobs", "test")
	if d := f.db.Diagnose(context.Background(), own); d != own {
		t.Errorf("Diagnose of a Damage: %+v", d)
	}
}

// Every packed record of the worktree index is checked on read: a changed
// byte (which SQLite cannot see) or a record cut shorter than its checksum
// is refused as damage of the index, and Verify finds it.
func TestIndexChecksums(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, q string
		read    func(f *fixture) error
	}{
		{"links", `UPDATE link SET data = CAST(x'7a' || substr(data, 2) AS BLOB) WHERE length(data) > 0`,
			func(f *fixture) error { _, err := f.db.Link(ctx, f.file["a/alpha.go"]); return err }},
		{"all links", `UPDATE link SET data = CAST(x'7a' || substr(data, 2) AS BLOB) WHERE length(data) > 0`,
			func(f *fixture) error { return f.db.AllLinks(ctx, func(int64, []byte) error { return nil }) }},
		{"short links", `UPDATE link SET data = x'0102' WHERE length(data) > 0`,
			func(f *fixture) error { _, err := f.db.Link(ctx, f.file["a/copy.go"]); return err }},
		{"imports", `UPDATE link SET imports = CAST(x'7a' || substr(imports, 2) AS BLOB) WHERE imports IS NOT NULL`,
			func(f *fixture) error { _, err := f.db.AllImports(ctx); return err }},
		{"document occurrences", `UPDATE sem_doc SET occs = CAST(x'7a' || substr(occs, 2) AS BLOB)`,
			func(f *fixture) error { _, err := f.db.SemDocsByPath(ctx, "a/alpha.go"); return err }},
		{"symbol occurrences", `UPDATE sem_symbol SET occs = CAST(x'7a' || substr(occs, 2) AS BLOB) WHERE length(occs) > 0`,
			func(f *fixture) error { _, err := f.db.SemSymbols(ctx, semAlpha); return err }},
		{"mapped symbol occurrences", `UPDATE sem_symbol SET occs = CAST(x'7a' || substr(occs, 2) AS BLOB) WHERE length(occs) > 0`,
			func(f *fixture) error { _, err := f.db.SemSymbolsOfCairn(ctx, symAlpha); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			importSemantic(t, f, "scip-go:.", 1)
			if err := tc.read(f); err != nil {
				t.Fatalf("read before the change: %v", err)
			}
			if err := f.db.Verify(ctx, "main"); err != nil {
				t.Fatalf("Verify of an intact index: %v", err)
			}
			if _, err := f.db.sql.Exec(tc.q); err != nil {
				t.Fatal(err)
			}
			var d *Damage
			err := tc.read(f)
			if !errors.As(err, &d) || d.DB != "main" || !IsCorrupt(err) {
				t.Fatalf("read after the change: %v", err)
			}
			if err := f.db.Verify(ctx, "main"); !errors.As(err, &d) || d.DB != "main" {
				t.Errorf("Verify after the change: %v", err)
			}
		})
	}
}

// Verify of the blob store also finds texts that are missing or that belong
// to no blob.
func TestVerifyBlobTexts(t *testing.T) {
	ctx := context.Background()
	for name, q := range map[string]string{
		"missing text": `DELETE FROM blobs.blob_text WHERE rowid = (SELECT min(id) FROM blobs.blob)`,
		"stray text":   `INSERT INTO blobs.blob_text(rowid, content) VALUES(9999, 'stray')`,
		"short facts":  `UPDATE blobs.blob SET facts = x'01' WHERE facts IS NOT NULL`,
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			if _, err := f.db.sql.Exec(q); err != nil {
				t.Fatal(err)
			}
			var d *Damage
			if err := f.db.Verify(ctx, "blobs"); !errors.As(err, &d) || d.DB != "blobs" {
				t.Errorf("Verify: %v", err)
			}
		})
	}
}
