package index

import (
	"context"
	"fmt"
	"strconv"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// State is the index's view of the repository.
type State struct {
	Epoch       int64
	Head        string
	Branch      string
	Dirty       bool
	RepoStateID string
	Files       int
	Built       bool   // a reconcile has completed at least once
	IndexedAt   string // when the last reconcile committed (RFC 3339)
}

// metaKeys are the metadata a snapshot and a reconcile read, in one
// statement.
var metaKeys = []string{"epoch", "head", "branch", "dirty", "repo_state_id", "files", "tripwire", "full_pending", "extractor_version", "missing_tracked", "gc_at", "indexed_at", derivedKey}

func stateOf(m map[string]string) State {
	st := State{Head: m["head"], Branch: m["branch"], Dirty: m["dirty"] == "1", RepoStateID: m["repo_state_id"], IndexedAt: m["indexed_at"]}
	st.Epoch, _ = strconv.ParseInt(m["epoch"], 10, 64)
	st.Built = st.Epoch > 0
	st.Files, _ = strconv.Atoi(m["files"])
	return st
}

// State reads the current state from the metadata. Requests read it from
// their Snapshot instead; this is for the service's own decisions.
func (ix *Index) State(ctx context.Context) (State, error) {
	m, err := ix.db().MetaValues(ctx, metaKeys...)
	if err != nil {
		return State{}, err
	}
	return stateOf(m), nil
}

// MetaReads counts the reads of the metadata table since the index was
// opened (through its current store), for tests and diagnostics.
func (ix *Index) MetaReads() int64 { return ix.db().MetaReads() }

// ownerMeta is the metadata as the owner last read or wrote it; it reads it
// once after opening or a swap. Callers hold ix.mu.
func (ix *Index) ownerMeta(ctx context.Context) (map[string]string, error) {
	if ix.meta != nil {
		return ix.meta, nil
	}
	m, err := ix.db().MetaValues(ctx, metaKeys...)
	if err != nil {
		return nil, err
	}
	ix.meta = m
	return m, nil
}

// setOwnerMeta records metadata the owner committed.
func (ix *Index) setOwnerMeta(kv map[string]string) {
	if ix.meta == nil {
		return // read again in full when next needed
	}
	for k, v := range kv {
		ix.meta[k] = v
	}
}

// Snapshot is one request's view of the index: the store pinned for the
// request, a read transaction on it and the state read first (epoch, HEAD,
// repo state). Every read of a request goes through it, so an answer never
// mixes two epochs; a reconcile, repair or takeover that commits or swaps the
// store meanwhile changes only what later requests see. A Snapshot is used by
// one request at a time; Release it when the request ends.
type Snapshot struct {
	h     *handle
	tx    *store.ReadTx
	state State
	ix    *Index
}

// Snapshot takes a snapshot of the current store for one request. It reads
// the metadata once, inside the read transaction, which fixes what the
// transaction sees.
func (ix *Index) Snapshot(ctx context.Context) (*Snapshot, error) {
	h := ix.pin()
	tx, err := h.db.BeginRead(ctx)
	if err != nil {
		h.release()
		if ctx.Err() != nil {
			// The request ended while it waited for a pooled connection
			// (all held by other requests' snapshots): not a broken index.
			return nil, &errs.Error{Kind: errs.KindOf(ctx.Err()), Err: err, Msg: "the request ended while it waited to read the index"}
		}
		return nil, &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: "cannot read the index"}
	}
	m, err := tx.MetaValues(ctx, metaKeys...)
	if err != nil {
		tx.Close()
		h.release()
		return nil, err
	}
	return &Snapshot{h: h, tx: tx, state: stateOf(m), ix: ix}, nil
}

// Release ends the snapshot's transaction and unpins its store.
func (s *Snapshot) Release() {
	if s == nil || s.h == nil {
		return
	}
	s.tx.Close()
	s.h.release()
	s.h = nil
}

// Version identifies what a snapshot sees: the store (a repair or a
// takeover opens another, whose epochs start again) and its epoch. Views
// built from one snapshot serve every snapshot of the same version.
type Version struct {
	Store uint64
	Epoch int64
}

// Version is the snapshot's version.
func (s *Snapshot) Version() Version { return Version{Store: s.h.gen, Epoch: s.state.Epoch} }

// State is the index state the snapshot sees.
func (s *Snapshot) State() State { return s.state }

// Store is the snapshot's read transaction.
func (s *Snapshot) Store() *store.Reader { return &s.tx.Reader }

// Index is the index the snapshot was taken of (its paths, configuration
// and parsers; never its store, which a snapshot reads through Store).
func (s *Snapshot) Index() *Index { return s.ix }

// Facts returns the decoded facts of a blob (nil when it has none), cached
// per store: blobs are immutable.
func (s *Snapshot) Facts(ctx context.Context, blobID int64) (*lang.Facts, error) {
	return s.h.factsOf(ctx, s.Store(), blobID)
}

// Facts returns the decoded facts of a blob through the current store, for
// the owner's own work.
func (ix *Index) Facts(ctx context.Context, blobID int64) (*lang.Facts, error) {
	h := ix.pin()
	defer h.release()
	return h.factsOf(ctx, &h.db.Reader, blobID)
}

// decoded returns the facts of a blob whose encoded facts are at hand
// (parsed in this batch), decoding them only when the cache lacks them.
func (ix *Index) decoded(blobID int64, data []byte) (*lang.Facts, error) {
	h := ix.pin()
	defer h.release()
	return h.factsFrom(blobID, func() ([]byte, error) { return data, nil })
}

func (h *handle) factsOf(ctx context.Context, r *store.Reader, blobID int64) (*lang.Facts, error) {
	return h.factsFrom(blobID, func() ([]byte, error) { return r.BlobFacts(ctx, blobID) })
}

// decodedSize estimates the memory of facts decoded from n bytes: about
// twice their encoding (2.2 times over 300 files of kubernetes, 3.6 at the
// 90th percentile), plus the slices' headers.
func decodedSize(n int) int64 { return int64(2*n + 512) }

// factsFrom returns a blob's facts from the cache, else decodes what read
// returns (nil: none) and caches it.
func (h *handle) factsFrom(blobID int64, read func() ([]byte, error)) (*lang.Facts, error) {
	key := strconv.FormatInt(blobID, 10)
	if f, ok := h.facts.Get(key); ok {
		return f, nil
	}
	data, err := read()
	if err != nil || data == nil {
		return nil, err
	}
	f, err := lang.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("index: facts of blob %d: %w", blobID, err)
	}
	h.facts.Put(key, f, decodedSize(len(data)))
	return f, nil
}
