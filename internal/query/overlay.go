package query

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/store"
)

// Overlay is a request's view in front of the baseline index: files whose
// content replaces (or deletes) the indexed ones, from a workspace and from
// the request itself (virtual files). Queries that honour it read an
// overlay file's content and derive its facts and symbols from that content;
// what other files say about it (links, edges, the semantic layer) is the
// baseline's, and the engine notes each answer that leans on it.
type Overlay struct {
	Mode      string // workspace or ephemeral
	Workspace string // "" for virtual files alone
	Revision  int

	files map[string]*ovFile
	byID  map[int64]*ovFile // by pseudo file id (negative)

	mu    sync.Mutex // guards notes
	notes map[string]bool

	// derived once per request: every file's facts, symbols and links
	once    sync.Once
	derived map[string]*index.OverlayFile
	err     error

	// the baseline ids of the files it holds (replaced), found once
	heldOnce sync.Once
	heldIDs  map[int64]bool
}

type ovFile struct {
	path    string
	content []byte // nil when deleted
	deleted bool
	virtual bool
	id      int64 // the pseudo file id its symbol rows carry (< 0)
}

// NewOverlay starts an overlay of the given mode.
func NewOverlay(mode, workspace string, revision int) *Overlay {
	return &Overlay{Mode: mode, Workspace: workspace, Revision: revision, files: map[string]*ovFile{}, byID: map[int64]*ovFile{}, notes: map[string]bool{}}
}

// Put places a file in the overlay (content nil and deleted for a
// deletion); a later Put of the same path wins (virtual files over the
// workspace's).
func (o *Overlay) Put(p string, content []byte, deleted, virtual bool) {
	f := &ovFile{path: p, content: content, deleted: deleted, virtual: virtual}
	if old := o.files[p]; old != nil {
		f.id = old.id
	} else {
		f.id = -int64(len(o.files) + 1)
	}
	o.files[p] = f
	o.byID[f.id] = f
}

// Paths lists the overlay's paths, sorted.
func (o *Overlay) Paths() []string {
	return slices.Sorted(maps.Keys(o.files))
}

// Deletes reports whether the overlay deletes a path.
func (o *Overlay) Deletes(p string) bool {
	f, ok := o.files[p]
	return ok && f.deleted
}

// Note records that an answer leans on the baseline where the overlay may
// differ (said once per note).
func (o *Overlay) Note(format string, args ...any) {
	o.mu.Lock()
	o.notes[fmt.Sprintf(format, args...)] = true
	o.mu.Unlock()
}

// Notes lists what answers of the request could not take exactly from the
// overlay, sorted.
func (o *Overlay) Notes() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Sorted(maps.Keys(o.notes))
}

// WithOverlay returns the engine reading through an overlay (nil: none).
func (e *Engine) WithOverlay(o *Overlay) *Engine {
	c := *e
	c.ov = o
	return &c
}

// Overlay is the engine's overlay (nil when it reads the baseline alone).
func (e *Engine) Overlay() *Overlay { return e.ov }

// ovFile is the overlay's version of a path.
func (e *Engine) ovFile(p string) (*ovFile, bool) {
	if e.ov == nil {
		return nil, false
	}
	f, ok := e.ov.files[p]
	return f, ok
}

// derive gives an overlay file's facts, symbols and links: the overlay's
// files are derived together once per request (the index caches facts by
// content).
func (e *Engine) derive(ctx context.Context, f *ovFile) (*index.OverlayFile, error) {
	o := e.ov
	o.once.Do(func() {
		in := make([]index.OverlayInput, 0, len(o.files))
		for _, p := range o.Paths() {
			f := o.files[p]
			in = append(in, index.OverlayInput{Path: f.path, Content: f.content, Deleted: f.deleted, ID: f.id})
		}
		o.derived, o.err = e.snap.Overlay(ctx, in)
	})
	if o.err != nil {
		return nil, o.err
	}
	return o.derived[f.path], nil
}

// replaced reports whether a baseline file is replaced or deleted by the
// overlay: its indexed rows do not count. The ids of the files it holds are
// looked up once per request (a few paths), not the path of every row asked
// about.
func (e *Engine) replaced(ctx context.Context, fileID int64) bool {
	if e.ov == nil || fileID < 0 {
		return false
	}
	o := e.ov
	o.heldOnce.Do(func() {
		o.heldIDs = make(map[int64]bool, len(o.files))
		for p := range o.files {
			if f, ok, err := e.Store().FileByPath(ctx, p); err == nil && ok {
				o.heldIDs[f.ID] = true
			}
		}
	})
	return o.heldIDs[fileID]
}

// dropReplaced keeps the baseline rows whose files the overlay leaves alone.
func (e *Engine) dropReplaced(ctx context.Context, rows []store.SymbolRow) []store.SymbolRow {
	if e.ov == nil {
		return rows
	}
	out := rows[:0:0]
	for _, r := range rows {
		if !e.replaced(ctx, r.FileID) {
			out = append(out, r)
		}
	}
	return out
}

