// Package scan decides which files of a repository Cairn indexes: git-tracked and
// untracked-not-ignored files (every file outside git), minus .cairnignore,
// prunable directories and Cairn's own state, with the symlink policy and
// canonical repo-relative paths. It also owns the one path-containment check
// that every path argument goes through. It reads file metadata, never contents.
package scan

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/gitx"
)

// PrunedDirs are never descended into.
var PrunedDirs = map[string]bool{
	".git": true, "node_modules": true, "vendor": true, "dist": true, "build": true, "target": true,
	"__pycache__": true, ".venv": true, ".hg": true, ".svn": true, ".mypy_cache": true, ".pytest_cache": true,
	".tox": true, ".gradle": true, ".idea": true,
}

// Entry is a file to index, with the stat data that detects changes.
type Entry struct {
	Path    string // repo-relative, slash-separated
	Size    int64
	MtimeNS int64
	CtimeNS int64 // inode change time: an in-place edit that keeps size and mtime still moves it
	Inode   int64
	Link    bool // a symlink whose target is a file inside the repository
}

// Result is the outcome of a scan.
type Result struct {
	Files []Entry // sorted by path
	// MissingTracked counts tracked files absent from disk (the tree is dirty).
	MissingTracked int
	// Skipped counts files left out, by reason.
	Skipped map[string]int
}

// Options controls a scan.
type Options struct {
	Paths   config.Paths
	Exclude []string // extra ignore patterns
	// Matcher, when set, is reused (with its memo of decisions) instead of
	// loading the ignore rules again.
	Matcher *Matcher
}

func (o Options) matcher() *Matcher {
	if o.Matcher != nil {
		return o.Matcher
	}
	return NewMatcher(o.Paths.Root, o.Exclude)
}

// stateDir reports whether rel is Cairn's own state inside the tree.
func (o Options) stateDir(rel string) bool {
	if o.Paths.InTreeState != "" && (rel == o.Paths.InTreeState || strings.HasPrefix(rel, o.Paths.InTreeState+"/")) {
		return true
	}
	return rel == ".cairn/cache" || strings.HasPrefix(rel, ".cairn/cache/")
}

// One applies the whole policy to one repo path (for watcher-driven updates):
// it returns the entry, or why the path is not indexed ("missing" when it
// does not exist).
func One(opts Options, rel string) (Entry, string) {
	if hasPrunedDir(rel) || PrunedDirs[path.Base(rel)] || opts.stateDir(rel) {
		return Entry{Path: rel}, "pruned"
	}
	if opts.matcher().Ignored(rel, false) {
		return Entry{Path: rel}, "ignored"
	}
	info, err := os.Lstat(filepath.Join(opts.Paths.Root, filepath.FromSlash(rel)))
	if err != nil {
		return Entry{Path: rel}, "missing"
	}
	if info.IsDir() {
		return Entry{Path: rel}, "directory"
	}
	return entryFor(opts.Paths.Root, rel, info)
}

// Excluded applies the path rules of the policy to a repo path without
// looking at the disk: pruned directories, Cairn's state and ignore rules.
// Used for paths of other revisions, which have no file to stat.
func Excluded(opts Options, rel string) bool {
	return hasPrunedDir(rel) || PrunedDirs[path.Base(rel)] || opts.stateDir(rel) || opts.matcher().Ignored(rel, false)
}

// Scan lists the files to index.
func Scan(ctx context.Context, opts Options) (Result, error) {
	m := opts.matcher()
	res := Result{Skipped: map[string]int{}}
	prune := opts.stateDir
	add := func(rel string, info fs.FileInfo) {
		e, reason := entryFor(opts.Paths.Root, rel, info)
		if reason != "" {
			res.Skipped[reason]++
			return
		}
		res.Files = append(res.Files, e)
	}
	if opts.Paths.IsGit {
		list, err := gitx.ListFiles(ctx, opts.Paths.Root)
		if err != nil {
			return res, err
		}
		for _, rel := range list {
			if err := ctx.Err(); err != nil {
				return res, err
			}
			if hasPrunedDir(rel) || prune(rel) {
				res.Skipped["pruned"]++
				continue
			}
			if m.Ignored(rel, false) {
				res.Skipped["ignored"]++
				continue
			}
			info, err := os.Lstat(filepath.Join(opts.Paths.Root, filepath.FromSlash(rel)))
			if err != nil {
				res.MissingTracked++
				continue
			}
			if info.IsDir() { // a submodule
				res.Skipped["submodule"]++
				continue
			}
			add(rel, info)
		}
	} else {
		err := filepath.WalkDir(opts.Paths.Root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				res.Skipped["unreadable"]++
				return nil
			}
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			rel, _ := filepath.Rel(opts.Paths.Root, p)
			rel = filepath.ToSlash(rel)
			if rel == "." {
				return nil
			}
			if d.IsDir() {
				if PrunedDirs[d.Name()] || prune(rel) || m.Ignored(rel, true) {
					return filepath.SkipDir
				}
				return nil
			}
			if m.Ignored(rel, false) {
				res.Skipped["ignored"]++
				return nil
			}
			info, err := d.Info()
			if err != nil {
				res.Skipped["unreadable"]++
				return nil
			}
			add(rel, info)
			return nil
		})
		if err != nil {
			return res, err
		}
	}
	sort.Slice(res.Files, func(i, j int) bool { return res.Files[i].Path < res.Files[j].Path })
	return res, nil
}

