package index

import (
	"context"
	"encoding/binary"
	"errors"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// Tier says how a reference was resolved (DESIGN §5), best first.
type Tier = lang.Tier

// Tiers. Precise comes from the semantic layer; the syntactic layer sets the rest.
const (
	TierPrecise  = lang.TierPrecise
	TierProven   = lang.TierProven
	TierStrong   = lang.TierStrong
	TierAnchored = lang.TierAnchored
	TierUnknown  = lang.TierUnknown
)

// ParseTier reads a tier name.
func ParseTier(s string) (Tier, bool) { return lang.ParseTier(s) }

// Link is one resolved reference of a file (lang.Link).
type Link = lang.Link

// runsBit marks Link.Runs in the byte of a link's tier.
const runsBit = 0x80

// EncodeLinks packs a file's links (sorted by Ref).
func EncodeLinks(links []Link) []byte {
	buf := binary.AppendUvarint(nil, uint64(len(links)))
	prev := 0
	for _, l := range links {
		buf = binary.AppendUvarint(buf, uint64(l.Ref-prev))
		prev = l.Ref
		tier := byte(l.Tier)
		if l.Runs {
			tier |= runsBit
		}
		buf = append(buf, tier)
		buf = binary.AppendUvarint(buf, uint64(l.Target))
	}
	return buf
}

// DecodeLinks unpacks EncodeLinks output.
func DecodeLinks(b []byte) ([]Link, error) {
	if len(b) == 0 {
		return nil, nil
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errors.New("index: corrupt links")
	}
	b = b[k:]
	out := make([]Link, 0, n)
	prev := 0
	for i := uint64(0); i < n; i++ {
		d, k := binary.Uvarint(b)
		if k <= 0 || len(b) < k+1 {
			return nil, errors.New("index: corrupt links")
		}
		prev += int(d)
		tier, runs := Tier(b[k]&^runsBit), b[k]&runsBit != 0
		b = b[k+1:]
		t, k2 := binary.Uvarint(b)
		if k2 <= 0 {
			return nil, errors.New("index: corrupt links")
		}
		b = b[k2:]
		out = append(out, Link{Ref: prev, Tier: tier, Target: int64(t), Runs: runs})
	}
	return out, nil
}

// linker drives the cross-file linking of one reconcile batch: each file's
// language links it through its Linker hook (lang.Linker), one BatchLinker
// per Linker and batch, and the linker answers their questions as the
// lang.Resolver (resolver.go). What the languages share is the batch's
// state: its world, its symbols and the facts of other files.
//
// The linker holds no context: the resolver's reads take the caller's, and
// pass it to the two functions that read what the batch did not compute
// (stored symbols, other files' facts).
type linker struct {
	w *world
	// symbols computed in an incremental batch (not yet visible to other
	// connections), by file id; a rebuild reads them back from its
	// transaction (stored) instead of holding every file's
	batch   map[int64][]store.SymbolRow
	deleted map[int64]bool
	// stored reads the symbols of files outside the batch from the store
	// being written or a snapshot's read transaction.
	stored func(ctx context.Context, fileIDs []int64) ([]store.SymbolRow, error)
	// facts loads another file's facts
	facts func(context.Context, *fileInfo) (*lang.Facts, error)
	// keep is what the languages' linkers may keep loaded (KeepSymbols).
	keep int

	// caches
	byID    map[int64]string      // file id -> path
	loaded  map[int64]*lang.Facts // facts of other files, by file id (a bounded cache: see factsOf)
	sorted  []*fileInfo           // the world's files by path, for Files
	modules []lang.Module         // the world's modules, for Modules

	batches map[*lang.Linker]lang.BatchLinker // the languages' linkers started in this batch
	byLang  map[string]lang.BatchLinker       // by language name (nil for a language without one)
}

// newLinker starts a batch over w; stored and facts read what the batch
// did not compute (see linker).
func newLinker(w *world, stored func(context.Context, []int64) ([]store.SymbolRow, error), facts func(context.Context, *fileInfo) (*lang.Facts, error)) *linker {
	return &linker{w: w, stored: stored, facts: facts, batch: map[int64][]store.SymbolRow{}, deleted: map[int64]bool{}}
}

// link resolves the references of one file. own holds the file's symbols in
// definition order.
func (l *linker) link(ctx context.Context, f *fileInfo, facts *lang.Facts, own []store.SymbolRow) []Link {
	if facts == nil || len(facts.Refs) == 0 {
		return nil
	}
	b := l.batchFor(f.lang)
	if b == nil {
		return nil
	}
	ids := make([]int64, len(own))
	for i, s := range own {
		ids[i] = s.ID
	}
	return b.Link(ctx, fileOf(f), facts, ids)
}

// batchFor is the BatchLinker of a language in this batch, started on first
// use; nil for a language without a Linker.
func (l *linker) batchFor(language string) lang.BatchLinker {
	if b, ok := l.byLang[language]; ok {
		return b
	}
	var b lang.BatchLinker
	if lg := lang.Of(language); lg.Linker != nil {
		if b = l.batches[lg.Linker]; b == nil {
			b = lg.Linker.NewBatch(l)
			if l.batches == nil {
				l.batches = map[*lang.Linker]lang.BatchLinker{}
			}
			l.batches[lg.Linker] = b
		}
	}
	if l.byLang == nil {
		l.byLang = map[string]lang.BatchLinker{}
	}
	l.byLang[language] = b
	return b
}
