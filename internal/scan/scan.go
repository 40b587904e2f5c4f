// Package scan decides which files of a repository Cairn indexes: git-tracked and
// untracked-not-ignored files (every file outside git), minus .cairnignore,
// prunable directories and Cairn's own state, with the symlink policy and
// canonical repo-relative paths. It also owns the one path-containment check
// that every path argument goes through. It reads file metadata, never
// contents; of contents it only says which are binary (IsBinary).
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
	// GitFailed says why git could not list the files of a git worktree
	// (git missing, or killed); the scan then walked the directory with
	// the ignore rules instead, so the index stays fresh without git.
	GitFailed string
}

// Options controls a scan.
type Options struct {
	Paths   config.Paths
	Exclude []string // extra ignore patterns
	// Matcher, when set, is reused (with its memo of decisions) instead of
	// loading the ignore rules again.
	Matcher *Matcher
	// Under, when set, limits the scan to the files below one repo-relative
	// directory (what a watcher reconciles for a new or moved directory);
	// MissingTracked then counts only that directory's.
	Under string

	rec *recorder // set by Record
}

func (o Options) matcher() *Matcher {
	if o.Matcher != nil {
		return o.Matcher
	}
	return NewMatcher(o.Paths.Root, o.Exclude)
}

// stateDir reports whether rel is Cairn's own state inside the tree.
func (o Options) stateDir(rel string) bool { return StateDir(o.Paths, rel) }

// StateDir reports whether a repo path is Cairn's own state inside the tree
// (the state dir chosen for this repository, or .cairn/cache).
func StateDir(p config.Paths, rel string) bool {
	if p.InTreeState != "" && within(rel, p.InTreeState) {
		return true
	}
	return within(rel, ".cairn/cache")
}

// Metadata reports whether a repo path is repository metadata that no tool
// reads or lists: a .git directory (at any depth) or what is in it, or
// Cairn's own state.
func Metadata(p config.Paths, rel string) bool {
	if rel == "" {
		return false
	}
	for _, part := range strings.Split(rel, "/") {
		if part == ".git" {
			return true
		}
	}
	return StateDir(p, rel)
}

// within reports whether rel is dir or lies below it.
func within(rel, dir string) bool {
	return rel == dir || strings.HasPrefix(rel, dir+"/")
}

// excluded returns why the path rules leave a file out ("pruned" for pruned
// directories and Cairn's state, "ignored" for the ignore rules), or "".
func (o Options) excluded(m *Matcher, rel string) string {
	if hasPrunedDir(rel) || o.stateDir(rel) {
		return "pruned"
	}
	if m.Ignored(rel, false) {
		return "ignored"
	}
	return ""
}

