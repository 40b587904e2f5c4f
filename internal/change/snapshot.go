package change

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// snapFile is a file of a compared state.
type snapFile struct {
	oid    string // git blob id ('' unknown)
	blobID int64  // blob of the index (0 when only in git)
	lang   string
	// ovID is the pseudo id of a file a request's overlay holds (0: none):
	// its facts and text are the overlay's.
	ovID int64
}

type snapshot struct {
	side  DiffSide
	files map[string]snapFile
}

// fileSide is one file of one state, loaded.
type fileSide struct {
	path  string
	lang  string
	facts *lang.Facts
	text  []byte
	blob  int64
	kids  map[int32]bool // defs that have children
}

// snapshot lists the files of one state.
func (a *analysis) snapshot(ctx context.Context, spec string) (*snapshot, error) {
	root := a.Index().Paths().Root
	switch {
	case spec == "" || spec == "WORKTREE" || spec == "worktree":
		files, err := a.Files(ctx)
		if err != nil {
			return nil, err
		}
		st, _ := a.State(ctx)
		s := &snapshot{side: DiffSide{Spec: "working tree", Kind: "worktree", Epoch: st.Epoch}, files: make(map[string]snapFile, len(files))}
		for _, f := range files {
			sf := snapFile{oid: f.GitOID, blobID: f.BlobID, lang: f.Lang}
			if f.ID < 0 {
				sf.ovID = f.ID
			}
			s.files[f.Path] = sf
		}
		return s, nil
	case strings.HasPrefix(spec, "epoch:"):
		n, err := strconv.ParseInt(strings.TrimPrefix(spec, "epoch:"), 10, 64)
		if err != nil || n < 1 {
			return nil, errs.E(errs.InvalidArgument, "bad epoch %q (want epoch:N, N >= 1)", spec)
		}
		files, err := a.Store().FilesAtEpoch(ctx, n)
		if err != nil {
			return nil, err
		}
		st, _ := a.State(ctx)
		if n > st.Epoch {
			return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("epoch %d is in the future (the index is at epoch %d)", n, st.Epoch)}
		}
		if len(files) == 0 {
			return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("no record of epoch %d (history starts when the index was built)", n),
				Fixes: []string{"cairn status"}}
		}
		s := &snapshot{side: DiffSide{Spec: spec, Kind: "epoch", Epoch: n}, files: make(map[string]snapFile, len(files))}
		for _, f := range files {
			s.files[f.Path] = snapFile{blobID: f.BlobID, lang: f.Lang}
		}
		return s, nil
	}
	if !a.Index().Paths().IsGit {
		return nil, &errs.Error{Kind: errs.Precondition, Msg: "not a git repository: compare epochs (epoch:N) instead"}
	}
	commit, err := gitx.ResolveCommit(ctx, root, spec)
	if err != nil {
		if errors.Is(err, gitx.ErrNoRef) {
			return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("%q does not name a commit", spec), Fixes: []string{"git tag", "git log --oneline"}}
		}
		return nil, err
	}
	entries, err := gitx.LsTree(ctx, root, commit)
	if err != nil {
		return nil, err
	}
	excluded := a.Index().PathFilter()
	s := &snapshot{side: DiffSide{Spec: spec, Kind: "git", Commit: commit}, files: make(map[string]snapFile, len(entries))}
	for _, en := range entries {
		if en.Mode == "120000" || excluded(en.Path) {
			continue
		}
		s.files[en.Path] = snapFile{oid: en.OID}
	}
	return s, nil
}

