package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"time"
)

// An index artifact carries one worktree index and the blobs it references
// (package baseline frames them). The store writes the two databases out
// consistently, checks them back in, and installs them: the blobs merge into
// the shared store (rows are immutable, so a merge that stops half way leaves
// only unreferenced blobs), the worktree index replaces this worktree's in
// one rename.

// SnapshotTo writes consistent copies of the worktree index and of the blobs
// it references (its files now and in its history) to two new files. Paths
// of this machine (the worktree registry) are left out.
func (s *DB) SnapshotTo(ctx context.Context, indexDst, blobDst string) error {
	if s.base != "" {
		// An overlay is written standalone: its own rows, then the rows of
		// its baseline it shows. A connection without the views copies it
		// (VACUUM recreates the indexes of main's tables by their names).
		if err := vacuumInto(ctx, s.opts.IndexPath, indexDst); err != nil {
			return err
		}
		if err := materialise(ctx, indexDst, s.base, false); err != nil {
			return err
		}
	} else if _, err := s.sql.ExecContext(ctx, `VACUUM main INTO `+quote(indexDst)); err != nil {
		return fmt.Errorf("store: snapshot: %w", err)
	}
	if _, err := s.sql.ExecContext(ctx, `VACUUM blobs INTO `+quote(blobDst)); err != nil {
		return fmt.Errorf("store: snapshot: %w", err)
	}
	db, err := sql.Open("sqlite", "file:"+blobDst)
	if err != nil {
		return fmt.Errorf("store: snapshot: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	used := `(SELECT blob_id FROM ix.file UNION SELECT blob_id FROM ix.file_history)`
	stmts := []string{
		`ATTACH DATABASE ` + quote(indexDst) + ` AS ix`,
		`DELETE FROM worktree`,
		`DELETE FROM blob_text WHERE rowid NOT IN ` + used,
		`DELETE FROM blob_surface WHERE blob_id NOT IN ` + used,
		`DELETE FROM blob_name WHERE rowid NOT IN ` + used,
		`DELETE FROM blob WHERE id NOT IN ` + used,
	}
	var removed int64
	for _, q := range stmts {
		res, err := db.ExecContext(ctx, q)
		if err != nil {
			return fmt.Errorf("store: snapshot: %w", err)
		}
		n, _ := res.RowsAffected()
		removed += n
	}
	if _, err := db.ExecContext(ctx, `DETACH DATABASE ix`); err != nil {
		return fmt.Errorf("store: snapshot: %w", err)
	}
	if removed > 0 {
		if _, err := db.ExecContext(ctx, `VACUUM`); err != nil {
			return fmt.Errorf("store: snapshot: %w", err)
		}
	}
	return nil
}

// CheckArtifact reports why a staged pair of databases cannot be installed
// ("" when it can): each must open as SQLite, be whole, and carry this
// build's schema version. SQLite's own page check is left out: on the blob
// store of a large repository it takes minutes, and the artifact's SHA-256
// already covers every byte its writer produced (and each packed record
// carries its checksum, verified on every read).
func CheckArtifact(ctx context.Context, indexPath, blobPath string) string {
	for _, f := range []struct {
		path    string
		version int
	}{{indexPath, IndexSchemaVersion}, {blobPath, BlobSchemaVersion}} {
		db, ok, why := healthy(f.path, f.version)
		if db != nil {
			db.Close()
		}
		if !ok {
			return why
		}
	}
	return ""
}

// InstallArtifact puts a checked pair of staged databases in place of the
// worktree index of opts. With no blob store yet, the staged one becomes it
// (merged false); otherwise the staged blobs missing from it are added and
// the staged index's blob ids rewritten to the store's. The staged files are
// consumed. No process may have the worktree index open (the caller holds
// the writer lock).
func InstallArtifact(ctx context.Context, opts Options, stagedIndex, stagedBlobs string) (merged bool, err error) {
	if _, statErr := os.Stat(opts.BlobPath); os.IsNotExist(statErr) {
		if err := installFile(stagedBlobs, opts.BlobPath); err != nil {
			return false, err
		}
	} else {
		merged = true
		if err := mergeBlobs(ctx, opts.BlobPath, stagedIndex, stagedBlobs); err != nil {
			return true, err
		}
	}
	return merged, installFile(stagedIndex, opts.IndexPath)
}

// installFile renames a staged database over dst under dst's seal lock and
// seals the result.
func installFile(staged, dst string) error {
	unlock, err := lockSeal(dst)
	if err != nil {
		return err
	}
	defer unlock()
	removeDB(dst)
	os.Chmod(staged, 0o600)
	if err := os.Rename(staged, dst); err != nil {
		return fmt.Errorf("store: install %s: %w", dst, err)
	}
	return reseal(dst)
}

// mergeBlobs adds the staged blobs the shared store lacks (with their text
// and surfaces), marks the others used, and points the staged index at the
// store's ids and generation.
func mergeBlobs(ctx context.Context, blobPath, stagedIndex, stagedBlobs string) error {
	end, err := sealBegin("blobs", blobPath)
	if err != nil {
		return err
	}
	defer end()
	db, err := sql.Open("sqlite", "file:"+stagedIndex)
	if err != nil {
		return fmt.Errorf("store: merge blobs: %w", err)
	}
	defer db.Close() // before end: closing checkpoints the store's log
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: merge blobs: %w", err)
	}
	defer conn.Close()
	now := time.Now().Unix()
	stmts := []string{
		`PRAGMA busy_timeout = 10000`,
		`ATTACH DATABASE ` + quote(blobPath) + ` AS blobs`,
		`ATTACH DATABASE ` + quote(stagedBlobs) + ` AS art`,
		`BEGIN IMMEDIATE`,
		`CREATE TEMP TABLE prev AS SELECT coalesce(max(id), 0) AS max FROM blobs.blob`,
		`INSERT INTO blobs.blob(hash, lang, xver, size, status, facts, text_sum, sum, last_used)
		 SELECT a.hash, a.lang, a.xver, a.size, a.status, a.facts, a.text_sum, a.sum, ` + fmt.Sprint(now) + ` FROM art.blob a
		 WHERE NOT EXISTS (SELECT 1 FROM blobs.blob b WHERE b.hash = a.hash AND b.lang = a.lang AND b.xver = a.xver) ORDER BY a.id`,
		`CREATE TEMP TABLE idmap(old INTEGER PRIMARY KEY, new INTEGER NOT NULL)`,
		`INSERT INTO idmap SELECT a.id, b.id FROM art.blob a JOIN blobs.blob b ON b.hash = a.hash AND b.lang = a.lang AND b.xver = a.xver`,
		`INSERT INTO blobs.blob_text(rowid, content) SELECT m.new, t.content FROM art.blob_text t JOIN idmap m ON m.old = t.rowid
		 WHERE m.new > (SELECT max FROM prev)`,
		`INSERT OR IGNORE INTO blobs.blob_surface(blob_id, kind, data) SELECT m.new, s.kind, s.data FROM art.blob_surface s JOIN idmap m ON m.old = s.blob_id
		 WHERE m.new > (SELECT max FROM prev)`,
		`INSERT INTO blobs.blob_name(rowid, names) SELECT m.new, n.names FROM art.blob_name n JOIN idmap m ON m.old = n.rowid
		 WHERE m.new > (SELECT max FROM prev)`,
		`UPDATE blobs.blob SET last_used = ` + fmt.Sprint(now) + ` WHERE id IN (SELECT new FROM idmap) AND last_used < ` + fmt.Sprint(now),
		`UPDATE main.file SET blob_id = coalesce((SELECT new FROM idmap WHERE old = blob_id), 0)`,
		`UPDATE main.file_history SET blob_id = coalesce((SELECT new FROM idmap WHERE old = blob_id), 0) WHERE blob_id != 0`,
		`INSERT OR REPLACE INTO main.metadata(key, value) SELECT 'blob_generation', value FROM blobs.metadata WHERE key = 'generation'`,
		`COMMIT`,
		`DETACH DATABASE art`,
		`DETACH DATABASE blobs`,
	}
	return execScript(ctx, conn, "merge blobs", stmts)
}
