package index

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// A Deriver keeps tables of its own in the worktree index, derived from the
// files of each reconcile batch inside the batch's transaction: what it
// stores shares the batch's epoch with the files, symbols and links, and is
// rebuilt with them. Domain packages above the index (cards) register one
// from init; the index knows nothing of what they derive.
type Deriver interface {
	// Name identifies the deriver in the index metadata.
	Name() string
	// Version changes when what the deriver stores changes: a stored
	// version that differs makes the next reconcile derive everything again.
	Version() int
	// Derive brings the deriver's tables up to date with one batch.
	Derive(ctx context.Context, d *Derivation) error
}

var (
	deriveMu sync.Mutex // guards derivers
	derivers []Deriver
)

// RegisterDeriver adds a deriver to every index this process opens.
func RegisterDeriver(d Deriver) {
	deriveMu.Lock()
	defer deriveMu.Unlock()
	derivers = append(derivers, d)
	sort.Slice(derivers, func(i, j int) bool { return derivers[i].Name() < derivers[j].Name() })
}

func registeredDerivers() []Deriver {
	deriveMu.Lock()
	defer deriveMu.Unlock()
	return append([]Deriver(nil), derivers...)
}

// derivedKey is the metadata key that records which derivers (and which of
// their versions) the worktree index is up to date with.
const derivedKey = "derivers"

// derivedValue is what derivedKey holds when every registered deriver has
// run: "name=version" pairs, sorted.
func derivedValue(ds []Deriver) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%s=%d", d.Name(), d.Version())
	}
	return strings.Join(parts, ",")
}

// derivePending reports whether some registered deriver has not derived the
// current index (a new deriver, or a new version of one).
func derivePending(meta map[string]string) bool {
	ds := registeredDerivers()
	return len(ds) > 0 && meta[derivedKey] != derivedValue(ds)
}

// Derivation is one batch as a Deriver sees it.
type Derivation struct {
	// Tx is the batch's transaction.
	Tx *store.Tx
	// Full: everything must be derived again (the deriver's tables may hold
	// anything, or nothing); Changed then lists every file.
	Full bool
	// Changed are the files whose content is new or changed, with their ids
	// in this batch, sorted by path.
	Changed []store.FileRow
	// Deleted are the paths removed from the index.
	Deleted []string

	b *batch
}

// Facts are a file's facts (nil for a file without any).
func (d *Derivation) Facts(ctx context.Context, f store.FileRow) (*lang.Facts, error) {
	return d.b.factsOf(ctx, &fileInfo{id: f.ID, path: f.Path, lang: f.Lang, blobID: f.BlobID, status: f.Status})
}

// Text is a file's searchable content (nil for a binary or oversized file),
// as the lexical tier holds it.
func (d *Derivation) Text(ctx context.Context, f store.FileRow) ([]byte, error) {
	return d.b.ix.db().BlobText(ctx, f.BlobID)
}

// BlobsContaining narrows a search for a literal of at least three
// characters to the blobs whose text may hold it (see store).
func (d *Derivation) BlobsContaining(ctx context.Context, lit string) (map[int64]bool, error) {
	return d.b.ix.db().BlobsContaining(ctx, lit)
}

// derive runs every registered deriver on the batch and records that the
// index is derived.
func (b *batch) derive(ctx context.Context) error {
	ds := registeredDerivers()
	if len(ds) == 0 {
		return nil
	}
	meta, err := b.ix.ownerMeta(ctx)
	if err != nil {
		return err
	}
	done := map[string]string{}
	for _, part := range strings.Split(meta[derivedKey], ",") {
		if name, v, ok := strings.Cut(part, "="); ok {
			done[name] = v
		}
	}
	var changed, all []store.FileRow
	for _, p := range b.paths {
		r := *b.rows[p]
		all = append(all, r)
		if b.changed[p] {
			changed = append(changed, r)
		}
	}
	var deleted []string
	for _, r := range b.deleted {
		if _, still := b.rows[r.Path]; !still {
			deleted = append(deleted, r.Path)
		}
	}
	sort.Strings(deleted)
	for _, dv := range ds {
		d := &Derivation{Tx: b.tx, Changed: changed, Deleted: deleted, b: b}
		if b.in.full || done[dv.Name()] != fmt.Sprint(dv.Version()) {
			d.Full, d.Changed = true, all
		}
		if err := dv.Derive(ctx, d); err != nil {
			return fmt.Errorf("index: derive %s: %w", dv.Name(), err)
		}
	}
	value := derivedValue(ds)
	if err := b.tx.SetMeta(derivedKey, value); err != nil {
		return err
	}
	b.derived = value
	return nil
}
