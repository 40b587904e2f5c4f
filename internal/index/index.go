// Package index turns a repository into an index and keeps it fresh: scan ->
// read and hash -> parse (only content never seen before) -> store blobs ->
// one worktree transaction per batch with a monotonic epoch. It also computes
// symbol identities and resolves references across files. Queries read through
// it; it never formats responses.
package index

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairnhq/cairn/internal/cache"
	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lockfile"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/store"
)

// Index is one worktree's index, open for reading and (when this process owns
// the writer lock) for reconciling.
type Index struct {
	paths config.Paths
	cfg   config.Config
	// serving: a long-running server's index (OpenOptions.Serving).
	serving bool

	roleMu sync.Mutex // guards lock and owner: a reader may become the owner
	lock   *lockfile.Lock
	owner  int // PID of the owning process when this one only reads

	// cur is the open store. Repair and Promote swap it; a handle in use by a
	// request stays open until the request releases it (Acquire).
	cur atomic.Pointer[handle]

	// pre holds what Prestore parses until a reconcile takes it.
	pre prestores

	// reconciles counts the reconciles finished, of every file or of some
	// paths (Work).
	reconciles atomic.Int64

	mu sync.Mutex // serialises Reconcile and Repair, and guards the fields below
	// headTree caches HEAD's tree listing for the dirty check, by commit.
	headTree       map[string]string
	headTreeCommit string

	// files caches the file table between reconciles (nil = read it).
	files []store.FileRow
	// meta is the owner's copy of the metadata it last read or wrote (nil:
	// read it); nobody else writes while this process holds the lock.
	meta map[string]string
	// matcher caches ignore decisions while the rules are unchanged.
	matcher *scan.Matcher
	// tree is what the last scan saw (nil: read it from the state
	// directory when needed); see tree.go.
	tree *scan.Tree
	// beforeClaim, when set (tests), runs between parsing a batch and
	// claiming its blobs: where a collection in another worktree may run.
	beforeClaim func()
	// Warnings from opening (a rebuilt database) for the next responses.
	Warnings []string
	// SeededFrom is the worktree whose index this new one started from
	// ("" when it started empty): see store.Seed.
	SeededFrom string
	// changes is what this process's commits changed (changelog.go).
	changes changeLog
}

// handle is one open store with the requests that use it.
type handle struct {
	db      *store.DB
	gen     uint64                  // tells this handle from the others the process opened
	facts   *cache.LRU[*lang.Facts] // decoded facts of its blobs, by blob id
	refs    atomic.Int64
	retired atomic.Bool
	once    sync.Once
}

// handles counts the stores the process opened.
var handles atomic.Uint64

// newHandle wraps a store that keeps about factsKept bytes of decoded facts
// in memory (memoryBudget.factsKept).
func newHandle(db *store.DB, factsKept int64) *handle {
	return &handle{db: db, gen: handles.Add(1), facts: cache.NewLRU[*lang.Facts](factsKept, 1<<20)}
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
	return OpenWith(ctx, paths, cfg, OpenOptions{})
}

// OpenOptions are what the process opening an index tells it about itself.
type OpenOptions struct {
	// Serving is a long-running server: its memory stays within bounds
	// it fills once (budget.go), rather than one-shot sizes.
	Serving bool
}

// probePatience is how long opening waits for a lock that another
// worktree's process holds for a moment to copy this index (a probe),
// rather than opening as a reader.
const probePatience = 5 * time.Second

// OpenWith is Open for a process that says what it is.
func OpenWith(ctx context.Context, paths config.Paths, cfg config.Config, o OpenOptions) (*Index, error) {
	ix := &Index{paths: paths, cfg: cfg, serving: o.Serving}
	l, owner, err := lockfile.TryLockPatient(filepath.Join(paths.StateDir, "owner.lock"), probePatience)
	switch {
	case err == nil:
		ix.lock = l
	case errors.Is(err, lockfile.ErrLocked):
		ix.owner = owner
	default:
		return nil, &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot lock the index"}
	}
	if ix.lock != nil && paths.BlobPath != filepath.Join(paths.StateDir, "blobs.db") {
		// A new worktree of a repository with indexed worktrees starts from one.
		ix.SeededFrom, _ = store.Seed(ctx, store.Options{IndexPath: paths.IndexPath, BlobPath: paths.BlobPath})
	}
	db, err := ix.openStore(ix.lock == nil)
	if err != nil {
		ix.lock.Unlock()
		return nil, err
	}
	ix.cur.Store(newHandle(db, ix.budget().factsKept))
	ix.Warnings = append(ix.Warnings, db.Warnings...)
	return ix, nil
}