// One applies the whole policy to one repo path (for watcher-driven updates):
// it returns the entry, or why the path is not indexed ("missing" when it
// does not exist).
func One(ctx context.Context, opts Options, rel string) (Entry, string) {
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
	// A scan never enters a symlinked directory; neither does an update
	// naming a path through one.
	if dir := path.Dir(rel); dir != "." {
		if real, ok, err := follow(ctx, opts.Paths.Root, dir); err != nil || !ok || real != dir {
			return Entry{Path: rel}, "symlinked_dir"
		}
	}
	return entryFor(ctx, opts, opts.matcher(), rel, info)
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
		e, reason := entryFor(ctx, opts, m, rel, info)
		if opts.rec != nil && info.Mode()&fs.ModeSymlink != 0 {
			opts.rec.link(e, reason)
		}
		if reason != "" {
			res.Skipped[reason]++
			return
		}
		res.Files = append(res.Files, e)
	}
	var list []string
	start := opts.Paths.Root
	if opts.Under != "" {
		// A directory the policy leaves out, or one reached through a
		// symlinked directory, holds nothing to index.
		if hasPrunedDir(opts.Under+"/x") || prune(opts.Under) || m.Ignored(opts.Under, true) {
			return res, nil
		}
		if real, ok, err := follow(ctx, opts.Paths.Root, opts.Under); err != nil || !ok || real != opts.Under {
			return res, nil
		}
		start = filepath.Join(start, filepath.FromSlash(opts.Under))
	}
	useGit := opts.Paths.IsGit
	if useGit {
		var err error
		if list, err = gitx.ListFilesUnder(ctx, opts.Paths.Root, opts.Under); err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return res, cerr
			}
			res.GitFailed, useGit = err.Error(), false
		}
	}
	if useGit {
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
		err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
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
				if opts.rec != nil {
					opts.rec.dir(opts.Paths.Root, "")
				}
				return nil
			}
			if d.IsDir() {
				if PrunedDirs[d.Name()] || prune(rel) || m.Ignored(rel, true) {
					return filepath.SkipDir
				}
				if opts.rec != nil {
					opts.rec.dir(opts.Paths.Root, rel)
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

// entryFor applies the file-type and symlink policy to one path whose own
// path the rules already let in. A symlink is followed (as Resolve follows
// path arguments) only to a file inside the repository that the same rules
// let in: a link must not carry a secret, an ignored file, .git or Cairn's
// state into the index under another name.
func entryFor(ctx context.Context, opts Options, m *Matcher, rel string, info fs.FileInfo) (Entry, string) {
	e := Entry{Path: rel}
	if info.Mode()&fs.ModeSymlink != 0 {
		real, ok, err := follow(ctx, opts.Paths.Root, rel)
		switch {
		case err != nil: // too many links
			return e, "broken_symlink"
		case !ok:
			return e, "symlink_outside"
		}
		target, err := os.Stat(filepath.Join(opts.Paths.Root, filepath.FromSlash(rel)))
		if err != nil {
			return e, "broken_symlink"
		}
		if target.IsDir() {
			return e, "symlinked_dir"
		}
		if why := opts.excluded(m, real); why != "" {
			return e, "symlink_" + why
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

// Matcher applies the secret patterns, .cairnignore and extra patterns.
// It remembers its decisions: matching is the costly part of rescanning a
// large tree, and the rules rarely change.
type Matcher struct {
	m    gitignore.Matcher
	key  string // the rules' text; a matcher is stale when it changes
	mu   sync.Mutex
	memo map[string]bool // guarded by mu: "f:path" / "d:path" -> ignored
}

// rulesText reads the rules that apply to root: the secret patterns first,
// then .cairnignore, whose rules come later and so win (a `!.env.example`
// there indexes that file on purpose; a .cairnignore that does not mention
// secrets does not let them in).
func rulesText(root string, extra []string) string {
	var b strings.Builder
	b.WriteString(strings.Join(config.SecretPatterns, "\n"))
	if data, err := os.ReadFile(filepath.Join(root, ".cairnignore")); err == nil {
		b.WriteString("\n")
		b.Write(data)
	}
	b.WriteString("\n" + strings.Join(extra, "\n"))
	b.WriteString("\n" + TempPattern)
	return b.String()
}

// TempPattern names the temporary files the mutation engine keeps beside a
// file while it replaces it (new content, and a link to the old): never
// indexed, whatever the ignore rules say.
const TempPattern = ".cairn-*.tmp"

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

// Hidden says why agents may not see a repository path's content: it looks
// like a secret (unless allowSecrets), or the ignore rules exclude it; ""
// when neither. Reads and diffs share it; writes have their own policy.
func Hidden(root string, exclude []string, rel string, allowSecrets bool) string {
	switch {
	case rel == "":
		return ""
	case IsSecret(rel) && !allowSecrets:
		return WhySecret
	case NewMatcher(root, exclude).Ignored(rel, false):
		return WhyIgnored
	}
	return ""
}

// The reasons Hidden gives.
const (
	WhySecret  = "looks like a secret"
	WhyIgnored = "is ignored by .cairnignore"
)

// IsSecret reports whether a path looks like a secret (DESIGN §6a).
func IsSecret(rel string) bool {
	return secretMatcher.Match(strings.Split(rel, "/"), false)
}

// Key is the text of the rules the matcher applies: two matchers with the
// same Key decide every path alike.
func (m *Matcher) Key() string { return m.key }

// FileID is a file's inode number and inode change time (ns), zero where the
// system does not say.
func FileID(info fs.FileInfo) (ino, ctimeNS int64) { return inodeAndCtime(info) }
