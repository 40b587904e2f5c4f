package graph

import (
	"context"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// walker is one graph request's view of the index: the same files,
// symbols and semantic documents come up again and again, so it keeps what
// it read, in one small cache per concern. It lives as long as the request.
type walker struct {
	e     *query.Engine
	v     *query.SemView // nil: syntactic layer only
	layer string         // "", syntactic or semantic (Params.Layer)

	idx   rowCache  // rows of the index (below)
	used  layerUse  // which layer answered for which file (layers.go)
	names nameCache // symbols by name (outgoing.go)
	types typeCache // members, implementations, overrides (typesets.go)
}

func newWalker(ctx context.Context, e *query.Engine, layer string) (*walker, error) {
	w := &walker{e: e, layer: layer, idx: newRowCache(), used: newLayerUse(), names: newNameCache(), types: newTypeCache()}
	if layer != query.LayerSyntactic {
		v, err := e.Semantic(ctx)
		if err != nil {
			return nil, err
		}
		if !v.Empty() {
			w.v = v
		}
	}
	return w, nil
}

// rowCache keeps the rows a walk read: files, symbols, a file's symbols
// and its resolved references.
type rowCache struct {
	files map[int64]*store.FileRow   // nil value: known missing
	syms  map[int64]*store.SymbolRow // nil value: known missing
	own   map[int64][]store.SymbolRow
	links map[int64]map[int]index.Link
	texts map[int64][]byte // blob -> content, for the declarations read from source
}

func newRowCache() rowCache {
	return rowCache{files: map[int64]*store.FileRow{}, syms: map[int64]*store.SymbolRow{}, own: map[int64][]store.SymbolRow{},
		links: map[int64]map[int]index.Link{}, texts: map[int64][]byte{}}
}

// file returns a file row by id (nil when it vanished).
func (w *walker) file(ctx context.Context, id int64) (*store.FileRow, error) {
	return memo(w.idx.files, id, func() (*store.FileRow, error) {
		f, ok, err := w.e.FileRowByID(ctx, id)
		if err != nil || !ok {
			return nil, err
		}
		return &f, nil
	})
}

// loadFiles brings the file rows of these ids into the cache with one
// query (a widely called symbol has callers in hundreds of files).
func (w *walker) loadFiles(ctx context.Context, ids []int64) error {
	var need []int64
	asked := map[int64]bool{}
	for _, id := range ids {
		if _, ok := w.idx.files[id]; !ok && !asked[id] {
			asked[id] = true
			need = append(need, id)
		}
	}
	if len(need) < 2 {
		return nil // file() loads a single one as well
	}
	rows, err := w.e.FilesByIDs(ctx, need)
	if err != nil {
		return err
	}
	for i := range rows {
		f := rows[i]
		w.idx.files[f.ID] = &f
	}
	for _, id := range need {
		if _, ok := w.idx.files[id]; !ok {
			w.idx.files[id] = nil
		}
	}
	return nil
}

// edgeFiles returns the file of each edge, in the order of edges (nil
// where the file vanished), loading them with one query.
func (w *walker) edgeFiles(ctx context.Context, edges []store.EdgeRow) ([]*store.FileRow, error) {
	if err := w.loadFiles(ctx, idsOf(edges, func(ed store.EdgeRow) int64 { return ed.FileID })); err != nil {
		return nil, err
	}
	out := make([]*store.FileRow, len(edges))
	for i, ed := range edges {
		f, err := w.file(ctx, ed.FileID)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// symbols loads symbol rows by id (missing ones are left out).
func (w *walker) symbols(ctx context.Context, ids []int64) (map[int64]store.SymbolRow, error) {
	out := make(map[int64]store.SymbolRow, len(ids))
	var need []int64
	for _, id := range ids {
		if r, ok := w.idx.syms[id]; ok {
			if r != nil {
				out[id] = *r
			}
			continue
		}
		need = append(need, id)
	}
	if len(need) > 0 {
		rows, err := w.e.SymbolsByIDs(ctx, need)
		if err != nil {
			return nil, err
		}
		for i := range rows {
			r := rows[i]
			w.idx.syms[r.ID] = &r
			out[r.ID] = r
		}
		for _, id := range need {
			if _, ok := w.idx.syms[id]; !ok {
				w.idx.syms[id] = nil
			}
		}
	}
	return out, nil
}

// resolved completes a symbol row with its file and facts (nil when the
// file vanished).
func (w *walker) resolved(ctx context.Context, row store.SymbolRow) (*query.Resolved, error) {
	if row.FileID < 0 {
		return w.e.Load(ctx, row) // an overlay file's symbol
	}
	f, err := w.file(ctx, row.FileID)
	if err != nil || f == nil {
		return nil, err
	}
	facts, err := w.e.Facts(ctx, f.BlobID)
	if err != nil {
		return nil, err
	}
	return query.NewResolved(row, *f, facts), nil
}

// row loads one symbol's row by id; ok is false when it is gone.
func (w *walker) row(ctx context.Context, id int64) (row store.SymbolRow, ok bool, err error) {
	rows, err := w.symbols(ctx, []int64{id})
	if err != nil {
		return row, false, err
	}
	row, ok = rows[id]
	return row, ok, nil
}

// resolveID loads a symbol by id (nil when it is gone).
func (w *walker) resolveID(ctx context.Context, id int64) (*query.Resolved, error) {
	row, ok, err := w.row(ctx, id)
	if err != nil || !ok {
		return nil, err
	}
	return w.resolved(ctx, row)
}

// parentType is the class, interface or other type a member is declared
// in: its parent, when that is a type (nil otherwise).
func (w *walker) parentType(ctx context.Context, r *query.Resolved) (*query.Resolved, error) {
	if r.Row.Parent == 0 {
		return nil, nil
	}
	p, err := w.resolveID(ctx, r.Row.Parent)
	if err != nil || p == nil || !lang.DefKind(p.Row.Kind).IsTypeLike() {
		return nil, err
	}
	return p, nil
}

// ownSymbols returns a file's symbols in definition order.
func (w *walker) ownSymbols(ctx context.Context, fileID int64) ([]store.SymbolRow, error) {
	return memo(w.idx.own, fileID, func() ([]store.SymbolRow, error) { return w.e.SymbolsOfFile(ctx, fileID) })
}

func (w *walker) fileLinks(ctx context.Context, fileID int64) (map[int]index.Link, error) {
	return memo(w.idx.links, fileID, func() (map[int]index.Link, error) { return w.e.Links(ctx, fileID) })
}

// memo is m[k], loaded and kept on the first ask (an error is not kept:
// the next ask loads again).
func memo[K comparable, V any](m map[K]V, k K, load func() (V, error)) (V, error) {
	if v, ok := m[k]; ok {
		return v, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	m[k] = v
	return v, nil
}