func (ix *Index) openStore(readOnly bool) (*store.DB, error) {
	b := ix.budget()
	db, err := store.Open(store.Options{IndexPath: ix.paths.IndexPath, BlobPath: ix.paths.BlobPath, ReadOnly: readOnly,
		CacheKiB: b.cacheKiB, MmapBytes: b.mmapBytes, SortOnDisk: b.sortOnDisk, NoMmap: b.serving})
	if errs.IsNoSpace(err) {
		return nil, &errs.Error{Kind: errs.NoSpace, Err: err, Msg: "cannot create the index: the disk is full or a file-size limit was reached",
			Fixes: []string{"free disk space (or raise the file-size limit), then run cairn index"}}
	}
	if err != nil {
		return nil, &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot open the index",
			Fixes: []string{"cairn index --full"}}
	}
	return db, nil
}

// swap makes db the store new requests get; the old one closes when the
// requests using it are done.
func (ix *Index) swap(db *store.DB) {
	old := ix.cur.Swap(newHandle(db, ix.budget().factsKept))
	ix.files, ix.meta = nil, nil
	ix.dropTree()
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

// Acquire pins the current store for one job (a semantic import, a
// repair's check): a repair or takeover that swaps it meanwhile closes the
// old one only after release. Requests take a Snapshot instead.
func (ix *Index) Acquire() (db *store.DB, release func()) {
	h := ix.pin()
	return h.db, h.release
}

// pin takes a reference on the current handle.
func (ix *Index) pin() *handle {
	for {
		h := ix.cur.Load()
		h.refs.Add(1)
		if ix.cur.Load() == h {
			return h
		}
		h.release()
	}
}

// Reads counts the read transactions (snapshots) begun on the current store.
func (ix *Index) Reads() int64 { return ix.db().Reads() }

// Work counts what the index did: the read transactions begun on the
// current store and the reconciles finished (the watcher's and the safety
// scan's too, which begin no read), so that a server can tell when a burst
// of either ended.
func (ix *Index) Work() int64 { return ix.Reads() + ix.reconciles.Load() }

// Trim gives back what the last burst of work left: the page caches of the
// idle connections, and the Go heap's free memory. It does nothing while a
// reconcile or repair runs (they need both).
func (ix *Index) Trim(ctx context.Context) bool {
	if !ix.mu.TryLock() {
		return false
	}
	defer ix.mu.Unlock()
	h := ix.pin()
	h.db.Shrink(ctx)
	h.release()
	debug.FreeOSMemory()
	return true
}

// db is the current store, for the owner's own work under mu (reconcile,
// repair): never handed out, since a repair or takeover replaces it.
func (ix *Index) db() *store.DB { return ix.cur.Load().db }

// Diagnose says which database an error from a request's reads damaged
// (see store.DB.Diagnose).
func (ix *Index) Diagnose(ctx context.Context, err error) *store.Damage {
	return ix.db().Diagnose(ctx, err)
}

// Check reports whether the store can be trusted as it is (nil) or what is
// wrong with it (see store.DB.Check). It costs a few stat calls.
func (ix *Index) Check() *store.Damage { return ix.db().Check() }

// Promote makes this process the owner after the previous owner ended: it
// takes the writer lock and reopens the store for writing. It reports false
// when another process holds the lock.
func (ix *Index) Promote(ctx context.Context) (bool, error) {
	ix.roleMu.Lock()
	defer ix.roleMu.Unlock()
	if ix.lock != nil {
		return true, nil
	}
	l, owner, err := lockfile.TryLock(filepath.Join(ix.paths.StateDir, "owner.lock"))
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
		return "the " + d.Label() + " was rebuilt by the owning process", nil
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
		warning = "the " + d.Label() + " was rebuilt by another process; this worktree is indexed again"
	case d.DB == "blobs" && d.Suspect:
		if err := ix.db().Verify(ctx, "blobs"); err == nil {
			if err := ix.db().Accept("blobs"); err != nil {
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
			return "", &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot move the damaged " + d.Label() + " aside"}
		}
		warning = fmt.Sprintf("the %s was damaged (%s); it was moved to %s and is being rebuilt", d.Label(), d.Reason, filepath.Base(path)+".damaged")
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

// IntegrityCheck runs SQLite's full integrity check over the worktree index and
// the blob store. It reads every page, so it is slow on large indexes: doctor
// calls it, queries never do.
func (ix *Index) IntegrityCheck(ctx context.Context) error {
	if err := ix.db().IntegrityCheck(ctx); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}
