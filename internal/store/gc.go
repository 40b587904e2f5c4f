package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
)

// RegisterWorktree records that this worktree index (of the worktree at root)
// uses this blob store, so garbage collection can see which blobs it
// references and whether the worktree still exists.
func (s *DB) RegisterWorktree(ctx context.Context, now int64, root string) error {
	err := s.write("blobs", func() error {
		_, err := s.sql.ExecContext(ctx, `INSERT INTO blobs.worktree(path, root, last_seen) VALUES(?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET last_seen = excluded.last_seen, root = excluded.root`, s.opts.IndexPath, root, now)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: register worktree: %w", err)
	}
	return nil
}

// WorktreeRow is one worktree index registered in the blob store.
type WorktreeRow struct {
	IndexPath string `json:"index"`
	Root      string `json:"root,omitempty"` // '' when it registered before roots were recorded
	LastSeen  int64  `json:"last_seen"`
}

// Worktrees lists the worktree indexes registered in the blob store, by path.
func (s *Reader) Worktrees(ctx context.Context) ([]WorktreeRow, error) {
	rows, err := s.sql.QueryContext(ctx, `SELECT path, root, last_seen FROM blobs.worktree ORDER BY path`)
	return scanAll(rows, err, "worktrees", func(r scanner, w *WorktreeRow) error { return r.Scan(&w.IndexPath, &w.Root, &w.LastSeen) })
}

// ForgetWorktree removes a worktree index from the registry: its blobs stop
// being live (once their grace period has passed).
func (s *DB) ForgetWorktree(ctx context.Context, indexPath string) error {
	return s.write("blobs", func() error {
		_, err := s.sql.ExecContext(ctx, `DELETE FROM blobs.worktree WHERE path = ?`, indexPath)
		return err
	})
}

// Compact rewrites the blob store without the pages that removed blobs
// left free, so the disk space goes back to the system.
func (s *DB) Compact(ctx context.Context) error {
	return s.write("blobs", func() error {
		_, err := s.sql.ExecContext(ctx, `VACUUM blobs`)
		return err
	})
}

// GCResult reports what a garbage collection did.
type GCResult struct {
	Worktrees int // worktree indexes consulted
	Kept      int // blobs still referenced or recently used
	Removed   int // blobs removed
}

// CollectGarbage is the mark-and-sweep pass of the blob store: a blob survives
// if any registered worktree index references it or it was used within grace
// seconds; everything else (including blobs written by a batch that crashed
// before its worktree rows committed) is removed.
func (s *DB) CollectGarbage(ctx context.Context, now, grace int64) (GCResult, error) {
	var res GCResult
	rows, err := s.sql.QueryContext(ctx, `SELECT path FROM blobs.worktree`)
	paths, err := scanAll(rows, err, "gc", scanValue[string])
	if err != nil {
		return res, err
	}
	live := map[int64]bool{}
	for _, p := range paths {
		if p != s.opts.IndexPath {
			if _, err := os.Stat(p); err != nil {
				s.write("blobs", func() error {
					_, err := s.sql.ExecContext(ctx, `DELETE FROM blobs.worktree WHERE path = ?`, p)
					return err
				})
				continue
			}
		}
		if err := s.markFrom(ctx, p, live); err != nil {
			return res, err
		}
		res.Worktrees++
	}
	rows, err = s.sql.QueryContext(ctx, `SELECT id FROM blobs.blob WHERE last_used < ?`, now-grace)
	cands, err := scanAll(rows, err, "gc", scanValue[int64])
	if err != nil {
		return res, err
	}
	var dead []int64
	for _, id := range cands {
		if !live[id] {
			dead = append(dead, id)
		}
	}
	removed := 0
	if err := s.write("blobs", func() (err error) { removed, err = s.deleteBlobs(ctx, dead, now-grace); return err }); err != nil {
		return res, err
	}
	var total int
	s.sql.QueryRowContext(ctx, `SELECT count(*) FROM blobs.blob`).Scan(&total)
	res.Removed, res.Kept = removed, total
	return res, nil
}

// deleteBlobs removes blobs with their text and surfaces, those still unused
// since before cutoff: a worktree may have claimed one (ClaimBlobs) since the
// mark phase saw it unreferenced. It returns how many it removed.
func (s *DB) deleteBlobs(ctx context.Context, dead []int64, cutoff int64) (int, error) {
	tx, err := s.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	removed := 0
	for _, id := range dead {
		res, err := tx.ExecContext(ctx, `DELETE FROM blobs.blob WHERE id = ? AND last_used < ?`, id, cutoff)
		if err != nil {
			return 0, fmt.Errorf("store: gc: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
		removed++
		if _, err := tx.ExecContext(ctx, `DELETE FROM blobs.blob_text WHERE rowid = ?`, id); err != nil {
			return 0, fmt.Errorf("store: gc: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM blobs.blob_surface WHERE blob_id = ?`, id); err != nil {
			return 0, fmt.Errorf("store: gc: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM blobs.blob_name WHERE rowid = ?`, id); err != nil {
			return 0, fmt.Errorf("store: gc: %w", err)
		}
	}
	return removed, tx.Commit()
}

func (s *DB) markFrom(ctx context.Context, indexPath string, live map[int64]bool) error {
	q := `SELECT DISTINCT blob_id FROM file`
	var rows *sql.Rows
	var err error
	if indexPath == s.opts.IndexPath {
		rows, err = s.sql.QueryContext(ctx, q)
	} else {
		other, oerr := sql.Open("sqlite", "file:"+indexPath+"?mode=ro")
		if oerr != nil {
			return nil // an unreadable index marks nothing; its blobs keep their grace period
		}
		defer other.Close()
		rows, err = other.QueryContext(ctx, q)
	}
	if err != nil {
		return nil
	}
	ids, err := scanAll(rows, nil, "live blobs", scanValue[int64])
	for _, id := range ids {
		live[id] = true
	}
	return err
}
