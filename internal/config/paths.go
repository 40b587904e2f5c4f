package config

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// Paths locates a repository and Cairn's state for it (DESIGN §6a).
type Paths struct {
	Root      string // absolute, symlinks resolved
	IsGit     bool
	GitDir    string // this worktree's git dir (HEAD, index)
	GitCommon string // the git dir shared by all worktrees (refs, objects)
	StateDir  string // where the index, lock and logs live
	// ExplicitState is set when --state-dir or CAIRN__STATE_DIR chose StateDir
	// (commands suggested to the user must then pass it too).
	ExplicitState bool
	IndexPath     string
	BlobPath      string
	Initialized   bool // .cairn/ exists at the root
	// InTreeState is the repo-relative directory of state kept inside the tree
	// ("" when state lives outside), so scans can prune it.
	InTreeState string
}

// Locate finds the repository from repoFlag (or the working directory) and
// decides where its state lives. stateDir overrides (as does CAIRN__STATE_DIR).
func Locate(ctx context.Context, repoFlag, stateDir string) (Paths, error) {
	start := repoFlag
	if start == "" {
		wd, err := os.Getwd()
		if err != nil {
			return Paths{}, errs.Wrap(errs.Internal, err, "cannot read the working directory")
		}
		start = wd
	} else {
		st, err := os.Stat(start)
		if err != nil {
			return Paths{}, &errs.Error{Kind: errs.InvalidArgument, Msg: "--repo " + start + " does not exist", Path: start,
				Fixes: []string{"cairn --repo <an existing directory> ..."}}
		}
		if !st.IsDir() {
			return Paths{}, &errs.Error{Kind: errs.InvalidArgument, Msg: "--repo " + start + " is not a directory", Path: start}
		}
	}
	abs, err := filepath.Abs(start)
	if err != nil {
		return Paths{}, errs.Wrap(errs.InvalidArgument, err, "bad repository path %s", start)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	p := Paths{Root: findRoot(abs)}
	if st, err := os.Stat(filepath.Join(p.Root, ".git")); err == nil && (st.IsDir() || st.Mode().IsRegular()) && gitx.Available() {
		if top := gitx.TopLevel(ctx, p.Root); top != "" {
			if real, err := filepath.EvalSymlinks(top); err == nil && real == p.Root {
				p.IsGit = true
				p.GitDir, _ = gitx.GitDir(ctx, p.Root)
				p.GitCommon, _ = gitx.CommonDir(ctx, p.Root)
			}
		}
	}
	if st, err := os.Stat(filepath.Join(p.Root, ".cairn")); err == nil && st.IsDir() {
		p.Initialized = true
	}
	if stateDir == "" {
		stateDir = os.Getenv("CAIRN__STATE_DIR")
	}
	explicit := stateDir != ""
	switch {
	case explicit:
		if stateDir, err = filepath.Abs(stateDir); err != nil {
			return p, errs.Wrap(errs.InvalidArgument, err, "bad --state-dir")
		}
	case p.Initialized:
		stateDir = filepath.Join(p.Root, ".cairn", "cache")
	default:
		stateDir = DefaultStateDir(p.Root)
	}
	// The state holds the repository's source text (the lexical tier) and
	// the server's token: only the user may enter it.
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return p, &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot create the state directory " + stateDir,
			Fixes: []string{"cairn --state-dir <a writable directory> ..."}}
	}
	if !explicit {
		os.Chmod(stateDir, 0o700) // tighten a directory made by an older version
	}
	p.StateDir = stateDir
	p.ExplicitState = explicit
	p.IndexPath = filepath.Join(stateDir, "index.db")
	p.BlobPath = filepath.Join(stateDir, "blobs.db")
	if !explicit && p.IsGit && p.GitCommon != "" {
		if common := p.GitCommon; common != "" {
			dir := filepath.Join(common, "cairn")
			if os.MkdirAll(dir, 0o700) == nil && writable(dir) {
				p.BlobPath = filepath.Join(dir, "blobs.db")
			}
		}
	}
	if rel, err := filepath.Rel(p.Root, stateDir); err == nil && rel != "." && !filepath.IsAbs(rel) && !startsWithDotDot(rel) {
		p.InTreeState = filepath.ToSlash(rel)
	}
	return p, nil
}

// DefaultStateDir is where the state of the repository (or worktree) at
// root lives before init: $XDG_CACHE_HOME/cairn/<repo id>.
func DefaultStateDir(root string) string {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(cache, "cairn", hex.EncodeToString(sum[:8]))
}

// findRoot walks up from dir to the nearest directory holding .git or .cairn,
// else returns dir itself.
func findRoot(dir string) string {
	for d := dir; ; {
		for _, marker := range []string{".git", ".cairn"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

func writable(dir string) bool {
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return false
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return true
}

func startsWithDotDot(rel string) bool {
	return rel == ".." || len(rel) > 3 && rel[:3] == ".."+string(filepath.Separator)
}