// changedPaths lists the paths whose content differs, in order.
func changedPaths(a, b *snapshot, only []string) []string {
	in := func(p string) bool {
		if len(only) == 0 {
			return true
		}
		for _, o := range only {
			o = strings.TrimSuffix(o, "/")
			if p == o || strings.HasPrefix(p, o+"/") || o == "" || o == "." {
				return true
			}
		}
		return false
	}
	same := func(x, y snapFile) bool {
		if x.oid != "" && y.oid != "" {
			return x.oid == y.oid
		}
		return x.blobID != 0 && x.blobID == y.blobID
	}
	var out []string
	for p, x := range a.files {
		if y, ok := b.files[p]; (!ok || !same(x, y)) && in(p) {
			out = append(out, p)
		}
	}
	for p := range b.files {
		if _, ok := a.files[p]; !ok && in(p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// loadSides loads the facts (and text) of the changed files on both sides:
// from the index when it holds the content, else from git through the
// content-addressed blob store.
func (a *analysis) loadSides(ctx context.Context, base, target *snapshot, changed []string, res *DiffResult) (map[string]*fileSide, map[string]*fileSide, error) {
	olds, news := map[string]*fileSide{}, map[string]*fileSide{}
	type want struct {
		path string
		into map[string]*fileSide
	}
	byOID := map[string][]want{}
	parser := a.Index().NewContentParser()
	defer parser.Close(context.WithoutCancel(ctx))
	load := func(s *snapshot, into map[string]*fileSide) error {
		for _, p := range changed {
			f, ok := s.files[p]
			if !ok {
				continue
			}
			if f.ovID != 0 {
				fr, facts, err := a.FileFacts(ctx, f.ovID)
				if err != nil {
					return err
				}
				text, err := a.FileText(ctx, fr)
				if err != nil {
					return err
				}
				into[p] = &fileSide{path: p, lang: f.lang, facts: facts, text: text}
				continue
			}
			if f.blobID != 0 {
				facts, err := a.Facts(ctx, f.blobID)
				if err != nil {
					return err
				}
				if facts == nil && f.lang != "" && s.side.Kind == "epoch" {
					if isCode(f.lang) {
						res.Unavailable = append(res.Unavailable, p)
					}
				}
				into[p] = &fileSide{path: p, lang: f.lang, facts: facts, blob: f.blobID}
				continue
			}
			byOID[f.oid] = append(byOID[f.oid], want{p, into})
		}
		return nil
	}
	if err := load(base, olds); err != nil {
		return nil, nil, err
	}
	if err := load(target, news); err != nil {
		return nil, nil, err
	}
	oids := slices.Sorted(maps.Keys(byOID))
	maxBytes := a.Index().Config().Index.MaxFileBytes
	err := gitx.ReadBlobs(ctx, a.Index().Paths().Root, oids, maxBytes, func(oid string, size int64, data []byte) error {
		for _, w := range byOID[oid] {
			fs := &fileSide{path: w.path}
			if data != nil {
				facts, language, err := parser.Facts(ctx, w.path, data)
				if err != nil {
					return err
				}
				fs.facts, fs.lang, fs.text = facts, language, append([]byte(nil), data...)
			}
			w.into[w.path] = fs
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("query: read revision files: %w", err)
	}
	res.Parsed, res.Reused = parser.Parsed, parser.Reused
	return olds, news, nil
}

func (a *analysis) sideText(ctx context.Context, f *fileSide) []byte {
	if f.text == nil && f.blob != 0 {
		f.text, _ = a.Store().BlobText(ctx, f.blob)
	}
	return f.text
}

// WorktreeChanges lists the files of the working tree (the index) that differ
// from a git revision: the default input of affected_tests.
func WorktreeChanges(ctx context.Context, e *query.Engine, rev string) (changed, deleted []string, err error) {
	a := &analysis{Engine: e}
	base, err := a.snapshot(ctx, rev)
	if err != nil {
		return nil, nil, err
	}
	target, err := a.snapshot(ctx, "")
	if err != nil {
		return nil, nil, err
	}
	root := a.Index().Paths().Root
	ov := a.Overlay()
	for _, p := range changedPaths(base, target, nil) {
		if _, ok := target.files[p]; ok {
			changed = append(changed, p)
		} else if ov != nil && ov.Deletes(p) {
			deleted = append(deleted, p)
		} else if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			deleted = append(deleted, p)
		}
	}
	return changed, deleted, nil
}
