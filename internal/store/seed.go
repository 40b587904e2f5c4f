package store

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/cairnhq/cairn/internal/lockfile"
)

// Seed starts a worktree index that does not exist yet from the index of
// another worktree of the repository (the one seen last whose index is
// built on this blob store): the reconcile that follows rehashes every file
// (their stat data differs) and parses and links again only the files whose
// content differs, so a new worktree costs about its difference, not a whole
// index. The new index is an overlay over a baseline shared by the
// worktrees (overlay.go, baseline.go): another worktree's overlay is
// copied, or another worktree's standalone index becomes the baseline. It
// returns the worktree seeded from ("" when none fits).
func Seed(ctx context.Context, opts Options) (string, error) {
	if _, err := os.Stat(opts.IndexPath); err == nil {
		return "", nil
	}
	if _, err := os.Stat(opts.BlobPath); err != nil {
		return "", nil
	}
	blobs, err := sql.Open("sqlite", "file:"+opts.BlobPath+"?mode=ro")
	if err != nil {
		return "", nil
	}
	defer blobs.Close()
	var gen string
	if blobs.QueryRowContext(ctx, `SELECT value FROM metadata WHERE key = 'generation'`).Scan(&gen) != nil {
		return "", nil
	}
	rows, err := blobs.QueryContext(ctx, `SELECT path, root FROM worktree WHERE path != ? ORDER BY last_seen DESC, path`, opts.IndexPath)
	if err != nil {
		return "", nil
	}
	type cand struct{ path, root string }
	var cands []cand
	for rows.Next() {
		var c cand
		if rows.Scan(&c.path, &c.root) == nil {
			cands = append(cands, c)
		}
	}
	rows.Close()
	var fit []cand
	for _, c := range cands {
		// Read-only looks: a read-write connection could fold another
		// worktree's log into its file behind its seal.
		if metaOf(ctx, c.path, "schema_version") == strconv.Itoa(IndexSchemaVersion) && metaOf(ctx, c.path, "blob_generation") == gen &&
			metaOf(ctx, c.path, "epoch") != "" {
			fit = append(fit, c)
		}
	}
	// An overlay over a baseline that serves: a copy of it is an overlay
	// over the same baseline.
	for _, c := range fit {
		if base := metaOf(ctx, c.path, baselineKey); base != "" && baselineProblem(ctx, base, gen) == "" {
			if err := seedFrom(ctx, c.path, opts.IndexPath); err == nil {
				return c.root, nil
			}
		}
	}
	// A standalone index becomes the baseline of both worktrees.
	for _, c := range fit {
		if metaOf(ctx, c.path, baselineKey) != "" {
			continue
		}
		base, err := makeBaseline(ctx, c.path, opts.BlobPath)
		if err != nil {
			continue
		}
		if err := makeOverlay(ctx, base, opts.IndexPath, base, true); err == nil {
			return c.root, nil
		}
	}
	for _, c := range fit {
		if err := seedFrom(ctx, c.path, opts.IndexPath); err != nil {
			continue // another candidate, or a normal build
		}
		return c.root, nil
	}
	return "", nil
}

// metaOf reads one metadata value of a database ("" when it cannot).
func metaOf(ctx context.Context, path, key string) string {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return ""
	}
	defer db.Close()
	var v string
	db.QueryRowContext(ctx, `SELECT value FROM metadata WHERE key = ?`, key).Scan(&v)
	return v
}

// seedFrom copies the index at src to dst: a file copy while no process
// owns src (its log was folded in when its last connection closed), else a
// consistent copy through SQLite.
func seedFrom(ctx context.Context, src, dst string) error {
	tmp := dst + ".seed"
	removeDB(tmp)
	defer removeDB(tmp)
	if l, err := lockfile.Probe(filepath.Join(filepath.Dir(src), "owner.lock")); err == nil {
		err = copyDB(src, tmp)
		l.Unlock()
		if err != nil {
			return err
		}
	} else {
		if err := vacuumInto(ctx, src, tmp); err != nil {
			return err
		}
	}
	db, err := sql.Open("sqlite", "file:"+tmp)
	if err != nil {
		return err
	}
	// The other worktree's indexer jobs are its own.
	_, err = db.ExecContext(ctx, `DELETE FROM sem_job`)
	if err == nil {
		_, err = db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	}
	db.Close()
	if err != nil {
		return fmt.Errorf("store: seed: %w", err)
	}
	return installFile(tmp, dst)
}

// copyDB copies a database file and its write-ahead log.
func copyDB(src, dst string) error {
	for _, suffix := range []string{"", "-wal"} {
		in, err := os.Open(src + suffix)
		if err != nil {
			if suffix != "" && os.IsNotExist(err) {
				continue
			}
			return err
		}
		out, err := os.OpenFile(dst+suffix, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			in.Close()
			return err
		}
		_, err = io.Copy(out, in)
		in.Close()
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
