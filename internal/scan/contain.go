package scan

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
)

// Contain turns a path argument into a canonical repo path, refusing anything
// that leaves the repository: ".." escapes, absolute paths elsewhere, and
// symlinks whose real location is outside root. Every tool that takes a path
// calls it. The empty result means the root itself.
func Contain(root, p string) (protocol.RepoPath, error) {
	if strings.ContainsRune(p, 0) {
		return "", &errs.Error{Kind: errs.InvalidArgument, Msg: "path contains a NUL byte"}
	}
	var rel string
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(root, filepath.Clean(p))
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			// The root may have been reached through a symlink: compare real paths.
			real, rerr := filepath.EvalSymlinks(p)
			if rerr != nil {
				return "", outside(p)
			}
			if r, err = filepath.Rel(root, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				return "", outside(p)
			}
		}
		rel = filepath.ToSlash(r)
	} else {
		rel = path.Clean(filepath.ToSlash(p))
	}
	if rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") {
		return "", outside(p)
	}
	if rel == "." {
		rel = ""
	}
	// Symlink escape: the deepest existing prefix must resolve inside the root.
	full := filepath.Join(root, filepath.FromSlash(rel))
	for probe := full; ; probe = filepath.Dir(probe) {
		if _, err := os.Lstat(probe); err == nil {
			real, err := filepath.EvalSymlinks(probe)
			if err == nil && !inside(root, real) && real != root {
				return "", outside(p)
			}
			break
		}
		if probe == root || len(probe) <= len(root) {
			break
		}
	}
	return protocol.RepoPath(rel), nil
}

func outside(p string) error {
	return &errs.Error{Kind: errs.OutsideRepo, Path: p, Msg: "path " + p + " is outside the repository",
		Fixes: []string{"use a path relative to the repository root"}}
}
