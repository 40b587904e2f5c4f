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
	"sync/atomic"

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

	roleMu sync.Mutex // guards lock and owner: a reader may become the owner
	lock   *Lock
	owner  int // PID of the owning process when this one only reads

	// cur is the open store. Repair and Promote swap it; a handle in use by a
	// request stays open until the request releases it (Acquire).
	cur atomic.Pointer[handle]

	mu sync.Mutex // serialises Reconcile and Repair, and guards the fields below
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

// handle is one open store with the requests that use it.
type handle struct {
	db      *store.DB
	refs    atomic.Int64
	retired atomic.Bool
	once    sync.Once
}

func (h *handle) release() {
	if h.refs.Add(-1) == 0 && h.retired.Load() {
		h.close()
	}
}

func (h *handle) retire() {
	h.retired.Store(true)
	if h.refs.Load() == 0 {
		h.close()
	}
}

func (h *handle) close() { h.once.Do(func() { h.db.Close() }) }

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
	db, err := ix.openStore(ix.lock == nil)
	if err != nil {
		ix.lock.Unlock()
		return nil, err
	}
	ix.cur.Store(&handle{db: db})
	ix.Warnings = append(ix.Warnings, db.Warnings...)
	return ix, nil
}

func (ix *Index) openStore(readOnly bool) (*store.DB, error) {
	db, err := store.Open(store.Options{IndexPath: ix.paths.IndexPath, BlobPath: ix.paths.BlobPath, ReadOnly: readOnly})
	if err != nil {
		return nil, &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot open the index",
			Fixes: []string{"cairn index --full"}}
	}
	return db, nil
}

// swap makes db the store new requests get; the old one closes when the
// requests using it are done.
func (ix *Index) swap(db *store.DB) {
	old := ix.cur.Swap(&handle{db: db})
	ix.cache = newFactsCache(256)
	ix.files = nil
	if old != nil {
		old.retire()
	}
}

// Close releases the database and the lock.
func (ix *Index) Close() error {
	h := ix.cur.Load()
	h.retire()
	ix.roleMu.Lock()
	ix.lock.Unlock()
	ix.roleMu.Unlock()
	return nil
}

// Acquire pins the current store for one request or job: a repair or
// takeover that swaps it meanwhile closes the old one only after release.
func (ix *Index) Acquire() (db *store.DB, release func()) {
	for {
		h := ix.cur.Load()
		h.refs.Add(1)
		if ix.cur.Load() == h {
			return h.db, h.release
		}
		h.release()
	}
}

// DB is the current store.
func (ix *Index) DB() *store.DB { return ix.cur.Load().db }

// Check reports whether the store can be trusted as it is (nil) or what is
// wrong with it (see store.DB.Check). It costs a few stat calls.
func (ix *Index) Check() *store.Damage { return ix.DB().Check() }

// Promote makes this process the owner after the previous owner ended: it
// takes the writer lock and reopens the store for writing. It reports false
// when another process holds the lock.
func (ix *Index) Promote(ctx context.Context) (bool, error) {
	ix.roleMu.Lock()
	defer ix.roleMu.Unlock()
	if ix.lock != nil {
		return true, nil
	}
	l, owner, err := TryLock(filepath.Join(ix.paths.StateDir, "owner.lock"))
	if err != nil {
		if owner != 0 {
			ix.owner = owner
		}
		return false, nil
	}
	db, err := ix.openStore(false)
	if err != nil {
		l.Unlock()
		return false, err
	}
	ix.mu.Lock()
	ix.swap(db)
	ix.mu.Unlock()
	ix.lock, ix.owner = l, 0
	return true, nil
}

// Repair makes a damaged store trustworthy again (the owner only). A file
// replaced by another process is reopened. The worktree index is rebuilt
// when it is damaged or was changed outside Cairn (it is derived data, and
// not every value in it carries a checksum). The shared blob store is
// verified when it was only changed outside Cairn and kept when the
// verification passes; otherwise it is moved aside and rebuilt, and every
// worktree reindexes from it. It returns a line for the response's warnings;
// the caller reconciles afterwards.
func (ix *Index) Repair(ctx context.Context, d *store.Damage) (string, error) {
	if d.Replaced && !ix.Writable() {
		// A reader only follows the owner's new file.
		db, err := ix.openStore(true)
		if err != nil {
			return "", err
		}
		ix.mu.Lock()
		ix.swap(db)
		ix.mu.Unlock()
		return "the " + label(d.DB) + " was rebuilt by the owning process", nil
	}
	if !ix.Writable() {
		return "", &errs.Error{Kind: errs.IndexUnavailable, Err: d,
			Msg:   fmt.Sprintf("the index is damaged (%s) and owned by process %d, which repairs it", d.Reason, ix.Owner()),
			Fixes: []string{"retry in a moment"}}
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var warning string
	switch {
	case d.Replaced:
		warning = "the " + label(d.DB) + " was rebuilt by another process; this worktree is indexed again"
	case d.DB == "blobs" && d.Suspect:
		if err := ix.DB().Verify(ctx, "blobs"); err == nil {
			if err := ix.DB().Accept("blobs"); err != nil {
				return "", err
			}
			return "the shared blob store was changed outside Cairn; it has been verified and is intact", nil
		} else if ctx.Err() != nil {
			return "", ctx.Err()
		} else {
			d = &store.Damage{DB: "blobs", Reason: errs.As(err).Message()}
		}
		fallthrough
	default:
		path := ix.paths.IndexPath
		if d.DB == "blobs" {
			path = ix.paths.BlobPath
		}
		if err := store.Quarantine(path); err != nil {
			return "", &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot move the damaged " + label(d.DB) + " aside"}
		}
		warning = fmt.Sprintf("the %s was damaged (%s); it was moved to %s and is being rebuilt", label(d.DB), d.Reason, filepath.Base(path)+".damaged")
		if d.DB == "main" {
			warning += "; imported semantic indexes must be imported again (cairn index --semantic)"
		}
	}
	db, err := ix.openStore(false)
	if err != nil {
		return "", err
	}
	ix.swap(db)
	return warning, nil
}

func label(db string) string {
	if db == "blobs" {
		return "shared blob store"
	}
	return "worktree index"
}

// Paths is where the repository and its state are.
func (ix *Index) Paths() config.Paths { return ix.paths }

// Config is the configuration the index was opened with.
func (ix *Index) Config() config.Config { return ix.cfg }

// Writable reports whether this process owns the writer lock.
func (ix *Index) Writable() bool {
	ix.roleMu.Lock()
	defer ix.roleMu.Unlock()
	return ix.lock != nil
}

// Owner is the PID of the process that owns the index when this one does not.
func (ix *Index) Owner() int {
	ix.roleMu.Lock()
	defer ix.roleMu.Unlock()
	return ix.owner
}

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
	db := ix.DB()
	get := func(k string) string {
		v, _ := db.Meta(k)
		return v
	}
	epoch, err := db.Meta("epoch")
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
	data, err := ix.DB().BlobFacts(ctx, blobID)
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
	if err := ix.DB().IntegrityCheck(ctx); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}
