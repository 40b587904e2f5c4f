package scan

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairnhq/cairn/internal/atomicfile"
	"github.com/cairnhq/cairn/internal/config"
)

// A Tree is what one scan saw, kept so that the next scan can prove by stat
// calls alone that its result would be the same, without listing directories
// or matching ignore rules. A name added, removed or renamed in a directory
// moves the directory's modification time; an edit in place moves the file's
// stat data; so when every directory the scan read and every file it listed
// still has the recorded stat data, a scan gives the same files with the same
// stat data. What a directory's stat cannot show is recorded besides: the
// files whose content is rules (.gitignore), and symlinks, whose outcome
// depends on their target.
type Tree struct {
	Key   string // the caller's conditions (rules, HEAD, epoch): a Tree holds only under the same Key
	Dirs  []Stat // every directory the listing depends on, stat before it was read
	Rules []Stat // files whose content changes the listing; a missing one has zero stat data
	Files []Entry
	Links []Link // every symlink met, with its outcome
	// MissingTracked and Skipped are the scan's, returned as they were.
	MissingTracked int
	Skipped        map[string]int
}

// Stat is the stat data of a directory or a rules file.
type Stat struct {
	Path    string // repo-relative, slash-separated ("" for the root)
	Size    int64
	MtimeNS int64
	CtimeNS int64
	Inode   int64
}

// Link is a symlink's outcome in a scan: the entry it gave, or why none.
type Link struct {
	Entry  Entry
	Reason string
}

// racyWindow: a directory modified this close to the start of the scan that
// read it may have changed within the file system's timestamp granularity
// after it was read; such a Tree is not kept (git's "racily clean" entries).
const racyWindow = time.Second

// Record runs a scan that also returns the Tree proving its result later
// (nil when the tree cannot be proven by stat: unreadable parts, or a
// directory modified while it was read).
func Record(ctx context.Context, opts Options) (Result, *Tree, error) {
	start := time.Now()
	rec := &recorder{}
	opts.rec = rec
	res, err := Scan(ctx, opts)
	if err != nil {
		return res, nil, err
	}
	if res.GitFailed != "" {
		// Walked without git: not a listing to prove again once git is back.
		return res, nil, nil
	}
	if opts.Paths.IsGit {
		// git lists untracked files from the directories: record all of them
		// (outside what is never descended into), and the ignore files.
		if err := rec.walkGit(ctx, opts); err != nil {
			return res, nil, nil
		}
	}
	if res.Skipped["unreadable"] > 0 || rec.failed {
		return res, nil, nil
	}
	// Only the modification time can be racy: a later change to the
	// listing sets it to the clock's tick then, equal to the recorded one
	// only if that was the tick of the scan.
	for _, d := range rec.dirs {
		if d.MtimeNS >= start.Add(-racyWindow).UnixNano() {
			return res, nil, nil
		}
	}
	skipped := make(map[string]int, len(res.Skipped))
	for k, v := range res.Skipped {
		skipped[k] = v
	}
	t := &Tree{Dirs: rec.dirs, Rules: rec.rules, Files: res.Files, Links: rec.links, MissingTracked: res.MissingTracked, Skipped: skipped}
	if opts.Paths.IsGit {
		for _, p := range gitRuleFiles(opts.Paths) {
			t.Rules = append(t.Rules, statOf(p, p))
		}
	}
	return res, t, nil
}

// recorder collects what a scan read.
type recorder struct {
	mu     sync.Mutex // guards the fields below
	dirs   []Stat
	rules  []Stat
	links  []Link
	failed bool
}

func (r *recorder) dir(root, rel string) {
	s := statOf(filepath.Join(root, filepath.FromSlash(rel)), rel)
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.Inode == 0 && s.MtimeNS == 0 {
		r.failed = true
		return
	}
	r.dirs = append(r.dirs, s)
}

func (r *recorder) link(e Entry, reason string) {
	r.mu.Lock()
	r.links = append(r.links, Link{Entry: e, Reason: reason})
	r.mu.Unlock()
}

