package baseline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lockfile"
	"github.com/cairnhq/cairn/internal/store"
)

// ImportOptions says what to import into which worktree.
type ImportOptions struct {
	Paths  config.Paths
	Config config.Config
	// Source is an artifact file, a directory holding artifacts, or an
	// http(s) URL.
	Source string
	// Timeout bounds a download; MaxBytes caps its size.
	Timeout  time.Duration
	MaxBytes int64
	Progress func(index.Progress)
}

// Defaults of a download.
const (
	DefaultTimeout  = 10 * time.Minute
	DefaultMaxBytes = 8 << 30
)

// ImportResult is what an import did.
type ImportResult struct {
	Source   string   `json:"source"`
	Artifact string   `json:"artifact"` // the file read (a download is removed afterwards)
	Manifest Manifest `json:"manifest"`
	// Merged: the repository already had a blob store, and the artifact's
	// blobs were added to it; otherwise its blob store was installed whole.
	Merged bool `json:"merged"`
	// What indexing the worktree did afterwards: only the files that differ
	// from the artifact's commit are parsed and linked again.
	Files    int              `json:"files"`
	Parsed   int              `json:"parsed"`
	Modified int              `json:"modified"`
	Added    int              `json:"added"`
	Deleted  int              `json:"deleted"`
	Relinked int              `json:"files_relinked"`
	TimingMS map[string]int64 `json:"timing_ms"`
}

// Import verifies an artifact, replaces the worktree's index with it (the
// blobs join the repository's shared store), then indexes the files that
// differ from the artifact's commit. A damaged or incompatible artifact is
// refused before anything changes. No Cairn process may hold the index.
func Import(ctx context.Context, o ImportOptions) (*ImportResult, error) {
	start := time.Now()
	timing := map[string]int64{}
	l, owner, err := lockfile.TryLock(filepath.Join(o.Paths.StateDir, "owner.lock"))
	if errors.Is(err, lockfile.ErrLocked) {
		return nil, &errs.Error{Kind: errs.Conflict, Msg: fmt.Sprintf("Cairn process %d is using %s", owner, o.Paths.StateDir),
			Details: map[string]any{"pid": owner}, Fixes: []string{"stop it (Ctrl+C in its terminal), then import again"}}
	}
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "lock %s", o.Paths.StateDir)
	}
	unlock := func() {
		if l != nil {
			l.Unlock()
			l = nil
		}
	}
	defer unlock()
	stage, err := os.MkdirTemp(o.Paths.StateDir, "import-*")
	if err != nil {
		return nil, errs.WrapWrite(err, "cannot stage the artifact")
	}
	defer os.RemoveAll(stage)

	path, err := locate(ctx, o, stage)
	if err != nil {
		return nil, err
	}
	timing["fetch"] = time.Since(start).Milliseconds()
	t := time.Now()
	m, offset, err := open(path)
	if err != nil {
		return nil, err
	}
	if err := unpack(path, offset, m, stage); err != nil {
		return nil, err
	}
	stagedIndex, stagedBlobs := filepath.Join(stage, "index.db"), filepath.Join(stage, "blobs.db")
	if why := store.CheckArtifact(ctx, stagedIndex, stagedBlobs); why != "" {
		return nil, corrupt("its databases do not open: %s", why)
	}
	timing["verify"] = time.Since(t).Milliseconds()
	t = time.Now()
	merged, err := store.InstallArtifact(ctx, store.Options{IndexPath: o.Paths.IndexPath, BlobPath: o.Paths.BlobPath}, stagedIndex, stagedBlobs)
	if err != nil {
		return nil, errs.WrapWrite(err, "cannot install the artifact")
	}
	timing["install"] = time.Since(t).Milliseconds()
	unlock()

	// The files on disk: those equal to the artifact's keep its facts.
	t = time.Now()
	ix, err := openOwned(ctx, o.Paths, o.Config, "took the index during the import", "it indexes the worktree itself; nothing else is needed")
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	st, err := ix.Reconcile(ctx, index.ReconcileOptions{Progress: o.Progress})
	if err != nil {
		return nil, err
	}
	if err := ix.Register(ctx); err != nil {
		return nil, err
	}
	timing["index"] = time.Since(t).Milliseconds()
	timing["total"] = time.Since(start).Milliseconds()
	res := &ImportResult{Source: o.Source, Artifact: path, Manifest: *m, Merged: merged, Files: st.Files, Parsed: st.Parsed,
		Modified: st.Modified, Added: st.Added, Deleted: st.Deleted, Relinked: st.Relinked, TimingMS: timing}
	if strings.HasPrefix(path, stage) {
		res.Artifact = ""
	}
	return res, nil
}

