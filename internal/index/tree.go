package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/store"
)

// The owner keeps what its last scan saw (scan.Tree) in the state directory,
// so that a reconcile that finds nothing changed costs stat calls only: no
// directory listing, no ignore matching and no read of the file table. The
// Tree holds only under the key it was saved with, which names everything
// else a reconcile's early return depends on: the epoch and metadata it
// compared against, HEAD and .git/index (the tripwire), the ignore rules,
// the database file and the program that scanned.

// treeFile is where the Tree is kept.
func (ix *Index) treeFile() string { return filepath.Join(ix.paths.StateDir, "scan.tree") }

// treeKey names the conditions under which a Tree saved now holds.
func (ix *Index) treeKey(meta map[string]string, trip string) string {
	h := sha256.New()
	var dbIno int64
	if info, err := os.Stat(ix.paths.IndexPath); err == nil {
		dbIno, _ = scan.FileID(info)
	}
	exe := ""
	if p, err := os.Executable(); err == nil {
		if info, err := os.Stat(p); err == nil {
			exe = fmt.Sprintf("%s %d %d", p, info.Size(), info.ModTime().UnixNano())
		}
	}
	for _, part := range []string{meta["epoch"], meta["missing_tracked"], meta["tripwire"], trip, ix.matcher.Key(),
		ix.paths.Root, strconv.FormatInt(dbIno, 10), exe} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// verifyTree proves by stat calls that a scan now would find what the last
// one found, against the metadata it was saved with.
func (ix *Index) verifyTree(ctx context.Context, meta map[string]string, trip string) (scan.Result, bool) {
	if ix.tree == nil {
		t, err := scan.ReadTree(ix.treeFile())
		if err != nil {
			return scan.Result{}, false
		}
		ix.tree = t
	}
	if ix.tree.Key != ix.treeKey(meta, trip) || strconv.Itoa(ix.tree.MissingTracked) != meta["missing_tracked"] {
		return scan.Result{}, false
	}
	return scan.Verify(ctx, ix.scanOptions(), ix.tree)
}

// saveTree keeps t (from a scan whose files the file table now holds
// exactly, under meta) for the next reconcile; with t nil, or when the table
// differs, it drops the saved one.
func (ix *Index) saveTree(t *scan.Tree, meta map[string]string, trip string, rows []store.FileRow) {
	ix.tree = nil
	if t == nil || !sameFiles(rows, t.Files) || strconv.Itoa(t.MissingTracked) != meta["missing_tracked"] {
		os.Remove(ix.treeFile())
		return
	}
	t.Key = ix.treeKey(meta, trip)
	if err := scan.WriteTree(ix.treeFile(), t); err != nil {
		os.Remove(ix.treeFile())
		return
	}
	ix.tree = t
}

// dropTree forgets the saved Tree (the store was replaced).
func (ix *Index) dropTree() {
	ix.tree = nil
	os.Remove(ix.treeFile())
}

// sameFiles reports whether the file table holds exactly the scanned files
// with their stat data.
func sameFiles(rows []store.FileRow, files []scan.Entry) bool {
	if len(rows) != len(files) {
		return false
	}
	by := make(map[string]*store.FileRow, len(rows))
	for i := range rows {
		by[rows[i].Path] = &rows[i]
	}
	for _, e := range files {
		r := by[e.Path]
		if r == nil || !sameStat(r, e) {
			return false
		}
	}
	return true
}

func (ix *Index) scanOptions() scan.Options {
	return scan.Options{Paths: ix.paths, Exclude: ix.cfg.Index.Exclude, Matcher: ix.matcher}
}
