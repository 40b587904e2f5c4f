package mutate

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/scan"
)

// target is a path argument resolved for writing.
type target struct {
	named string // the path as the request named it, canonical
	path  string // where it leads once symlinks are followed: the file written
	abs   string // path, absolute
	// link: the named path itself is a symlink (to path).
	link bool
}

// resolve applies the write policy to a path argument: inside the
// repository (no "..", no absolute path elsewhere, no symlink leading out),
// not .git or Cairn's state, not a secret, not ignored by .cairnignore, not
// one of the engine's own temporary files. The policy holds for the path as
// named and for where its symlinks lead. Writes go to the real file, so a
// symlink inside the repository stays a symlink.
func (e *Engine) resolve(ctx context.Context, p string) (target, error) {
	if strings.TrimSpace(p) == "" {
		return target{}, errs.E(errs.InvalidArgument, "an edit has no path")
	}
	t, err := scan.Resolve(ctx, e.opts.Paths.Root, p)
	if err != nil {
		return target{}, err
	}
	if t.Path == "" || t.Real == "" {
		return target{}, &errs.Error{Kind: errs.InvalidArgument, Path: p, Msg: p + " is the repository root, not a file"}
	}
	named, real := string(t.Path), string(t.Real)
	if err := e.policy(real, ""); err != nil {
		return target{}, err
	}
	if real != named {
		if err := e.policy(named, ""); err != nil {
			return target{}, err
		}
		if err := e.policy(real, named); err != nil {
			return target{}, err
		}
	}
	out := target{named: named, path: real, abs: e.abs(real)}
	if info, err := os.Lstat(e.abs(named)); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		out.link = true
	}
	return out, nil
}

// policy refuses a repo path that no write may touch; named, when set, is
// the path asked for, which leads to rel through symlinks.
func (e *Engine) policy(rel, named string) error {
	r := scan.Refusal{Verb: "write", Path: rel, Named: named}
	switch {
	case scan.Metadata(e.opts.Paths, rel):
		return r.Err(r.Metadata())
	case scan.IsSecret(rel):
		return r.Err(r.It() + " looks like a secret")
	case isTemp(rel):
		return r.Err(r.It() + " is named like a temporary file of Cairn's writes")
	case scan.NewMatcher(e.opts.Paths.Root, e.opts.Exclude).Ignored(rel, false):
		return r.Err(r.It()+" is ignored by .cairnignore", "edit it with another tool, or remove the pattern from .cairnignore")
	}
	return nil
}

// abs is a repo path made absolute.
func (e *Engine) abs(rel string) string {
	return filepath.Join(e.opts.Paths.Root, filepath.FromSlash(rel))
}