// ovRows lists the symbol rows of every overlay file that keep(row) wants,
// by path then definition order.
func (e *Engine) ovRows(ctx context.Context, keep func(store.SymbolRow) bool) ([]store.SymbolRow, error) {
	if e.ov == nil {
		return nil, nil
	}
	var out []store.SymbolRow
	for _, p := range e.ov.Paths() {
		of, err := e.derive(ctx, e.ov.files[p])
		if err != nil {
			return nil, err
		}
		for _, r := range of.Rows {
			if keep(r) {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// ovByID finds a symbol of an overlay file by id.
func (e *Engine) ovByID(ctx context.Context, id int64) (store.SymbolRow, bool, error) {
	rows, err := e.ovRows(ctx, func(r store.SymbolRow) bool { return r.ID == id })
	if err != nil || len(rows) == 0 {
		return store.SymbolRow{}, false, err
	}
	return rows[0], true, nil
}

// symbolByID finds a symbol by id in the request's view: an overlay file's
// symbols first; a baseline symbol of a replaced file is gone.
func (e *Engine) symbolByID(ctx context.Context, id int64) (store.SymbolRow, bool, error) {
	if row, ok, err := e.ovByID(ctx, id); err != nil || ok {
		return row, ok, err
	}
	row, ok, err := e.Store().SymbolByID(ctx, id)
	if err != nil || !ok || e.replaced(ctx, row.FileID) {
		return store.SymbolRow{}, false, err
	}
	return row, true, nil
}

// loadOverlay completes a symbol row of an overlay file.
func (e *Engine) loadOverlay(ctx context.Context, row store.SymbolRow) (*Resolved, error) {
	fr, facts, err := e.fileFacts(ctx, row.FileID)
	if err != nil || fr.Path == "" {
		return nil, err
	}
	return NewResolved(row, fr, facts), nil
}

// ovCandidates merges the overlay's symbols into the baseline candidates of
// a name (candidates): baseline rows of replaced files go, overlay rows
// the name denotes come in, and exact qualified names win over suffixes as
// they do in the baseline.
func (e *Engine) ovCandidates(ctx context.Context, name string, base []store.SymbolRow) ([]store.SymbolRow, error) {
	if e.ov == nil {
		return base, nil
	}
	rows := e.dropReplaced(ctx, base)
	p, q, byPath := strings.Cut(name, "#")
	byPath = byPath && p != "" && q != ""
	p = strings.TrimPrefix(p, "./")
	exact := func(r store.SymbolRow) bool { return r.QName == name }
	extra, err := e.ovRows(ctx, func(r store.SymbolRow) bool {
		if byPath {
			f := e.ov.byID[r.FileID]
			res, _ := e.loadOverlay(ctx, r)
			return res != nil && res.Def != nil && res.Def.Path == q && (f.path == p || strings.HasSuffix(f.path, "/"+p))
		}
		return exact(r) || hasSuffixAtBoundary(r.QName, name)
	})
	if err != nil {
		return nil, err
	}
	rows = append(rows, extra...)
	if byPath {
		return rows, nil
	}
	var exacts []store.SymbolRow
	for _, r := range rows {
		if exact(r) {
			exacts = append(exacts, r)
		}
	}
	if len(exacts) > 0 {
		return exacts, nil
	}
	return rows, nil
}

// ovRead returns an overlay file's content for a read (held false when the
// overlay leaves the path to the working tree).
func (e *Engine) ovRead(rp protocol.RepoPath) (data []byte, held bool, err error) {
	f, ok := e.ovFile(string(rp))
	if !ok {
		return nil, false, nil
	}
	if f.deleted {
		return nil, true, &errs.Error{Kind: errs.FileNotFound, Path: string(rp), Msg: fmt.Sprintf("%s is deleted in %s", rp, e.ov.where())}
	}
	return f.content, true, nil
}

// where names the overlay in messages.
func (o *Overlay) where() string {
	if o.Workspace != "" {
		return "workspace " + o.Workspace
	}
	return "the request's virtual files"
}

// ovTextHits replaces the lexical candidates of overlay files with the
// overlay's versions (pseudo file ids, no blob), keeping filter's choice.
func (e *Engine) ovTextHits(cands []store.TextHit, filter *FileFilter) []store.TextHit {
	if e.ov == nil {
		return cands
	}
	var out []store.TextHit
	for _, p := range e.ov.Paths() {
		f := e.ov.files[p]
		if f.deleted {
			continue
		}
		l := ""
		if lg := lang.ForFile(p, f.content); lg != nil {
			l = lg.Name
		}
		if filter.Match(p, l) {
			out = append(out, store.TextHit{FileID: f.id, Path: p, Lang: l})
		}
	}
	for _, c := range cands {
		if _, held := e.ov.files[c.Path]; !held {
			out = append(out, c)
		}
	}
	return out
}

// candidateText is the content of a lexical candidate: an overlay file's,
// or the indexed blob's.
func (e *Engine) candidateText(ctx context.Context, c store.TextHit) ([]byte, error) {
	if c.FileID < 0 && e.ov != nil {
		if f := e.ov.byID[c.FileID]; f != nil {
			return f.content, nil
		}
	}
	return e.Store().BlobText(ctx, c.BlobID)
}

// ovSearchSymbols puts the overlay into a symbol search's rows: the rows of
// replaced files go, the overlay's matching symbols come in, scored as the
// store scores (best first; ties by shorter name, qualified name, id).
func (e *Engine) ovSearchSymbols(ctx context.Context, q store.SymbolSearch, rows []store.SymbolRow, scores []int) ([]store.SymbolRow, []int, error) {
	if e.ov == nil {
		return rows, scores, nil
	}
	type scored struct {
		row   store.SymbolRow
		score int
	}
	var all []scored
	for i, r := range rows {
		if !e.replaced(ctx, r.FileID) {
			all = append(all, scored{r, scores[i]})
		}
	}
	sub := strings.ToLower(q.Sub)
	extra, err := e.ovRows(ctx, func(r store.SymbolRow) bool {
		return strings.Contains(strings.ToLower(r.Name), sub) && (len(q.Kinds) == 0 || slices.Contains(q.Kinds, r.Kind))
	})
	if err != nil {
		return nil, nil, err
	}
	for _, r := range extra {
		s := q.KindWeight[r.Kind] + q.VisWeight[r.Visibility]
		if strings.EqualFold(r.Name, q.Sub) {
			s += q.ExactBonus
		}
		all = append(all, scored{r, s})
	}
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		switch {
		case a.score != b.score:
			return a.score > b.score
		case len(a.row.Name) != len(b.row.Name):
			return len(a.row.Name) < len(b.row.Name)
		case a.row.QName != b.row.QName:
			return a.row.QName < b.row.QName
		}
		return a.row.ID < b.row.ID
	})
	if len(all) != len(rows) {
		e.ov.Note("symbol search totals count the baseline index")
	}
	rows, scores = make([]store.SymbolRow, 0, len(all)), make([]int, 0, len(all))
	for _, s := range all {
		rows, scores = append(rows, s.row), append(scores, s.score)
	}
	return rows, scores, nil
}

// ovDerivedByID is what the overlay derived for a pseudo file id (held
// false for an indexed file's id).
func (e *Engine) ovDerivedByID(ctx context.Context, fileID int64) (*index.OverlayFile, bool, error) {
	if fileID >= 0 || e.ov == nil {
		return nil, false, nil
	}
	f := e.ov.byID[fileID]
	if f == nil {
		return nil, true, nil
	}
	of, err := e.derive(ctx, f)
	return of, true, err
}

// fileFacts loads a file's row and facts by id: an overlay file's (pseudo
// id) or an indexed one's; facts are nil when it has none or is gone.
func (e *Engine) fileFacts(ctx context.Context, id int64) (store.FileRow, *lang.Facts, error) {
	if of, ok, err := e.ovDerivedByID(ctx, id); err != nil || ok {
		if of == nil {
			return store.FileRow{}, nil, err
		}
		return e.ovFileRow(ctx, e.ov.byID[id], of), of.Facts, nil
	}
	f, ok, err := e.Store().FileByID(ctx, id)
	if err != nil || !ok {
		return store.FileRow{}, nil, err
	}
	facts, err := e.Facts(ctx, f.BlobID)
	return f, facts, err
}

// fileAt loads a file named by a position: its row, facts and symbols, from
// the overlay when it holds the file.
func (e *Engine) fileAt(ctx context.Context, rp protocol.RepoPath) (store.FileRow, *lang.Facts, []store.SymbolRow, error) {
	if f, held := e.ovFile(string(rp)); held {
		if f.deleted {
			return store.FileRow{}, nil, nil, &errs.Error{Kind: errs.FileNotFound, Path: string(rp), Msg: fmt.Sprintf("%s is deleted in %s", rp, e.ov.where())}
		}
		of, err := e.derive(ctx, f)
		if err != nil {
			return store.FileRow{}, nil, nil, err
		}
		fr, facts, err := e.fileFacts(ctx, f.id)
		return fr, facts, of.Rows, err
	}
	f, ok, err := e.Store().FileByPath(ctx, string(rp))
	if err != nil {
		return store.FileRow{}, nil, nil, err
	}
	if !ok {
		return store.FileRow{}, nil, nil, &errs.Error{Kind: errs.FileNotFound, Path: string(rp), Msg: "file " + string(rp) + " is not in the index"}
	}
	facts, err := e.Facts(ctx, f.BlobID)
	if err != nil {
		return store.FileRow{}, nil, nil, err
	}
	syms, err := e.Store().SymbolsOfFile(ctx, f.ID)
	return f, facts, syms, err
}

// ovByName puts the overlay into the symbols of an exact name.
func (e *Engine) ovByName(ctx context.Context, name string, rows []store.SymbolRow) ([]store.SymbolRow, error) {
	return e.ovMerge(ctx, rows, func(r store.SymbolRow) bool { return r.Name == name })
}