// entryFor applies the file-type and symlink policy to one path.
func entryFor(root, rel string, info fs.FileInfo) (Entry, string) {
	e := Entry{Path: rel}
	if info.Mode()&fs.ModeSymlink != 0 {
		full := filepath.Join(root, filepath.FromSlash(rel))
		real, err := filepath.EvalSymlinks(full)
		if err != nil {
			return e, "broken_symlink"
		}
		if !inside(root, real) {
			return e, "symlink_outside"
		}
		target, err := os.Stat(real)
		if err != nil {
			return e, "broken_symlink"
		}
		if target.IsDir() {
			return e, "symlinked_dir"
		}
		info = target
		e.Link = true
	}
	if !info.Mode().IsRegular() {
		return e, "not_regular"
	}
	e.Size = info.Size()
	e.MtimeNS = info.ModTime().UnixNano()
	e.Inode, e.CtimeNS = inodeAndCtime(info)
	return e, ""
}

func hasPrunedDir(rel string) bool {
	dir := path.Dir(rel)
	if dir == "." {
		return false
	}
	for _, part := range strings.Split(dir, "/") {
		if PrunedDirs[part] {
			return true
		}
	}
	return false
}

// inside reports whether real (an absolute path) lies within root.
func inside(root, real string) bool {
	rel, err := filepath.Rel(root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Matcher applies .cairnignore (or the built-in defaults) and extra patterns.
// It remembers its decisions: matching is the costly part of rescanning a
// large tree, and the rules rarely change.
type Matcher struct {
	m    gitignore.Matcher
	key  string // the rules' text; a matcher is stale when it changes
	mu   sync.Mutex
	memo map[string]bool // guarded by mu: "f:path" / "d:path" -> ignored
}

// rulesText reads the rules that apply to root.
func rulesText(root string, extra []string) string {
	var b strings.Builder
	if data, err := os.ReadFile(filepath.Join(root, ".cairnignore")); err == nil {
		b.Write(data)
	} else {
		b.WriteString(strings.Join(config.SecretPatterns, "\n"))
	}
	b.WriteString("\n" + strings.Join(extra, "\n"))
	return b.String()
}

// Current returns m when the rules are unchanged, else a new matcher.
func (m *Matcher) Current(root string, extra []string) *Matcher {
	if m != nil && m.key == rulesText(root, extra) {
		return m
	}
	return NewMatcher(root, extra)
}

// NewMatcher loads the ignore rules of a repository root.
func NewMatcher(root string, extra []string) *Matcher {
	key := rulesText(root, extra)
	lines := strings.Split(key, "\n")
	var ps []gitignore.Pattern
	for _, l := range lines {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(l, nil))
	}
	return &Matcher{m: gitignore.NewMatcher(ps), key: key, memo: map[string]bool{}}
}

// Ignored reports whether a repo-relative path is ignored.
func (m *Matcher) Ignored(rel string, isDir bool) bool {
	k := "f:" + rel
	if isDir {
		k = "d:" + rel
	}
	m.mu.Lock()
	v, ok := m.memo[k]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = m.m.Match(strings.Split(rel, "/"), isDir)
	m.mu.Lock()
	m.memo[k] = v
	m.mu.Unlock()
	return v
}

var secretMatcher = func() gitignore.Matcher {
	var ps []gitignore.Pattern
	for _, p := range config.SecretPatterns {
		ps = append(ps, gitignore.ParsePattern(p, nil))
	}
	return gitignore.NewMatcher(ps)
}()

// IsSecret reports whether a path looks like a secret (DESIGN §6a).
func IsSecret(rel string) bool {
	return secretMatcher.Match(strings.Split(rel, "/"), false)
}
