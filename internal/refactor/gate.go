package refactor

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/plural"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// Env is what planning and applying read: the repository, one snapshot of
// the index and the query engine over it.
type Env struct {
	Paths  config.Paths
	Engine *query.Engine
	Snap   *index.Snapshot
	// Behind says the index may lag the tree (the call's freshness is
	// may-be-stale): every file that is itself current is pending_check.
	Behind bool
	Store  *Store

	disk map[string][]byte // file contents read this call, by repo path
	git  map[string]string // git status by repo path (nil: not read yet)
}

// read returns a file's bytes on disk (nil, false when it is gone), read
// once per call.
func (env *Env) read(p string) ([]byte, bool) {
	if env.disk == nil {
		env.disk = map[string][]byte{}
	}
	if b, ok := env.disk[p]; ok {
		return b, b != nil
	}
	b, err := os.ReadFile(filepath.Join(env.Paths.Root, filepath.FromSlash(p)))
	if err != nil {
		b = nil
	}
	env.disk[p] = b
	return b, b != nil
}

// gitStatus returns the porcelain status of a path: "" for a tracked file
// without changes (or outside git), "??" untracked, else the XY code.
func (env *Env) gitStatus(ctx context.Context, p string) string {
	if !env.Paths.IsGit {
		return "outside"
	}
	if env.git == nil {
		env.git = map[string]string{}
		out, err := gitx.Run(ctx, env.Paths.Root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
		if err == nil {
			for _, rec := range bytes.Split(out, []byte{0}) {
				if len(rec) > 3 {
					env.git[string(rec[3:])] = string(rec[:2])
				}
			}
		}
	}
	return env.git[p]
}

func hashHex(h store.Hash) string { return hex.EncodeToString(h[:]) }

// xxHex is the index's content hash of bytes, in hex.
func xxHex(data []byte) string {
	h := xxh3.Hash128(data).Bytes()
	return hex.EncodeToString(h[:])
}

// matchesIndex reports whether a file on disk holds what the snapshot
// indexed.
func (env *Env) matchesIndex(ctx context.Context, p string) bool {
	row, ok, err := env.Snap.Store().FileByPath(ctx, p)
	data, onDisk := env.read(p)
	return err == nil && ok && onDisk && xxHex(data) == hashHex(row.Hash)
}

// checkFile computes the state of one affected file. defStale says the
// symbol's defining file is stale.
func (env *Env) checkFile(ctx context.Context, p string, defStale bool) (FileCheck, error) {
	fc := FileCheck{Path: p, Certainty: Certain}
	row, ok, err := env.Snap.Store().FileByPath(ctx, p)
	if err != nil {
		return fc, err
	}
	data, onDisk := env.read(p)
	if onDisk {
		fc.SHA256 = mutate.SHA(data)
		fc.DiskHash = xxHex(data)
	}
	switch {
	case !ok:
		fc.Freshness, fc.Reason = Unindexed, "the index does not know this file"
		return fc, nil
	case !onDisk:
		fc.Freshness, fc.Reason = Stale, "indexed, but gone from disk"
	}
	fc.Epoch, fc.IndexedHash = row.Epoch, hashHex(row.Hash)
	if fc.Freshness != "" {
		return fc, nil
	}
	if fc.DiskHash != fc.IndexedHash {
		fc.Freshness, fc.Reason = Stale, "the file on disk differs from what the index holds"
		return fc, nil
	}
	switch st := env.gitStatus(ctx, p); st {
	case "outside":
		fc.Git, fc.Freshness = "outside", Clean
	case "":
		fc.Git, fc.Freshness = "clean", Clean
	case "??":
		fc.Git, fc.Freshness = "untracked", Dirty
	default:
		fc.Git, fc.Freshness = "modified", Dirty
	}
	switch {
	case defStale:
		fc.Freshness, fc.Reason = PendingCheck, "the symbol's defining file is stale: what this file's references resolve to may have changed"
	case env.Behind:
		fc.Freshness, fc.Reason = PendingCheck, "the index is behind the tree (changes seen but not yet indexed): references may be missing"
	}
	return fc, nil
}

// fresh reports whether the gate lets a file be edited automatically.
func fresh(f string) bool { return f == Clean || f == Dirty }

// gate computes the witness files and the plan's status. layer and counts
// give each file's layer and edit count; ambiguous lists the files holding
// candidate groups; defPath is the symbol's file ("" for a move).
func (env *Env) gate(ctx context.Context, p *Plan, files []string, layer map[string]string, counts map[string]int, ambiguous map[string]bool, defPath string) error {
	st := env.Snap.State()
	w := &p.Witness
	w.Epoch, w.RepoStateID, w.Head = st.Epoch, st.RepoStateID, st.Head
	p.Epoch = st.Epoch
	defStale := false
	if defPath != "" {
		dc, err := env.checkFile(ctx, defPath, false)
		if err != nil {
			return err
		}
		defStale = dc.Freshness == Stale || dc.Freshness == Unindexed
	}
	sort.Strings(files)
	w.Files = []FileCheck{}
	notFresh := 0
	for _, f := range files {
		fc, err := env.checkFile(ctx, f, defStale && f != defPath)
		if err != nil {
			return err
		}
		fc.Layer, fc.Edits = layer[f], counts[f]
		if fc.Layer == "" {
			fc.Layer = query.LayerSyntactic
		}
		if ambiguous[f] {
			fc.Certainty = Ambiguous
		}
		if !fresh(fc.Freshness) {
			notFresh++
		}
		w.Files = append(w.Files, fc)
	}
	w.Failed = []string{}
	switch {
	case notFresh > 0:
		if env.Behind {
			w.Failed = append(w.Failed, "index_behind")
		}
		w.Failed = append(w.Failed, "files_not_fresh")
		p.Status = StatusBlocked
		p.Reason = plural.Count(notFresh, "affected file is", "affected files are") + " not fresh in the index"
		w.Refresh = append(w.Refresh, Refresh{Tool: "index_ensure", Args: map[string]any{"repo_state_mode": "full"}, CLI: "cairn index",
			Why: "reindex the files that changed, then plan again"})
	case len(p.Groups) > 0:
		w.Failed = append(w.Failed, "ambiguous_references")
		p.Status = StatusNeedsDecision
		p.Reason = plural.Count(len(p.Groups), "candidate group needs", "candidate groups need") + " a decision: the index cannot prove whether they refer to the symbol"
	default:
		p.Status = StatusReady
	}
	if strings.HasPrefix(w.Semantic, "stale") {
		w.Refresh = append(w.Refresh, Refresh{Tool: "index_ensure", Args: map[string]any{"semantic": true}, CLI: "cairn index --semantic",
			Why: "the semantic layer is stale for these files: refresh it for compiler-precise references"})
	}
	return nil
}

// recheck compares the files of a stored plan with the snapshot and the
// disk now: a file whose indexed epoch or content changed expires the plan;
// a file whose disk content no longer matches the index blocks it.
func (env *Env) recheck(ctx context.Context, p *Plan) (blocked []FileCheck, err error) {
	for _, old := range p.Witness.Files {
		if old.Freshness == Unindexed {
			continue
		}
		fc, err := env.checkFile(ctx, old.Path, false)
		if err != nil {
			return nil, err
		}
		if fc.Epoch != old.Epoch || fc.IndexedHash != old.IndexedHash {
			return nil, expired(p.ID, "the index changed for "+old.Path+" since the plan (epoch "+strconv.Itoa(int(old.Epoch))+" -> "+strconv.Itoa(int(fc.Epoch))+")")
		}
		if !fresh(fc.Freshness) {
			blocked = append(blocked, fc)
		}
	}
	return blocked, nil
}

// exists reports whether a repo path exists on disk.
func (env *Env) exists(p string) bool {
	_, err := os.Lstat(filepath.Join(env.Paths.Root, filepath.FromSlash(p)))
	return !errors.Is(err, fs.ErrNotExist)
}
