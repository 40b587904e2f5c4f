package baseline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/index"
)

// ExportOptions says what to export and where.
type ExportOptions struct {
	Paths  config.Paths
	Config config.Config
	Out    string // the artifact file to write
	// AllowDirty exports an index that holds changes not committed (the
	// manifest says so); otherwise such an export is refused.
	AllowDirty   bool
	CairnVersion string
	Progress     func(index.Progress)
}

// ExportResult is what an export wrote.
type ExportResult struct {
	Out      string           `json:"out"`
	Bytes    int64            `json:"bytes"`
	Manifest Manifest         `json:"manifest"`
	TimingMS map[string]int64 `json:"timing_ms"`
}

// Export brings the index of the worktree up to date and writes it, with
// the blobs it references, as an artifact. The index must be owned by this
// process (no server running) and match a commit.
func Export(ctx context.Context, o ExportOptions) (*ExportResult, error) {
	start := time.Now()
	if !o.Paths.IsGit {
		return nil, &errs.Error{Kind: errs.Precondition, Msg: "an index artifact records the commit it was built from: " + o.Paths.Root + " is not a git repository"}
	}
	out, err := filepath.Abs(o.Out)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidArgument, err, "bad --out %s", o.Out)
	}
	ix, err := openOwned(ctx, o.Paths, o.Config, "owns the index", "stop it (Ctrl+C in its terminal), then export again")
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	timing := map[string]int64{}
	if _, err := ix.Reconcile(ctx, index.ReconcileOptions{Progress: o.Progress}); err != nil {
		return nil, err
	}
	timing["index"] = time.Since(start).Milliseconds()
	st, err := ix.State(ctx)
	if err != nil {
		return nil, err
	}
	if st.Head == "" {
		return nil, &errs.Error{Kind: errs.Precondition, Msg: "the repository has no commit yet", Fixes: []string{"commit, then export"}}
	}
	if st.Dirty && !o.AllowDirty {
		return nil, &errs.Error{Kind: errs.Precondition,
			Msg:   "the working tree differs from " + gitx.Short(st.Head) + ": an artifact would not match its commit",
			Fixes: []string{"commit or stash the changes, then export", "cairn index export --allow-dirty --out " + o.Out}}
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return nil, errs.WrapWrite(err, "cannot create the directory of %s", out)
	}
	dir, err := os.MkdirTemp(filepath.Dir(out), ".cairn-export-*")
	if err != nil {
		return nil, errs.WrapWrite(err, "cannot write next to %s", out)
	}
	defer os.RemoveAll(dir)
	t := time.Now()
	db, release := ix.Acquire()
	err = db.SnapshotTo(ctx, filepath.Join(dir, "index.db"), filepath.Join(dir, "blobs.db"))
	release()
	if err != nil {
		return nil, errs.WrapWrite(err, "cannot copy the index")
	}
	timing["snapshot"] = time.Since(t).Milliseconds()
	m := current()
	m.CairnVersion, m.Commit, m.Branch, m.Dirty, m.Files = o.CairnVersion, st.Head, st.Branch, st.Dirty, st.Files
	m.CreatedAt = time.Now().UTC().Format(time.RFC3339)
	t = time.Now()
	payload := filepath.Join(dir, "payload")
	if err := pack(dir, payload, &m); err != nil {
		return nil, err
	}
	if err := write(out, &m, payload); err != nil {
		return nil, err
	}
	timing["write"] = time.Since(t).Milliseconds()
	timing["total"] = time.Since(start).Milliseconds()
	res := &ExportResult{Out: out, Manifest: m, TimingMS: timing}
	if fi, err := os.Stat(out); err == nil {
		res.Bytes = fi.Size()
	}
	return res, nil
}

// openOwned opens the index, which this process must own: when another
// Cairn process does, the error names it ("Cairn process N " + does) and the
// fix.
func openOwned(ctx context.Context, paths config.Paths, cfg config.Config, does, fix string) (*index.Index, error) {
	ix, err := index.Open(ctx, paths, cfg)
	if err != nil {
		return nil, err
	}
	if !ix.Writable() {
		err := &errs.Error{Kind: errs.Conflict, Msg: fmt.Sprintf("Cairn process %d %s", ix.Owner(), does), Fixes: []string{fix}}
		ix.Close()
		return nil, err
	}
	return ix, nil
}
