package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairnhq/cairn/internal/lockfile"
)

// BaselineDir is where the baselines of the worktrees over a blob store
// live: beside it, so every worktree of the repository finds them.
func BaselineDir(blobPath string) string { return filepath.Join(filepath.Dir(blobPath), "baselines") }

// makeBaseline turns the standalone index of another worktree into a
// baseline. When no process owns that index, its file is moved into the
// baseline directory and the worktree keeps a small overlay over it in its
// place (so the two worktrees cost one index, not two); otherwise a
// consistent copy is made and the owner keeps its index. The baseline is
// left read-only, without a log, and sealed.
func makeBaseline(ctx context.Context, src, blobPath string) (string, error) {
	dir := BaselineDir(blobPath)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	base := filepath.Join(dir, randomID()+".db")
	tmp := base + ".tmp"
	removeDB(tmp)
	defer removeDB(tmp)
	l, lockErr := lockfile.Probe(filepath.Join(filepath.Dir(src), "owner.lock"))
	if lockErr == nil {
		defer l.Unlock()
		if err := moveToBaseline(ctx, src, tmp); err != nil {
			return "", err
		}
	} else {
		if err := vacuumInto(ctx, src, tmp); err != nil {
			return "", err
		}
	}
	if err := finishBaseline(ctx, tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, base); err != nil {
		return "", fmt.Errorf("store: baseline: %w", err)
	}
	unlock, err := lockSeal(base)
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := reseal(base); err != nil {
		return "", err
	}
	if lockErr == nil {
		// The source becomes an overlay over what was its own file.
		if err := makeOverlay(ctx, base, src, base, false); err != nil {
			return "", err
		}
	}
	return base, nil
}

// moveToBaseline moves a standalone index no process owns to dst (its log
// folded in first). The caller holds its owner lock; the index is replaced
// by an overlay afterwards (makeOverlay), and until then it is missing,
// which only means a rebuild should the process stop in between.
func moveToBaseline(ctx context.Context, src, dst string) error {
	err := sealWrite("main", src, func() error {
		db, err := sql.Open("sqlite", "file:"+src)
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: baseline: %w", err)
	}
	unlock, err := lockSeal(src)
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("store: baseline: %w", err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(src + suffix)
	}
	removeSeal(src)
	return nil
}

// finishBaseline makes a copied index a baseline: without a write-ahead log
// (it is opened immutable) and read-only. Its small tables stay as they
// were: overlays copy them when they start (makeOverlay) and read only
// their own afterwards.
func finishBaseline(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `PRAGMA journal_mode = DELETE`); err != nil {
		db.Close()
		return fmt.Errorf("store: baseline: %w", err)
	}
	if err := db.Close(); err != nil {
		return err
	}
	return os.Chmod(path, 0o400)
}

// overlayShared are the tables an overlay does not copy from the index it
// starts from: the per-file tables and names its baseline serves.
var overlayShared = map[string]bool{"symbol": true, "link": true, "edge": true, "sname": true, "overlay_hidden": true}

// makeOverlay writes at dst an overlay over base that starts from the
// standalone index src: a copy of every table but the shared ones (which
// it reads from base, as src's own). dropJobs leaves out src's indexer
// jobs (another worktree's).
func makeOverlay(ctx context.Context, src, dst, base string, dropJobs bool) error {
	tmp := dst + ".overlay"
	removeDB(tmp)
	defer removeDB(tmp)
	db, err := sql.Open("sqlite", "file:"+tmp)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	run := func(q string, args ...any) error {
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("store: overlay: %w", err)
		}
		return nil
	}
	if err := run(`ATTACH DATABASE ` + quote("file:"+src+"?mode=ro") + ` AS s`); err != nil {
		return err
	}
	if err := run(indexSchema + cardSchema); err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, `SELECT name, sql FROM s.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return fmt.Errorf("store: overlay: %w", err)
	}
	var tables, virtual []string
	for rows.Next() {
		var name, def string
		if err := rows.Scan(&name, &def); err != nil {
			rows.Close()
			return err
		}
		switch {
		case overlayShared[name] || strings.HasPrefix(name, "sname_fts"):
		case strings.HasPrefix(def, "CREATE VIRTUAL"):
			virtual = append(virtual, name)
		default:
			tables = append(tables, name)
		}
	}
	rows.Close()
	shadow := func(name string) bool {
		for _, v := range virtual {
			if strings.HasPrefix(name, v+"_") {
				return true
			}
		}
		return false
	}
	if err := run(`BEGIN`); err != nil {
		return err
	}
	for _, t := range tables {
		if shadow(t) {
			continue
		}
		if err := run(`INSERT INTO main.` + t + ` SELECT * FROM s.` + t); err != nil {
			return err
		}
	}
	for _, v := range virtual {
		if v != "card_fts" {
			return errors.New("store: overlay: no copy for the full-text table " + v)
		}
		if err := run(`INSERT INTO main.card_fts(rowid, key, summary, body) SELECT rowid, key, summary, body FROM s.card_fts`); err != nil {
			return err
		}
	}
	stmts := []string{`DELETE FROM main.sqlite_sequence`, `INSERT INTO main.sqlite_sequence SELECT * FROM s.sqlite_sequence`}
	if dropJobs {
		stmts = append(stmts, `DELETE FROM main.sem_job`)
	}
	for _, q := range stmts {
		if err := run(q); err != nil {
			return err
		}
	}
	if err := run(`INSERT OR REPLACE INTO main.metadata(key, value) VALUES(?, ?)`, baselineKey, base); err != nil {
		return err
	}
	if err := run(`COMMIT`); err != nil {
		return err
	}
	if err := run(`DETACH DATABASE s`); err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	return installFile(tmp, dst)
}

// vacuumInto writes a consistent, compact copy of a database through a
// read-only connection of its own.
func vacuumInto(ctx context.Context, src, dst string) error {
	db, err := sql.Open("sqlite", "file:"+src+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO `+quote(dst)); err != nil {
		return fmt.Errorf("store: copy %s: %w", src, err)
	}
	return nil
}

// CollectBaselines removes the baselines beside the blob store that none of
// the worktree indexes names, once older than grace seconds (a worktree
// being seeded names its baseline before it registers). It returns the
// files removed.
func CollectBaselines(ctx context.Context, blobPath string, indexes []string, now, grace int64) []string {
	used := map[string]bool{}
	for _, p := range indexes {
		if b := baselineOf(ctx, p); b != "" {
			used[b] = true
		}
	}
	dir := BaselineDir(blobPath)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !strings.HasSuffix(e.Name(), ".db") || used[path] {
			continue
		}
		if st, err := os.Stat(path); err != nil || st.ModTime().Unix() > now-grace {
			continue
		}
		unlock, err := lockSeal(path)
		if err != nil {
			continue
		}
		removeDB(path)
		removeSeal(path)
		unlock()
		os.Remove(sealPath(path) + ".lock")
		removed = append(removed, path)
	}
	return removed
}

// BaselineBytes is the size of the baseline an index is an overlay over
// (0 when standalone).
func (s *DB) BaselineBytes() int64 {
	if s.base == "" {
		return 0
	}
	st, err := os.Stat(s.base)
	if err != nil {
		return 0
	}
	return st.Size()
}
