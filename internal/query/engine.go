// Package query answers navigation questions from the index: symbol search
// and naming, symbol cards, references (with the choice of layer per file),
// lexical search, file reads and listings. One file per capability. It also
// holds what the other engines (graph, change, repomap) read through: the
// Engine bound to a request's snapshot, resolved symbols, the semantic view,
// locations, signatures and test-file conventions. It returns typed
// results; the tools layer wraps them in the response envelope. It never
// writes.
package query

import (
	"context"
	"sync"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
)

// Engine answers queries over one index. The engine a service keeps holds
// what requests share (views built once per epoch); a request asks On for
// an engine over its Snapshot and reads only through that.
type Engine struct {
	ix *index.Index
	*shared
	// snap is the request's snapshot (nil for the shared engine).
	snap *index.Snapshot
	// ov is the request's overlay (nil: the baseline alone).
	ov *Overlay
}

// shared is what every request's engine shares.
type shared struct {
	semMu sync.Mutex // guards the semantic-layer caches below
	sem   *SemView
	// semFresh caches the freshness report of semFreshKey's view.
	semFresh    []semantic.IndexFreshness
	semFreshKey string
}

// New returns an engine over an open index.
func New(ix *index.Index) *Engine { return &Engine{ix: ix, shared: &shared{}} }

// On returns the engine over one request's snapshot.
func (e *Engine) On(s *index.Snapshot) *Engine { return &Engine{ix: e.ix, shared: e.shared, snap: s} }

// Snapshot takes a snapshot of the index and returns the engine over it,
// for callers outside a tool call (benchmarks, tests); release ends it.
func (e *Engine) Snapshot(ctx context.Context) (eng *Engine, release func(), err error) {
	s, err := e.ix.Snapshot(ctx)
	if err != nil {
		return nil, nil, err
	}
	return e.On(s), s.Release, nil
}

// Store is the request's read transaction.
func (e *Engine) Store() *store.Reader {
	if e.snap == nil {
		panic("query: an engine read the index without a snapshot") // a caller forgot On or Snapshot
	}
	return e.snap.Store()
}

// Version identifies what the request sees, for caches of views built
// once per epoch of one store.
func (e *Engine) Version() index.Version { return e.snap.Version() }

// Index is the engine's index.
func (e *Engine) Index() *index.Index { return e.ix }

// State is the index state the request's snapshot sees (read through the
// pool for an engine without one).
func (e *Engine) State(ctx context.Context) (index.State, error) {
	if e.snap == nil {
		return e.ix.State(ctx)
	}
	return e.snap.State(), nil
}

// Facts returns the decoded facts of a blob, read through the request's
// snapshot. A request holds one of the store's few pooled connections for
// its snapshot; reading through the pool beside it would need a second,
// and enough concurrent requests doing so take every connection and wait
// for each other until their deadlines.
func (e *Engine) Facts(ctx context.Context, blobID int64) (*lang.Facts, error) {
	if e.snap == nil {
		return e.ix.Facts(ctx, blobID)
	}
	return e.snap.Facts(ctx, blobID)
}

// SymbolRef is the compact form of a symbol in lists.
type SymbolRef struct {
	ID       protocol.SymbolID `json:"symbol_id"`
	Name     string            `json:"name"`
	QName    string            `json:"qualified_name"`
	Kind     string            `json:"kind"`
	Location protocol.Location `json:"location"`
}

// Resolved is a symbol row with its file and definition.
type Resolved struct {
	Row   store.SymbolRow
	File  store.FileRow
	Facts *lang.Facts // the file's facts (nil when it has none)
	Def   *lang.Def   // the symbol's definition in Facts (nil when missing)
	// Redirect is set when the symbol was reached through an alias.
	Redirect *Redirect
	// Guess is set when the symbol is the most likely of several that a
	// name at a position may denote (guess.go), not a proven target.
	Guess *Guess
}

// Load completes a symbol row with its file and definition facts (nil when
// the file vanished).
func (e *Engine) Load(ctx context.Context, row store.SymbolRow) (*Resolved, error) {
	if row.FileID < 0 && e.ov != nil {
		return e.loadOverlay(ctx, row)
	}
	f, ok, err := e.Store().FileByID(ctx, row.FileID)
	if err != nil || !ok {
		return nil, err
	}
	facts, err := e.snap.Facts(ctx, f.BlobID)
	if err != nil {
		return nil, err
	}
	return NewResolved(row, f, facts), nil
}

// NewResolved puts a symbol row together with its file and the file's facts.
func NewResolved(row store.SymbolRow, f store.FileRow, facts *lang.Facts) *Resolved {
	r := &Resolved{Row: row, File: f, Facts: facts}
	if facts != nil && row.DefIdx < len(facts.Defs) {
		r.Def = &facts.Defs[row.DefIdx]
	}
	return r
}

// Ref is the symbol's compact form.
func (r *Resolved) Ref() SymbolRef {
	out := SymbolRef{
		ID: protocol.NewSymbolID(r.Row.ID), Name: r.Row.Name, QName: r.Row.QName,
		Kind: lang.DefKind(r.Row.Kind).String(),
	}
	if r.Def != nil {
		out.Location = spanLoc(r.File.Path, r.Def.NameSpan)
	} else {
		out.Location = protocol.Location{Path: protocol.RepoPath(r.File.Path), Line: 1, Col: 1, EndLine: 1, EndCol: 1}
	}
	return out
}

func spanLoc(p string, s lang.Span) protocol.Location {
	return protocol.Location{Path: protocol.RepoPath(p), Line: int(s.Start.Line), Col: int(s.Start.Col),
		EndLine: int(s.End.Line), EndCol: int(s.End.Col)}
}

// RefLoc is the location of a reference to name at pos.
func RefLoc(p string, pos lang.Pos, name string) protocol.Location {
	return protocol.Location{Path: protocol.RepoPath(p), Line: int(pos.Line), Col: int(pos.Col),
		EndLine: int(pos.Line), EndCol: int(pos.Col) + len(name)}
}

// SymbolRefs loads many symbol rows at once, skipping ones whose file vanished.
func (e *Engine) SymbolRefs(ctx context.Context, rows []store.SymbolRow) ([]SymbolRef, error) {
	return loadEach(ctx, e, rows, (*Resolved).Ref)
}

// loadEach loads symbol rows and maps each one whose file is still there
// with f, in order.
func loadEach[T any](ctx context.Context, e *Engine, rows []store.SymbolRow, f func(*Resolved) T) ([]T, error) {
	out := make([]T, 0, len(rows))
	for _, row := range rows {
		r, err := e.Load(ctx, row)
		if err != nil {
			return nil, err
		}
		if r != nil {
			out = append(out, f(r))
		}
	}
	return out, nil
}

// ID is the symbol's id.
func (r *Resolved) ID() protocol.SymbolID { return protocol.NewSymbolID(r.Row.ID) }
