// Package index turns a repository into an index and keeps it fresh: scan ->
// read and hash -> parse (only content never seen before) -> store blobs ->
// one worktree transaction per batch with a monotonic epoch. It also computes
// symbol identities and resolves references across files. Queries read through
// it; it never formats responses.
package index

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/store"
)

// Index is one worktree's index, open for reading and (when this process owns
// the writer lock) for reconciling.
type Index struct {
	paths config.Paths
	cfg   config.Config
	db    *store.DB
	lock  *Lock
	owner int // PID of the owning process when this one only reads

	mu sync.Mutex // serialises Reconcile and guards the fields below
	// headTree caches HEAD's tree listing for the dirty check, by commit.
	headTree       map[string]string
	headTreeCommit string

	cache *factsCache
	// files caches the file table between reconciles (nil = read it).
	files []store.FileRow
	// matcher caches ignore decisions while the rules are unchanged.
	matcher *scan.Matcher
	// Warnings from opening (a rebuilt database) for the next responses.
	Warnings []string
}

// Open opens the index of a located repository, creating it when needed. It
// takes the writer lock when it can; otherwise the index is read-only.
func Open(ctx context.Context, paths config.Paths, cfg config.Config) (*Index, error) {
	ix := &Index{paths: paths, cfg: cfg, cache: newFactsCache(256)}
	l, owner, err := TryLock(filepath.Join(paths.StateDir, "owner.lock"))
	switch {
	case err == nil:
		ix.lock = l
	case errors.Is(err, ErrLocked):
		ix.owner = owner
	default:
		return nil, &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot lock the index"}
	}
	db, err := store.Open(store.Options{IndexPath: paths.IndexPath, BlobPath: paths.BlobPath, ReadOnly: ix.lock == nil})
	if err != nil {
		ix.lock.Unlock()
		return nil, &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot open the index",
			Fixes: []string{"cairn index --full"}}
	}
	ix.db = db
	ix.Warnings = append(ix.Warnings, db.Warnings...)
	return ix, nil
}

// Close releases the database and the lock.
func (ix *Index) Close() error {
	err := ix.db.Close()
	ix.lock.Unlock()
	return err
}

// Rebuild throws the worktree index away and opens an empty one (used when the
// database turns out to be corrupt mid-command).
func (ix *Index) Rebuild(ctx context.Context) error {
	if ix.lock == nil {
		return &errs.Error{Kind: errs.IndexUnavailable, Msg: fmt.Sprintf("the index is damaged and owned by process %d", ix.owner)}
	}
	ix.db.Close()
	for _, p := range []string{ix.paths.IndexPath, ix.paths.BlobPath} {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			removeFile(p + suffix)
		}
	}
	db, err := store.Open(store.Options{IndexPath: ix.paths.IndexPath, BlobPath: ix.paths.BlobPath})
	if err != nil {
		return &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot rebuild the index"}
	}
	ix.db = db
	ix.cache = newFactsCache(256)
	ix.files = nil
	ix.Warnings = append(ix.Warnings, "the index was damaged and has been rebuilt")
	return nil
}

// DB is the underlying store.
func (ix *Index) DB() *store.DB { return ix.db }

// Paths is where the repository and its state are.
func (ix *Index) Paths() config.Paths { return ix.paths }

// Config is the configuration the index was opened with.
func (ix *Index) Config() config.Config { return ix.cfg }

// Writable reports whether this process owns the writer lock.
func (ix *Index) Writable() bool { return ix.lock != nil }

// Owner is the PID of the process that owns the index when this one does not.
func (ix *Index) Owner() int { return ix.owner }

// State is the index's view of the repository.
type State struct {
	Epoch       int64
	Head        string
	Branch      string
	Dirty       bool
	RepoStateID string
	Files       int
	Built       bool // a reconcile has completed at least once
}

// State reads the current state from the metadata.
func (ix *Index) State(ctx context.Context) (State, error) {
	var st State
	get := func(k string) string {
		v, _ := ix.db.Meta(k)
		return v
	}
	epoch, err := ix.db.Meta("epoch")
	if err != nil {
		return st, err
	}
	st.Epoch, _ = strconv.ParseInt(epoch, 10, 64)
	st.Built = st.Epoch > 0
	st.Head = get("head")
	st.Branch = get("branch")
	st.Dirty = get("dirty") == "1"
	st.RepoStateID = get("repo_state_id")
	st.Files, _ = strconv.Atoi(get("files"))
	return st, nil
}

// Facts returns the decoded facts of a blob (nil when it has none), cached.
func (ix *Index) Facts(ctx context.Context, blobID int64) (*lang.Facts, error) {
	if f, ok := ix.cache.get(blobID); ok {
		return f, nil
	}
	data, err := ix.db.BlobFacts(ctx, blobID)
	if err != nil || data == nil {
		return nil, err
	}
	f, err := lang.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("index: facts of blob %d: %w", blobID, err)
	}
	ix.cache.put(blobID, f)
	return f, nil
}

// factsCache is a small LRU of decoded facts by blob id (blobs are immutable).
type factsCache struct {
	mu    sync.Mutex // guards the fields below
	max   int
	ll    *list.List
	items map[int64]*list.Element
}

type cacheEntry struct {
	id    int64
	facts *lang.Facts
}

func newFactsCache(max int) *factsCache {
	return &factsCache{max: max, ll: list.New(), items: map[int64]*list.Element{}}
}

func (c *factsCache) get(id int64) (*lang.Facts, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[id]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*cacheEntry).facts, true
	}
	return nil, false
}

func (c *factsCache) put(id int64, f *lang.Facts) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[id]; ok {
		c.ll.MoveToFront(e)
		return
	}
	c.items[id] = c.ll.PushFront(&cacheEntry{id, f})
	for c.ll.Len() > c.max {
		last := c.ll.Back()
		c.ll.Remove(last)
		delete(c.items, last.Value.(*cacheEntry).id)
	}
}

// IntegrityCheck runs SQLite's full integrity check over the worktree index and
// the blob store. It reads every page, so it is slow on large indexes: doctor
// calls it, queries never do.
func (ix *Index) IntegrityCheck(ctx context.Context) error {
	if err := ix.db.IntegrityCheck(ctx); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}
