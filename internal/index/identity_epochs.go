package index

import (
	"context"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// fingerprint identifies a definition across renames and moves: its kind and
// its text without whitespace and without its own name.
type fingerprint struct {
	kind lang.DefKind
	body uint64
}

// recordIdentity gives every symbol id that vanished in this batch an alias
// (renamed or moved: a unique 1:1 fingerprint match with an id that
// appeared) or a tombstone, and forgets the redirects of ids that exist again.
func (ix *Index) recordIdentity(ctx context.Context, tx *store.Tx, old []store.SymbolRow, oldBlob map[int64]int64,
	now map[int64][]store.SymbolRow, nowFacts func(fileID int64) *lang.Facts, pathOf func(fileID int64) string, epoch int64) error {
	before := make(map[int64]store.SymbolRow, len(old))
	for _, r := range old {
		before[r.ID] = r
	}
	after := map[int64]store.SymbolRow{}
	for _, rows := range now {
		for _, r := range rows {
			after[r.ID] = r
		}
	}
	vanishedBy := map[fingerprint][]store.SymbolRow{}
	var vanished []store.SymbolRow
	for id, r := range before {
		if _, ok := after[id]; ok {
			continue
		}
		fp, ok := ix.fingerprintOf(ctx, r, oldBlob[r.FileID])
		if ok {
			vanishedBy[fp] = append(vanishedBy[fp], r)
		}
		vanished = append(vanished, r)
	}
	appearedBy := map[fingerprint][]store.SymbolRow{}
	for id, r := range after {
		if _, ok := before[id]; ok {
			continue
		}
		if err := tx.ClearRedirect(id); err != nil {
			return err
		}
		if f := nowFacts(r.FileID); f != nil && r.DefIdx < len(f.Defs) {
			d := f.Defs[r.DefIdx]
			fp := fingerprint{d.Kind, d.BodyHash}
			appearedBy[fp] = append(appearedBy[fp], r)
		}
	}
	for _, v := range vanished {
		fp, ok := ix.fingerprintOf(ctx, v, oldBlob[v.FileID])
		if ok && len(vanishedBy[fp]) == 1 && len(appearedBy[fp]) == 1 {
			n := appearedBy[fp][0]
			reason, conf := "renamed", 0.9
			if n.Name == v.Name {
				reason, conf = "moved", 0.95
			}
			if err := tx.PutAlias(store.Alias{OldID: v.ID, NewID: n.ID, Reason: reason, Confidence: conf, OldQName: v.QName, Epoch: epoch}); err != nil {
				return err
			}
			continue
		}
		if err := tx.PutTombstone(store.Tombstone{ID: v.ID, QName: v.QName, Kind: v.Kind, Path: pathOf(v.FileID), Epoch: epoch}); err != nil {
			return err
		}
	}
	return nil
}

// fingerprintOf reads a symbol's fingerprint from the blob it was defined in.
func (ix *Index) fingerprintOf(ctx context.Context, r store.SymbolRow, blobID int64) (fingerprint, bool) {
	if blobID == 0 {
		return fingerprint{}, false
	}
	f, err := ix.Facts(ctx, blobID)
	if err != nil || f == nil || r.DefIdx >= len(f.Defs) {
		return fingerprint{}, false
	}
	d := f.Defs[r.DefIdx]
	return fingerprint{d.Kind, d.BodyHash}, true
}
