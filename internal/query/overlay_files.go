package query

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// The whole-repository readers the change, repomap and graph engines build
// their views from, read through the request's overlay: the baseline's
// rows less those of the files the overlay replaces or deletes, plus the
// overlay files' own (pseudo ids < 0), derived by index.Snapshot.Overlay
// as a reconcile would derive them. Without an overlay each is the store's
// read.

// ovFileRow is an overlay file's row as the index would hold it.
func (e *Engine) ovFileRow(ctx context.Context, f *ovFile, of *index.OverlayFile) store.FileRow {
	fr := store.FileRow{ID: f.id, Path: f.path, Lang: of.Lang, Size: int64(len(f.content)), Status: of.Status, ModuleID: of.Module}
	if of.Facts != nil {
		fr.Pkg = of.Facts.Package
	}
	if base, ok, err := e.Store().FileByPath(ctx, f.path); err == nil && ok {
		fr.Epoch = base.Epoch
	}
	return fr
}

// ovFiles puts the overlay into a list of baseline file rows sorted by
// path (keep says which overlay paths belong in it).
func (e *Engine) ovFiles(ctx context.Context, base []store.FileRow, keep func(path string) bool) ([]store.FileRow, error) {
	if e.ov == nil {
		return base, nil
	}
	out := make([]store.FileRow, 0, len(base)+len(e.ov.files))
	for _, r := range base {
		if _, held := e.ov.files[r.Path]; !held {
			out = append(out, r)
		}
	}
	for _, p := range e.ov.Paths() {
		f := e.ov.files[p]
		if f.deleted || !keep(p) {
			continue
		}
		of, err := e.derive(ctx, f)
		if err != nil {
			return nil, err
		}
		out = append(out, e.ovFileRow(ctx, f, of))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// Files lists every file of the request's view, by path.
func (e *Engine) Files(ctx context.Context) ([]store.FileRow, error) {
	files, err := e.Store().Files(ctx)
	if err != nil {
		return nil, err
	}
	return e.ovFiles(ctx, files, func(string) bool { return true })
}

// FilesUnder lists the files whose path starts with prefix, by path.
func (e *Engine) FilesUnder(ctx context.Context, prefix string) ([]store.FileRow, error) {
	files, err := e.Store().FilesUnder(ctx, prefix)
	if err != nil {
		return nil, err
	}
	return e.ovFiles(ctx, files, func(p string) bool { return strings.HasPrefix(p, prefix) })
}

// FileByPath finds a file of the request's view by path (none for one
// the overlay deletes).
func (e *Engine) FileByPath(ctx context.Context, p string) (store.FileRow, bool, error) {
	if f, held := e.ovFile(p); held {
		if f.deleted {
			return store.FileRow{}, false, nil
		}
		of, err := e.derive(ctx, f)
		if err != nil {
			return store.FileRow{}, false, err
		}
		return e.ovFileRow(ctx, f, of), true, nil
	}
	return e.Store().FileByPath(ctx, p)
}

// FileText is a file's content: an overlay file's, or its indexed blob's
// searchable text.
func (e *Engine) FileText(ctx context.Context, f store.FileRow) ([]byte, error) {
	if f.ID < 0 && e.ov != nil {
		if of := e.ov.byID[f.ID]; of != nil {
			return of.content, nil
		}
		return nil, nil
	}
	return e.Store().BlobText(ctx, f.BlobID)
}

// ImportsOf is one file's resolved import edges (nil when it has none).
func (e *Engine) ImportsOf(ctx context.Context, fileID int64) ([]index.ImportEdge, error) {
	if of, ok, err := e.ovDerivedByID(ctx, fileID); err != nil || ok {
		if of == nil {
			return nil, err
		}
		return of.Imports, nil
	}
	if e.replaced(ctx, fileID) {
		return nil, nil
	}
	data, err := e.Store().Imports(ctx, fileID)
	if err != nil || data == nil {
		return nil, err
	}
	return index.DecodeImports(data)
}

// SymbolFiles maps every symbol of the request's view to its file's id.
func (e *Engine) SymbolFiles(ctx context.Context) (map[int64]int64, error) {
	base, err := e.Store().SymbolFiles(ctx)
	if err != nil || e.ov == nil {
		return base, err
	}
	out := make(map[int64]int64, len(base))
	for s, f := range base {
		if !e.replaced(ctx, f) {
			out[s] = f
		}
	}
	rows, err := e.ovRows(ctx, func(store.SymbolRow) bool { return true })
	for _, r := range rows {
		out[r.ID] = r.FileID
	}
	return out, err
}

// AllSymbols lists every symbol of the request's view: the baseline's
// order, then the overlay files' by path and definition.
func (e *Engine) AllSymbols(ctx context.Context) ([]store.SymbolRow, error) {
	base, err := e.Store().AllSymbols(ctx)
	if err != nil || e.ov == nil {
		return base, err
	}
	rows, err := e.ovRows(ctx, func(store.SymbolRow) bool { return true })
	return append(e.dropReplaced(ctx, base), rows...), err
}

// OverlayFileIDs are the baseline files the overlay replaces or deletes
// and its own files' pseudo ids (both sorted; nil without an overlay):
// what a view built from the baseline must count again.
func (e *Engine) OverlayFileIDs(ctx context.Context) (replaced, own []int64) {
	if e.ov == nil {
		return nil, nil
	}
	e.replaced(ctx, 0) // finds the replaced ids once
	replaced = slices.Sorted(maps.Keys(e.ov.heldIDs))
	for _, p := range e.ov.Paths() {
		if f := e.ov.files[p]; !f.deleted {
			own = append(own, f.id)
		}
	}
	slices.Sort(own)
	return replaced, own
}

// Surfaces lists the files' surfaces of one kind (packed per file, as the
// index stores them), by path.
func (e *Engine) Surfaces(ctx context.Context, kind uint8) ([]store.SurfaceRow, error) {
	base, err := e.Store().Surfaces(ctx, kind)
	if err != nil || e.ov == nil {
		return base, err
	}
	out := make([]store.SurfaceRow, 0, len(base))
	for _, r := range base {
		if _, held := e.ov.files[r.Path]; !held {
			out = append(out, r)
		}
	}
	for _, p := range e.ov.Paths() {
		f := e.ov.files[p]
		if f.deleted {
			continue
		}
		of, err := e.derive(ctx, f)
		if err != nil {
			return nil, err
		}
		if of.Facts == nil {
			continue
		}
		var list []lang.Surface
		for _, s := range of.Facts.Surfaces {
			if uint8(s.Kind) == kind {
				list = append(list, s)
			}
		}
		if len(list) > 0 {
			out = append(out, store.SurfaceRow{FileID: f.id, Path: p, Lang: of.Lang, Data: lang.EncodeSurfaces(list)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// SymbolsByName lists the symbols of an exact name in the request's view.
func (e *Engine) SymbolsByName(ctx context.Context, name string) ([]store.SymbolRow, error) {
	rows, err := e.Store().SymbolsByName(ctx, name)
	if err != nil {
		return nil, err
	}
	return e.ovByName(ctx, name, rows)
}

// TrigramCandidates lists the files that may hold a literal (the lexical
// tier's candidates; through an overlay, its files instead of the ones it
// replaces, each a candidate); FileText reads a candidate's content.
func (e *Engine) TrigramCandidates(ctx context.Context, literal string) ([]store.TextHit, error) {
	hits, err := e.Store().TrigramCandidates(ctx, literal)
	if err != nil {
		return nil, err
	}
	return e.ovTextHits(hits, nil), nil
}

// HitText is the content of a lexical candidate.
func (e *Engine) HitText(ctx context.Context, h store.TextHit) ([]byte, error) {
	return e.candidateText(ctx, h)
}

// SymbolsByQName lists the symbols of an exact qualified name in the
// request's view.
func (e *Engine) SymbolsByQName(ctx context.Context, qname string) ([]store.SymbolRow, error) {
	rows, err := e.Store().SymbolsByQName(ctx, qname)
	if err != nil {
		return nil, err
	}
	return e.ovMerge(ctx, rows, func(r store.SymbolRow) bool { return r.QName == qname })
}

// SymbolsByParent lists at most limit members of a symbol in the request's
// view.
func (e *Engine) SymbolsByParent(ctx context.Context, parent int64, limit int) ([]store.SymbolRow, error) {
	rows, err := e.Store().SymbolsByParent(ctx, parent, limit)
	if err != nil {
		return nil, err
	}
	return e.ovMerge(ctx, rows, func(r store.SymbolRow) bool { return r.Parent == parent })
}

// SymbolsByQNamePrefix lists at most limit symbols whose qualified name
// starts with prefix in the request's view.
func (e *Engine) SymbolsByQNamePrefix(ctx context.Context, prefix string, limit int) ([]store.SymbolRow, error) {
	rows, err := e.Store().SymbolsByQNamePrefix(ctx, prefix, limit)
	if err != nil {
		return nil, err
	}
	return e.ovMerge(ctx, rows, func(r store.SymbolRow) bool { return strings.HasPrefix(r.QName, prefix) })
}

// ovMerge puts the overlay into baseline symbol rows: those of the files it
// replaces go, its own files' rows that keep wants come in.
func (e *Engine) ovMerge(ctx context.Context, rows []store.SymbolRow, keep func(store.SymbolRow) bool) ([]store.SymbolRow, error) {
	if e.ov == nil {
		return rows, nil
	}
	extra, err := e.ovRows(ctx, keep)
	if err != nil {
		return nil, err
	}
	return append(e.dropReplaced(ctx, rows), extra...), nil
}

// FileFacts loads a file's row and facts by id (an overlay file's for its
// pseudo id); facts are nil when it has none or is gone.
func (e *Engine) FileFacts(ctx context.Context, id int64) (store.FileRow, *lang.Facts, error) {
	return e.fileFacts(ctx, id)
}