// walkGit records the directories git reads for untracked files, and every
// .gitignore among them.
func (r *recorder) walkGit(ctx context.Context, opts Options) error {
	root := opts.Paths.Root
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		if d.IsDir() {
			if rel != "" && (PrunedDirs[d.Name()] || opts.stateDir(rel)) {
				return filepath.SkipDir
			}
			r.dir(root, rel)
			return nil
		}
		if d.Name() == ".gitignore" {
			r.rules = append(r.rules, statOf(p, rel))
		}
		return nil
	})
}

// gitRuleFiles are the files outside the tree that decide what git ignores:
// the repository's exclude file, and the configuration files that may name
// another one (with the default one).
func gitRuleFiles(p config.Paths) []string {
	var files []string
	for _, dir := range []string{p.GitDir, p.GitCommon} {
		if dir != "" {
			files = append(files, filepath.Join(dir, "info", "exclude"), filepath.Join(dir, "config"))
		}
	}
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	if xdg != "" {
		files = append(files, filepath.Join(xdg, "git", "ignore"), filepath.Join(xdg, "git", "config"))
	}
	for _, env := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"} {
		if v := os.Getenv(env); v != "" {
			files = append(files, v)
		}
	}
	return append(files, "/etc/gitconfig")
}

func statOf(full, rel string) Stat {
	info, err := os.Lstat(full)
	if err != nil {
		return Stat{Path: rel}
	}
	ino, ctime := inodeAndCtime(info)
	return Stat{Path: rel, Size: info.Size(), MtimeNS: info.ModTime().UnixNano(), CtimeNS: ctime, Inode: ino}
}

// rootPrefix is root and a separator: a file's canonical path (repo-relative,
// clean, '/'-separated, never the root itself) appended to it is what
// filepath.Join would give, without cleaning each path again.
func rootPrefix(root string) string { return filepath.Clean(root) + string(filepath.Separator) }

// regularAt is the stat of the regular file at prefix+rel (not following a
// final symlink); false when it is missing or is not a regular file.
func regularAt(prefix, rel string) (Stat, bool) {
	info, err := os.Lstat(prefix + filepath.FromSlash(rel))
	if err != nil || !info.Mode().IsRegular() {
		return Stat{}, false
	}
	ino, ctime := inodeAndCtime(info)
	return Stat{Path: rel, Size: info.Size(), MtimeNS: info.ModTime().UnixNano(), CtimeNS: ctime, Inode: ino}, true
}

