// Package history derives change history from git: how often a file or a
// symbol changed, by how many authors, and when last; and the hotspots of a
// repository (what changes most, weighted by size). Git is the only source
// (it runs git through gitx); results are cached on disk under a key that
// holds HEAD, so a new commit is never answered from an old cache and
// nothing needs invalidating. File churn is kept up to date incrementally:
// after new commits only they are read from git. It never writes to the
// repository.
package history

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"

	"github.com/cairnhq/cairn/internal/atomicfile"
	"github.com/cairnhq/cairn/internal/gitx"
)

// Summary is the change history of a file or symbol in a window.
type Summary struct {
	Commits    int    `json:"commits"`
	Authors    int    `json:"authors"`
	LastCommit string `json:"last_commit,omitempty"`
	LastDate   string `json:"last_date,omitempty"`
	LastAuthor string `json:"last_author,omitempty"`
	FirstDate  string `json:"first_date,omitempty"`
	// Since is the window's start as given ("" for all history).
	Since string `json:"since,omitempty"`
}

// Cache keeps derived history on disk, one small JSON file per key. Keys
// include HEAD; entries of old HEADs are swept when the cache grows.
type Cache struct {
	Dir string // "" disables the cache
}

// maxEntries bounds the cache directory; past it the oldest files go.
const maxEntries = 4096

func (c Cache) path(key []any) string {
	b, _ := json.Marshal(key)
	sum := sha256.Sum256(b)
	return filepath.Join(c.Dir, hex.EncodeToString(sum[:12])+".json")
}

// Get fills v from the entry for key; false when there is none.
func (c Cache) Get(key []any, v any) bool {
	if c.Dir == "" {
		return false
	}
	b, err := os.ReadFile(c.path(key))
	return err == nil && json.Unmarshal(b, v) == nil
}

// Put stores v under key (best effort: a cache that cannot be written is
// only slower).
func (c Cache) Put(key []any, v any) {
	if c.Dir == "" {
		return
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	p := c.path(key)
	atomicfile.Write(p, b, 0o644)
	c.sweep()
}

// sweep removes the oldest entries when there are too many.
func (c Cache) sweep() {
	ents, err := os.ReadDir(c.Dir)
	if err != nil || len(ents) <= maxEntries {
		return
	}
	type aged struct {
		name string
		mod  int64
	}
	var all []aged
	for _, e := range ents {
		if info, err := e.Info(); err == nil {
			all = append(all, aged{e.Name(), info.ModTime().UnixNano()})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].mod < all[j].mod })
	for _, a := range all[:len(all)-maxEntries/2] {
		os.Remove(filepath.Join(c.Dir, a.name))
	}
}

// Summarize folds commits (newest first) into a Summary.
func Summarize(commits []gitx.Commit, since string) Summary {
	s := Summary{Since: since}
	authors := map[string]bool{}
	for i, c := range commits {
		if i == 0 {
			s.LastCommit, s.LastDate, s.LastAuthor = c.OID, c.Author.Time, c.Author.Name
		}
		s.FirstDate = c.Author.Time
		authors[c.Author.Email] = true
	}
	s.Commits, s.Authors = len(commits), len(authors)
	return s
}

// Source answers history questions for one worktree at one HEAD.
type Source struct {
	Root  string
	Head  string // the commit the answers are about; "" before the first commit
	Cache Cache
}

// Symbol is the history of the lines Start..End of path at HEAD (git log
// -L): every commit that changed them, following the lines back through
// edits and renames.
func (s Source) Symbol(ctx context.Context, path string, start, end int, since string) (Summary, error) {
	return s.summary(ctx, []any{"symbol", s.Head, path, start, end, since},
		gitx.LogOptions{Rev: s.Head, Since: since, Lines: &gitx.LineRange{Path: path, Start: start, End: end}})
}

// File is the history of a file at HEAD, following renames.
func (s Source) File(ctx context.Context, path, since string) (Summary, error) {
	return s.summary(ctx, []any{"file", s.Head, path, since},
		gitx.LogOptions{Rev: s.Head, Since: since, Paths: []string{path}, Follow: true})
}

// summary is the Summary of the commits git log lists with o (o.Since is
// the window), cached under key; empty before the first commit.
func (s Source) summary(ctx context.Context, key []any, o gitx.LogOptions) (Summary, error) {
	if s.Head == "" {
		return Summary{Since: o.Since}, nil
	}
	var sum Summary
	if s.Cache.Get(key, &sum) {
		return sum, nil
	}
	commits, err := gitx.Log(ctx, s.Root, o)
	if err != nil {
		return Summary{}, err
	}
	sum = Summarize(commits, o.Since)
	s.Cache.Put(key, sum)
	return sum, nil
}
