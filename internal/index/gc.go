package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/lockfile"
	"github.com/cairnhq/cairn/internal/store"
)

// GCReport says what a collection of the shared blob store did.
type GCReport struct {
	// Worktrees are the worktree indexes still registered (this one included).
	Worktrees []store.WorktreeRow `json:"worktrees"`
	// Forgotten are the worktrees whose state was removed: git no longer
	// lists them, their directory or their index is gone.
	Forgotten []ForgottenWorktree `json:"forgotten"`
	// Skipped are dead worktrees a running Cairn process still holds.
	Skipped []string `json:"skipped,omitempty"`
	// BaselinesRemoved are the shared baselines no worktree index named
	// any more.
	BaselinesRemoved []string `json:"baselines_removed,omitempty"`
	BlobsKept        int      `json:"blobs_kept"`
	BlobsRemoved     int      `json:"blobs_removed"`
	GraceSeconds     int64    `json:"grace_seconds"`
	// BytesBefore and BytesAfter are the blob store's size on disk.
	BytesBefore int64 `json:"bytes_before"`
	BytesAfter  int64 `json:"bytes_after"`
}

// ForgottenWorktree is a worktree whose index state a collection removed.
type ForgottenWorktree struct {
	Root    string   `json:"root,omitempty"`
	Index   string   `json:"index"`
	Reason  string   `json:"reason"`
	Removed []string `json:"removed"`
}

// CollectGarbage forgets the worktrees that no longer exist (removing their
// index state), then removes the blobs no remaining worktree references and
// none used within grace, and gives the freed space back to the system. Only
// the owner of the writer lock collects.
func (ix *Index) CollectGarbage(ctx context.Context, grace time.Duration) (*GCReport, error) {
	if !ix.Writable() {
		return nil, &errs.Error{Kind: errs.Conflict, Msg: fmt.Sprintf("the index is owned by process %d", ix.Owner()),
			Fixes: []string{"run this where the server runs, or stop it first"}}
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.collect(ctx, time.Now().Unix(), int64(grace/time.Second), true)
}

// collect is one collection; compact also rewrites the blob store when blobs
// were removed (slow on a large store: the daily pass leaves it out).
func (ix *Index) collect(ctx context.Context, now, grace int64, compact bool) (*GCReport, error) {
	rep := &GCReport{Forgotten: []ForgottenWorktree{}, GraceSeconds: grace}
	rep.BytesBefore = fileBytes(ix.paths.BlobPath)
	rows, err := ix.db().Worktrees(ctx)
	if err != nil {
		return nil, err
	}
	listed := ix.listedWorktrees(ctx)
	for _, w := range rows {
		if w.IndexPath == ix.paths.IndexPath {
			continue
		}
		why := deadWorktree(w, listed)
		if why == "" {
			continue
		}
		removed, held := removeWorktreeState(w)
		if held {
			rep.Skipped = append(rep.Skipped, w.Root)
			continue
		}
		if err := ix.db().ForgetWorktree(ctx, w.IndexPath); err != nil {
			return nil, err
		}
		rep.Forgotten = append(rep.Forgotten, ForgottenWorktree{Root: w.Root, Index: w.IndexPath, Reason: why, Removed: removed})
	}
	res, err := ix.db().CollectGarbage(ctx, now, grace)
	if err != nil {
		return nil, err
	}
	if live, err := ix.db().Worktrees(ctx); err == nil && ix.paths.BlobPath != filepath.Join(ix.paths.StateDir, "blobs.db") {
		indexes := []string{ix.paths.IndexPath}
		for _, w := range live {
			indexes = append(indexes, w.IndexPath)
		}
		rep.BaselinesRemoved = store.CollectBaselines(ctx, ix.paths.BlobPath, indexes, now, grace)
	}
	rep.BlobsKept, rep.BlobsRemoved = res.Kept, res.Removed
	if compact && res.Removed > 0 {
		if err := ix.db().Compact(ctx); err != nil {
			return nil, err
		}
	}
	rep.BytesAfter = fileBytes(ix.paths.BlobPath)
	if rep.Worktrees, err = ix.db().Worktrees(ctx); err != nil {
		return nil, err
	}
	return rep, nil
}

// listedWorktrees are the worktree roots git lists for the repository (nil
// outside git or when git cannot tell: then no worktree is judged by it).
func (ix *Index) listedWorktrees(ctx context.Context) map[string]bool {
	if !ix.paths.IsGit {
		return nil
	}
	wts, err := gitx.Worktrees(ctx, ix.paths.Root)
	if err != nil || len(wts) == 0 {
		return nil
	}
	listed := map[string]bool{}
	for _, w := range wts {
		p := w.Path
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		listed[p] = true
	}
	return listed
}

// deadWorktree says why a registered worktree index is no longer needed, or
// "" while it is.
func deadWorktree(w store.WorktreeRow, listed map[string]bool) string {
	if _, err := os.Stat(w.IndexPath); err != nil {
		return "its index is gone"
	}
	if w.Root == "" {
		return ""
	}
	if _, err := os.Stat(w.Root); err != nil {
		return "the worktree directory is gone"
	}
	if listed != nil && !listed[w.Root] {
		return "git no longer lists the worktree"
	}
	return ""
}

// removeWorktreeState removes the index state of a dead worktree: its whole
// state dir when it is the default one outside the tree, else only the index
// files. held reports a state dir a live process holds (left alone).
func removeWorktreeState(w store.WorktreeRow) (removed []string, held bool) {
	dir := filepath.Dir(w.IndexPath)
	l, err := lockfile.Probe(filepath.Join(dir, "owner.lock"))
	if err != nil {
		if _, statErr := os.Stat(dir); statErr != nil {
			return nil, false // nothing left to remove
		}
		return nil, true
	}
	defer l.Unlock()
	if w.Root != "" && dir == config.DefaultStateDir(w.Root) {
		if os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
		return removed, false
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal", ".seal", ".seal.lock"} {
		if os.Remove(w.IndexPath+suffix) == nil {
			removed = append(removed, w.IndexPath+suffix)
		}
	}
	return removed, false
}

// fileBytes is the size of a database with its write-ahead log.
func fileBytes(path string) int64 {
	var n int64
	for _, suffix := range []string{"", "-wal"} {
		if st, err := os.Stat(path + suffix); err == nil {
			n += st.Size()
		}
	}
	return n
}

// StorageBytes reports the disk the index takes: the shared blob store and
// baseline (all worktrees of the repository use them) and this worktree's
// own index.
func (ix *Index) StorageBytes() (shared, own int64) {
	if ix.paths.BlobPath == ix.paths.IndexPath {
		return 0, fileBytes(ix.paths.IndexPath)
	}
	return fileBytes(ix.paths.BlobPath) + ix.db().BaselineBytes(), fileBytes(ix.paths.IndexPath)
}

// BaselineBytes is the size of the baseline this worktree's index is an
// overlay over (0 when standalone); StorageBytes counts it as shared.
func (ix *Index) BaselineBytes() int64 { return ix.db().BaselineBytes() }

// gcStamp records when the daily collection last ran.
func gcStamp(now int64) map[string]string {
	return map[string]string{"gc_at": strconv.FormatInt(now, 10)}
}

// Register records this worktree in the blob store's registry (indexing
// does it after each commit; an installed index has not committed yet).
func (ix *Index) Register(ctx context.Context) error {
	return ix.db().RegisterWorktree(ctx, time.Now().Unix(), ix.paths.Root)
}