// Verify reports whether a scan now would give t's result, by stat calls
// only; the Result is then that scan's.
func Verify(ctx context.Context, opts Options, t *Tree) (Result, bool) {
	root := opts.Paths.Root
	full := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	for _, d := range t.Dirs {
		if statOf(full(d.Path), d.Path) != d {
			return Result{}, false
		}
	}
	for _, f := range t.Rules {
		p := f.Path
		if !filepath.IsAbs(p) {
			p = full(p)
		}
		if statOf(p, f.Path) != f {
			return Result{}, false
		}
	}
	if len(t.Links) > 0 {
		m := opts.matcher()
		for _, l := range t.Links {
			info, err := os.Lstat(full(l.Entry.Path))
			if err != nil || info.Mode()&fs.ModeSymlink == 0 {
				return Result{}, false
			}
			if e, reason := entryFor(ctx, opts, m, l.Entry.Path, info); e != l.Entry || reason != l.Reason {
				return Result{}, false
			}
		}
	}
	// The files, in parallel: on a large tree the stat calls are the cost.
	dir := openRoot(root)
	defer dir.close()
	var bad atomic.Bool
	workers := min(runtime.GOMAXPROCS(0), 4)
	chunk := (len(t.Files) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := 0; w < workers && chunk > 0; w++ {
		part := t.Files[min(w*chunk, len(t.Files)):min((w+1)*chunk, len(t.Files))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, e := range part {
				if bad.Load() || (i%256 == 0 && ctx.Err() != nil) {
					bad.Store(true)
					return
				}
				if e.Link {
					continue // checked with the links
				}
				st, ok := dir.regular(e.Path)
				if !ok || st.Size != e.Size || st.MtimeNS != e.MtimeNS || st.CtimeNS != e.CtimeNS || st.Inode != e.Inode {
					bad.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	if bad.Load() {
		return Result{}, false
	}
	skipped := make(map[string]int, len(t.Skipped))
	for k, v := range t.Skipped {
		skipped[k] = v
	}
	return Result{Files: t.Files, MissingTracked: t.MissingTracked, Skipped: skipped}, true
}

// treeMagic starts a saved Tree; a file that does not start with it (another
// version, or damage) is not a Tree.
const treeMagic = "cairn-tree 1\n"

// WriteTree saves t at path atomically.
func WriteTree(path string, t *Tree) error {
	var b bytes.Buffer
	b.WriteString(treeMagic)
	w := treeWriter{&b}
	w.str(t.Key)
	w.int(int64(t.MissingTracked))
	w.int(int64(len(t.Skipped)))
	for k, v := range t.Skipped {
		w.str(k)
		w.int(int64(v))
	}
	for _, list := range [][]Stat{t.Dirs, t.Rules} {
		w.int(int64(len(list)))
		for _, s := range list {
			w.str(s.Path)
			w.int(s.Size)
			w.int(s.MtimeNS)
			w.int(s.CtimeNS)
			w.int(s.Inode)
		}
	}
	w.int(int64(len(t.Files)))
	for _, e := range t.Files {
		w.entry(e)
	}
	w.int(int64(len(t.Links)))
	for _, l := range t.Links {
		w.entry(l.Entry)
		w.str(l.Reason)
	}
	return atomicfile.Write(path, b.Bytes(), 0o600)
}

// ReadTree loads a Tree saved by WriteTree.
func ReadTree(path string) (*Tree, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte(treeMagic)) {
		return nil, errors.New("scan: not a saved tree")
	}
	r := treeReader{r: bufio.NewReader(bytes.NewReader(data[len(treeMagic):]))}
	t := &Tree{Key: r.str(), MissingTracked: int(r.int()), Skipped: map[string]int{}}
	for n := r.count(); n > 0; n-- {
		k := r.str()
		t.Skipped[k] = int(r.int())
	}
	for _, list := range []*[]Stat{&t.Dirs, &t.Rules} {
		n := r.count()
		*list = make([]Stat, 0, n)
		for ; n > 0; n-- {
			*list = append(*list, Stat{Path: r.str(), Size: r.int(), MtimeNS: r.int(), CtimeNS: r.int(), Inode: r.int()})
		}
	}
	n := r.count()
	t.Files = make([]Entry, 0, n)
	for ; n > 0; n-- {
		t.Files = append(t.Files, r.entry())
	}
	for n := r.count(); n > 0; n-- {
		t.Links = append(t.Links, Link{Entry: r.entry(), Reason: r.str()})
	}
	if r.err != nil {
		return nil, errors.New("scan: damaged saved tree")
	}
	return t, nil
}

type treeWriter struct{ b *bytes.Buffer }

func (w treeWriter) int(v int64) { w.b.Write(binary.AppendVarint(nil, v)) }
func (w treeWriter) str(s string) {
	w.int(int64(len(s)))
	w.b.WriteString(s)
}
func (w treeWriter) entry(e Entry) {
	w.str(e.Path)
	w.int(e.Size)
	w.int(e.MtimeNS)
	w.int(e.CtimeNS)
	w.int(e.Inode)
	link := int64(0)
	if e.Link {
		link = 1
	}
	w.int(link)
}

type treeReader struct {
	r   *bufio.Reader
	err error
}

func (r *treeReader) int() int64 {
	if r.err != nil {
		return 0
	}
	v, err := binary.ReadVarint(r.r)
	if err != nil {
		r.err = err
	}
	return v
}

// count reads a length, bounded so that damage cannot ask for huge memory.
func (r *treeReader) count() int {
	n := r.int()
	if n < 0 || n > 1<<24 {
		r.err = errors.New("bad count")
		return 0
	}
	return int(n)
}

func (r *treeReader) str() string {
	n := r.count()
	if r.err != nil || n == 0 {
		return ""
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r.r, buf); err != nil {
		r.err = err
		return ""
	}
	return string(buf)
}

func (r *treeReader) entry() Entry {
	return Entry{Path: r.str(), Size: r.int(), MtimeNS: r.int(), CtimeNS: r.int(), Inode: r.int(), Link: r.int() == 1}
}
