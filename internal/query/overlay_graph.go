package query

import (
	"context"
	"slices"
	"sort"

	"github.com/cairnhq/cairn/internal/store"
)

// The graph engines read edges, files and symbols by id through these, so
// that a call graph or a hierarchy asked through an overlay sees the
// overlay's files: the baseline's rows, less those of files the overlay
// replaces, plus what the overlay's own files define and call. Edges of
// files outside the overlay stay the baseline's links (the request notes
// that, as references do).

// EdgesTo lists the edges of some kinds that end at dst, ordered by source
// and file.
func (e *Engine) EdgesTo(ctx context.Context, dst int64, kinds ...uint8) ([]store.EdgeRow, error) {
	base, err := e.Store().EdgesTo(ctx, dst, kinds...)
	if err != nil || e.ov == nil {
		return base, err
	}
	out, err := e.ovEdges(ctx, base, func(ed store.EdgeRow) bool { return ed.Dst == dst && slices.Contains(kinds, ed.Kind) })
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Src != out[j].Src {
			return out[i].Src < out[j].Src
		}
		return out[i].FileID < out[j].FileID
	})
	return out, err
}

// EdgesFrom lists the edges of some kinds that start at src in file fileID,
// ordered by destination.
func (e *Engine) EdgesFrom(ctx context.Context, fileID, src int64, kinds ...uint8) ([]store.EdgeRow, error) {
	if e.ov == nil {
		return e.Store().EdgesFrom(ctx, fileID, src, kinds...)
	}
	if fileID >= 0 {
		if e.replaced(ctx, fileID) {
			return nil, nil
		}
		return e.Store().EdgesFrom(ctx, fileID, src, kinds...)
	}
	out, err := e.ovEdges(ctx, nil, func(ed store.EdgeRow) bool {
		return ed.FileID == fileID && ed.Src == src && slices.Contains(kinds, ed.Kind)
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Dst != out[j].Dst {
			return out[i].Dst < out[j].Dst
		}
		return out[i].Kind < out[j].Kind
	})
	return out, err
}

// ovEdges keeps the baseline edges of files the overlay leaves alone and
// adds the overlay files' edges that keep wants.
func (e *Engine) ovEdges(ctx context.Context, base []store.EdgeRow, keep func(store.EdgeRow) bool) ([]store.EdgeRow, error) {
	e.ov.Note("call and type edges of files outside the overlay are the baseline's")
	out := base[:0:0]
	for _, ed := range base {
		if !e.replaced(ctx, ed.FileID) {
			out = append(out, ed)
		}
	}
	for _, p := range e.ov.Paths() {
		f := e.ov.files[p]
		of, err := e.derive(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, ed := range of.Edges(f.id) {
			if keep(ed) {
				out = append(out, ed)
			}
		}
	}
	return out, nil
}

// FileRowByID finds a file by id: an overlay file's row for its pseudo id;
// none for a file the overlay replaces.
func (e *Engine) FileRowByID(ctx context.Context, id int64) (store.FileRow, bool, error) {
	if e.ov == nil {
		return e.Store().FileByID(ctx, id)
	}
	if id < 0 {
		fr, _, err := e.fileFacts(ctx, id)
		return fr, err == nil && fr.Path != "", err
	}
	if e.replaced(ctx, id) {
		return store.FileRow{}, false, nil
	}
	return e.Store().FileByID(ctx, id)
}

// FilesByIDs finds files by id (missing ones left out), as FileRowByID.
func (e *Engine) FilesByIDs(ctx context.Context, ids []int64) ([]store.FileRow, error) {
	if e.ov == nil {
		return e.Store().FilesByIDs(ctx, ids)
	}
	var out []store.FileRow
	var base []int64
	for _, id := range ids {
		if id >= 0 {
			base = append(base, id)
			continue
		}
		if fr, ok, err := e.FileRowByID(ctx, id); err != nil {
			return nil, err
		} else if ok {
			out = append(out, fr)
		}
	}
	rows, err := e.Store().FilesByIDs(ctx, base)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if !e.replaced(ctx, r.ID) {
			out = append(out, r)
		}
	}
	return out, nil
}

// SymbolsByIDs finds symbols by id (missing ones left out): an overlay
// file's definition wins over the baseline row of the same id.
func (e *Engine) SymbolsByIDs(ctx context.Context, ids []int64) ([]store.SymbolRow, error) {
	if e.ov == nil {
		return e.Store().SymbolsByIDs(ctx, ids)
	}
	want := make(map[int64]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	out, err := e.ovRows(ctx, func(r store.SymbolRow) bool { return want[r.ID] })
	if err != nil {
		return nil, err
	}
	for _, r := range out {
		delete(want, r.ID)
	}
	rest := make([]int64, 0, len(want))
	for _, id := range ids {
		if want[id] {
			rest = append(rest, id)
		}
	}
	base, err := e.Store().SymbolsByIDs(ctx, rest)
	if err != nil {
		return nil, err
	}
	return append(out, e.dropReplaced(ctx, base)...), nil
}

// SymbolsOfFile lists a file's symbols in definition order (an overlay
// file's own; none for a file the overlay replaces).
func (e *Engine) SymbolsOfFile(ctx context.Context, fileID int64) ([]store.SymbolRow, error) {
	if e.ov == nil {
		return e.Store().SymbolsOfFile(ctx, fileID)
	}
	if f := e.ov.byID[fileID]; f != nil {
		of, err := e.derive(ctx, f)
		if err != nil || of == nil {
			return nil, err
		}
		return of.Rows, nil
	}
	if e.replaced(ctx, fileID) {
		return nil, nil
	}
	return e.Store().SymbolsOfFile(ctx, fileID)
}

// SymbolsOfFiles lists the symbols of some files by file id, each file's
// in definition order.
func (e *Engine) SymbolsOfFiles(ctx context.Context, ids []int64) ([]store.SymbolRow, error) {
	if e.ov == nil {
		return e.Store().SymbolsOfFiles(ctx, ids)
	}
	var out []store.SymbolRow
	for _, id := range slices.Sorted(slices.Values(ids)) {
		rows, err := e.SymbolsOfFile(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}
