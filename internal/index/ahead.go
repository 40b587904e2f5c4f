package index

import (
	"context"
	"sort"
	"sync"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// aheadRows bounds the symbol rows read ahead and not taken yet.
const aheadRows = 1 << 16

// symbolsAhead holds stored symbols read ahead of the linker, beside it:
// those of the other files of each relinked file's directory in its
// language, which a linker asks for together when it first meets one of
// them (a Go package). Each file's rows are handed over once.
type symbolsAhead struct {
	mu   sync.Mutex                  // guards the fields below
	rows map[int64][]store.SymbolRow // by file id, until taken
	held int                         // rows in rows
	dirs map[string]bool             // directories read, with the language: "go\x00a/b"
	// asked are the files the linker read itself (not read ahead in
	// time): a directory read later leaves them out.
	asked map[int64]bool
}

// read reads the stored symbols of f's directory (its files in f's
// language that the batch did not derive again), once per directory,
// while fewer than aheadRows rows wait.
func (a *symbolsAhead) read(ctx context.Context, b *batch, f *fileInfo) error {
	key := f.lang + "\x00" + lang.DirOf(f.path)
	a.mu.Lock()
	skip := a.dirs[key] || a.held >= aheadRows
	a.dirs[key] = true
	a.mu.Unlock()
	if skip {
		return nil
	}
	var ids []int64
	a.mu.Lock()
	for _, p := range b.w.dirFiles[lang.DirOf(f.path)] {
		o := b.w.files[p]
		if _, derived := b.resymbol[o.id]; o.lang == f.lang && !derived && !b.lk.deleted[o.id] && !a.asked[o.id] {
			ids = append(ids, o.id)
		}
	}
	a.mu.Unlock()
	if len(ids) == 0 {
		return nil
	}
	rows, err := b.ix.db().SymbolsOfFiles(ctx, ids)
	if err != nil {
		return err
	}
	byFile := make(map[int64][]store.SymbolRow, len(ids))
	for _, id := range ids {
		byFile[id] = nil // a file without symbols is read too
	}
	for _, r := range rows {
		byFile[r.FileID] = append(byFile[r.FileID], r)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for id, rs := range byFile {
		if _, ok := a.rows[id]; !ok {
			a.rows[id] = rs
			a.held += len(rs)
		}
	}
	return nil
}

// own is a copy of the rows of one file read ahead and not taken yet,
// leaving them for the linker.
func (a *symbolsAhead) own(fileID int64) ([]store.SymbolRow, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	rows, ok := a.rows[fileID]
	return append([]store.SymbolRow(nil), rows...), ok
}

// take hands over the rows of files, in the order the store returns them
// (store.SymbolsOfFiles: by file, then definition), when every one of them
// was read ahead and they fit one query of the store; otherwise it takes
// nothing, notes that the caller reads them, and reports false.
func (a *symbolsAhead) take(ids []int64) ([]store.SymbolRow, bool) {
	if a == nil {
		return nil, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	whole := len(ids) <= store.MaxIn
	for _, id := range ids {
		if _, ok := a.rows[id]; !ok {
			whole = false
			break
		}
	}
	if !whole {
		for _, id := range ids {
			a.asked[id] = true
		}
		return nil, false
	}
	var out []store.SymbolRow
	for _, id := range ids {
		out = append(out, a.rows[id]...)
		a.held -= len(a.rows[id])
		delete(a.rows, id)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].FileID != out[j].FileID {
			return out[i].FileID < out[j].FileID
		}
		return out[i].DefIdx < out[j].DefIdx
	})
	return out, true
}