// locate turns the source into an artifact file: a URL is downloaded into
// stage, a directory gives the artifact of HEAD (or its only one).
func locate(ctx context.Context, o ImportOptions, stage string) (string, error) {
	src := o.Source
	if strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://") {
		return download(ctx, o, stage)
	}
	st, err := os.Stat(src)
	if err != nil {
		return "", &errs.Error{Kind: errs.FileNotFound, Path: src, Msg: "no artifact at " + src,
			Fixes: []string{"cairn index import FILE|DIR|URL"}}
	}
	if !st.IsDir() {
		return src, nil
	}
	matches, _ := filepath.Glob(filepath.Join(src, "*"+Ext))
	sort.Strings(matches)
	if head := headOf(o.Paths); head != "" {
		for _, m := range matches {
			if filepath.Base(m) == head+Ext {
				return m, nil
			}
		}
	}
	switch len(matches) {
	case 0:
		return "", &errs.Error{Kind: errs.FileNotFound, Path: src, Msg: "no *" + Ext + " artifact in " + src}
	case 1:
		return matches[0], nil
	}
	cands := make([]any, len(matches))
	for i, m := range matches {
		cands[i] = filepath.Base(m)
	}
	return "", &errs.Error{Kind: errs.Ambiguous, Path: src, Candidates: cands,
		Msg: fmt.Sprintf("%s holds %d artifacts and none is named after HEAD (<commit>%s)", src, len(matches), Ext)}
}

// download fetches a URL into stage under a deadline and a size cap.
func download(ctx context.Context, o ImportOptions, stage string) (string, error) {
	timeout, max := o.Timeout, o.MaxBytes
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if max <= 0 {
		max = DefaultMaxBytes
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.Source, nil)
	if err != nil {
		return "", errs.Wrap(errs.InvalidArgument, err, "bad URL %s", o.Source)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return "", &errs.Error{Kind: errs.Timeout, Err: err, Msg: fmt.Sprintf("the download did not finish within %s", timeout),
				Fixes: []string{"cairn index import --timeout 30m " + o.Source}}
		}
		return "", &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot download " + o.Source}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("%s answered %s", o.Source, resp.Status)}
	}
	if resp.ContentLength > max {
		return "", tooLarge(o.Source, resp.ContentLength, max)
	}
	path := filepath.Join(stage, "download"+Ext)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", errs.WrapWrite(err, "cannot stage the download")
	}
	n, err := io.Copy(f, io.LimitReader(resp.Body, max+1))
	cerr := f.Close()
	switch {
	case err != nil && ctx.Err() != nil:
		return "", &errs.Error{Kind: errs.Timeout, Err: err, Msg: fmt.Sprintf("the download did not finish within %s", timeout),
			Fixes: []string{"cairn index import --timeout 30m " + o.Source}}
	case err != nil:
		return "", &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot download " + o.Source}
	case cerr != nil:
		return "", errs.WrapWrite(cerr, "cannot stage the download")
	case n > max:
		return "", tooLarge(o.Source, n, max)
	}
	return path, nil
}

func tooLarge(src string, n, max int64) error {
	return &errs.Error{Kind: errs.TooLarge, Msg: fmt.Sprintf("%s is larger than the cap of %d bytes (%d or more)", src, max, n),
		Fixes: []string{fmt.Sprintf("cairn index import --max-bytes %d %s", n*2, src)}}
}

// headOf reads the commit HEAD points to from the git dir (no git run).
func headOf(p config.Paths) string {
	if !p.IsGit || p.GitDir == "" {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(p.GitDir, "HEAD"))
	if err != nil {
		return ""
	}
	h := strings.TrimSpace(string(b))
	ref, ok := strings.CutPrefix(h, "ref: ")
	if !ok {
		return h
	}
	for _, dir := range []string{p.GitDir, p.GitCommon} {
		if v, err := os.ReadFile(filepath.Join(dir, ref)); err == nil {
			return strings.TrimSpace(string(v))
		}
	}
	if packed, err := os.ReadFile(filepath.Join(p.GitCommon, "packed-refs")); err == nil {
		for _, line := range strings.Split(string(packed), "\n") {
			if oid, name, ok := strings.Cut(line, " "); ok && name == ref {
				return oid
			}
		}
	}
	return ""
}
