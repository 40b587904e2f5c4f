package scan

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
)

// Limits on a path argument, those of the file systems Cairn runs on
// (PATH_MAX and NAME_MAX on Linux and macOS): a longer path cannot name a
// file, so it is refused before any work, and the limits bound what
// resolving a path may cost.
const (
	MaxPathBytes = 4096 // a whole path
	MaxNameBytes = 255  // one element of a path
)

// maxLinks is how many symlinks one path may go through (Linux's limit).
const maxLinks = 40

// Target is a path argument made canonical.
type Target struct {
	// Path is the path as named: repo-relative, cleaned, symlinks kept. ""
	// is the root.
	Path protocol.RepoPath
	// Real is where Path leads once every symlink on it is followed, also
	// repo-relative; it equals Path when no symlink is involved. Policy
	// (secrets, ignore rules, .git, Cairn's state) applies to both.
	Real protocol.RepoPath
}

// Contain turns a path argument into a canonical repo path, refusing anything
// that leaves the repository: ".." escapes, absolute paths elsewhere, and
// symlinks whose real location is outside root. Every tool that takes a path
// calls it (or Resolve). The empty result means the root itself.
func Contain(ctx context.Context, root, p string) (protocol.RepoPath, error) {
	t, err := Resolve(ctx, root, p)
	return t.Path, err
}

// Resolve is Contain that also returns where the path really leads. Its cost
// is bounded and linear in the path: the length limits are checked first,
// before any other work; then the walk looks at each element that exists
// once (one lstat, plus one readlink for a symlink, at most maxLinks of
// them), and ctx stops it.
func Resolve(ctx context.Context, root, p string) (Target, error) {
	if err := CheckLength(p); err != nil {
		return Target{}, err
	}
	if strings.ContainsRune(p, 0) {
		return Target{}, &errs.Error{Kind: errs.InvalidArgument, Msg: "path contains a NUL byte"}
	}
	var rel string
	if filepath.IsAbs(p) {
		r, ok := under(root, filepath.Clean(p))
		if !ok {
			// The root may have been reached through a symlink: compare real paths.
			real, err := filepath.EvalSymlinks(p)
			if err != nil {
				return Target{}, outside(p)
			}
			if r, ok = under(root, real); !ok {
				return Target{}, outside(p)
			}
		}
		rel = r
	} else {
		rel = path.Clean(filepath.ToSlash(p))
	}
	if rel == ".." || strings.HasPrefix(rel, "../") || strings.HasPrefix(rel, "/") {
		return Target{}, outside(p)
	}
	if rel == "." {
		rel = ""
	}
	real, ok, err := follow(ctx, root, rel)
	if err != nil {
		return Target{}, err
	}
	if !ok {
		return Target{}, outside(p)
	}
	return Target{Path: protocol.RepoPath(rel), Real: protocol.RepoPath(real)}, nil
}

// CheckLength refuses a path longer than MaxPathBytes or with an element
// longer than MaxNameBytes, without echoing it whole.
func CheckLength(p string) error {
	if len(p) > MaxPathBytes {
		return tooLong(p, "is "+strconv.Itoa(len(p))+" bytes long, over the limit of "+strconv.Itoa(MaxPathBytes))
	}
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] == '/' || p[i] == filepath.Separator {
			n = 0
			continue
		}
		if n++; n > MaxNameBytes {
			return tooLong(p, "has an element over the limit of "+strconv.Itoa(MaxNameBytes)+" bytes")
		}
	}
	return nil
}

// CheckPatternLength refuses a path pattern (a glob) longer than MaxPathBytes,
// the limit of the paths it selects, which also bounds the cost of compiling
// it. Its elements may be longer than a name ({a,b,...} alternatives).
func CheckPatternLength(p string) error {
	if len(p) > MaxPathBytes {
		return &errs.Error{Kind: errs.InvalidArgument, Msg: "path pattern " + short(p) + " is " + strconv.Itoa(len(p)) +
			" bytes long, over the limit of " + strconv.Itoa(MaxPathBytes)}
	}
	return nil
}

func tooLong(p, why string) error {
	return &errs.Error{Kind: errs.InvalidArgument, Path: short(p), Msg: "path " + short(p) + " " + why,
		Fixes: []string{"name a file by its repo-relative path"}}
}

// short abbreviates a long argument for a message.
func short(p string) string { return errs.Abbrev(p) }

// follow resolves the symlinks on rel (clean, repo-relative) below root the
// way the kernel does, one element at a time, and returns where it leads,
// repo-relative; ok is false when that is outside root. An element that does
// not exist ends the walk: nothing below it can be a symlink, so the rest is
// joined as written.
func follow(ctx context.Context, root, rel string) (real string, ok bool, err error) {
	var pending []string // elements still to walk, first first
	if rel != "" {
		pending = strings.Split(rel, "/")
	}
	var done []string // real elements below root walked so far
	dir := root       // root joined with done
	links := 0
	for len(pending) > 0 {
		if err := ctx.Err(); err != nil {
			return "", false, err
		}
		elem := pending[0]
		pending = pending[1:]
		switch elem {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				return "", false, nil // above the root
			}
			done = done[:len(done)-1]
			dir = filepath.Dir(dir)
			continue
		}
		next := dir + string(filepath.Separator) + elem
		info, err := os.Lstat(next)
		if err != nil {
			// Missing or unreadable: the rest is taken as written.
			rest := path.Clean(strings.Join(append(append(done, elem), pending...), "/"))
			if rest == ".." || strings.HasPrefix(rest, "../") {
				return "", false, nil
			}
			return rest, true, nil
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			done = append(done, elem)
			dir = next
			continue
		}
		if links++; links > maxLinks {
			return "", false, &errs.Error{Kind: errs.InvalidArgument, Path: rel, Msg: "path " + short(rel) + " goes through too many symbolic links"}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", false, nil
		}
		var head []string
		if filepath.IsAbs(target) {
			r, in := under(root, filepath.Clean(target))
			if !in {
				// An absolute target may reach the root through symlinks of its own.
				resolved, err := filepath.EvalSymlinks(target)
				if err != nil {
					return "", false, nil
				}
				if r, in = under(root, resolved); !in {
					return "", false, nil
				}
			}
			done, dir = nil, root
			if r != "" {
				head = strings.Split(r, "/")
			}
		} else {
			head = strings.Split(filepath.ToSlash(target), "/")
		}
		pending = append(head, pending...)
	}
	return strings.Join(done, "/"), true, nil
}

// under returns p (absolute, clean) relative to root, slash-separated, and
// whether it lies within root ("" for root itself).
func under(root, p string) (string, bool) {
	r, err := filepath.Rel(root, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", false
	}
	if r == "." {
		return "", true
	}
	return filepath.ToSlash(r), true
}

func outside(p string) error {
	return &errs.Error{Kind: errs.OutsideRepo, Path: p, Msg: "path " + p + " is outside the repository",
		Fixes: []string{"use a path relative to the repository root"}}
}
