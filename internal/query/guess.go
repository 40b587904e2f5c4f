package query

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/store"
)

// A name at a position that syntax could not link (a method called on a
// value whose type the source does not state) may denote any symbol of
// that name. Its candidates are ranked by how close they are to the file
// that uses the name: the file itself, its package or directory, the files
// its imports reach (nearest first), its module, the rest; code before
// tests when the file is not a test. Go to definition (symbol_get with at)
// answers with the first as a ranked guess and lists the others; the tools
// that act on the symbol (references, callers, impact) refuse to guess and
// report AMBIGUOUS_SYMBOL with the candidates in the same order.

// Guess marks a symbol as the most likely of several candidates, not a
// proven target.
type Guess struct {
	// Candidates are the other candidates, most likely first.
	Candidates []SymbolRef `json:"candidates"`
	// Total counts every candidate, the guess included (before the limit).
	Total int `json:"total"`
	// Order says how the candidates were ranked.
	Order string `json:"order"`
	// Tied is set when the first candidate after the guess ranks the same:
	// the choice between them is arbitrary.
	Tied bool `json:"tied,omitempty"`
}

// GuessOrder describes the ranking of candidates.
const GuessOrder = "same file, same directory, files its imports reach (nearest first), same module, others; tests after code"

// maxImportDepth bounds how far the imports of a file are followed when
// ranking candidates, and maxImportFiles how many files are read.
const (
	maxImportDepth = 3
	maxImportFiles = 256
)

// rankCandidates orders the candidates of a name used in file f, most
// likely first (ties by qualified name and id); tied reports whether the
// first two share their rank.
func (e *Engine) rankCandidates(ctx context.Context, f store.FileRow, rows []store.SymbolRow) (ranked []store.SymbolRow, tied bool, err error) {
	reach, err := e.importReach(ctx, f)
	if err != nil {
		return nil, false, err
	}
	fromTest := IsTestPath(f.Path)
	type ranked1 struct {
		row  store.SymbolRow
		rank int
	}
	rs := make([]ranked1, 0, len(rows))
	for _, row := range rows {
		cf, ok, err := e.Store().FileByID(ctx, row.FileID)
		if err != nil {
			return nil, false, err
		}
		rank := 100
		if ok {
			d, reached := reach[cf.Path]
			if !reached {
				d, reached = reach[path.Dir(cf.Path)] // a Go package
			}
			switch {
			case cf.ID == f.ID:
				rank = 0
			case path.Dir(cf.Path) == path.Dir(f.Path):
				rank = 1
			case reached:
				rank = 1 + d
			case cf.ModuleID == f.ModuleID:
				rank = 10
			default:
				rank = 11
			}
			if !fromTest && IsTestPath(cf.Path) {
				rank += 20
			}
		}
		rs = append(rs, ranked1{row, rank})
	}
	slices.SortFunc(rs, func(a, b ranked1) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.row.QName, b.row.QName), cmp.Compare(a.row.ID, b.row.ID))
	})
	ranked = make([]store.SymbolRow, len(rs))
	for i, r := range rs {
		ranked[i] = r.row
	}
	return ranked, len(rs) > 1 && rs[0].rank == rs[1].rank, nil
}

// importReach maps the files and Go package directories that a file's
// imports reach, directly (1) or through the imports of what they reach,
// to the fewest hops, up to maxImportDepth.
func (e *Engine) importReach(ctx context.Context, f store.FileRow) (map[string]int, error) {
	reach := map[string]int{}
	frontier := []store.FileRow{f}
	read := 0
	for depth := 1; depth <= maxImportDepth && len(frontier) > 0; depth++ {
		var next []store.FileRow
		for _, fr := range frontier {
			if read >= maxImportFiles {
				return reach, nil
			}
			read++
			data, err := e.Store().Imports(ctx, fr.ID)
			if err != nil {
				return nil, err
			}
			edges, err := index.DecodeImports(data)
			if err != nil {
				continue
			}
			for _, ed := range edges {
				if ed.TargetPath == "" {
					continue
				}
				if _, seen := reach[ed.TargetPath]; seen {
					continue
				}
				reach[ed.TargetPath] = depth
				if tf, ok, err := e.Store().FileByPath(ctx, ed.TargetPath); err != nil {
					return nil, err
				} else if ok {
					next = append(next, tf)
				}
				// a Go package directory: its files are not followed (one
				// package's imports are enough for ranking)
			}
		}
		frontier = next
	}
	return reach, nil
}

// guessOrAmbiguous settles a name used at a position that several symbols
// may denote: with guess, the first of the ranked candidates, marked as a
// guess; else AMBIGUOUS_SYMBOL with the candidates ranked.
func (e *Engine) guessOrAmbiguous(ctx context.Context, f store.FileRow, name string, rows []store.SymbolRow, guess bool) (*Resolved, error) {
	ranked, tied, err := e.rankCandidates(ctx, f, rows)
	if err != nil {
		return nil, err
	}
	if !guess {
		return nil, e.ambiguousAmong(ctx, ranked, map[string]any{"total": len(rows), "order": "ranked"},
			"%q may be any of %d symbols: syntax does not know the type it is used on; candidates ranked (%s)", name, len(rows), GuessOrder)
	}
	r, err := e.Load(ctx, ranked[0])
	if err != nil || r == nil {
		return r, err
	}
	others, err := e.SymbolRefs(ctx, ranked[1:min(len(ranked), maxCandidates)])
	if err != nil {
		return nil, err
	}
	r.Guess = &Guess{Candidates: others, Total: len(rows), Order: GuessOrder, Tied: tied}
	return r, nil
}

// Candidate is a symbol an ambiguous name may denote, with its signature
// when another candidate shares its qualified name: enough to choose among
// overloads without reading each one.
type Candidate struct {
	SymbolRef
	Signature string `json:"signature,omitempty"`
}

// ambiguousAmong is AMBIGUOUS_SYMBOL with the candidates rows (the first
// maxCandidates, in their order), details and a message.
func (e *Engine) ambiguousAmong(ctx context.Context, rows []store.SymbolRow, details map[string]any, format string, args ...any) error {
	shown := rows[:min(len(rows), maxCandidates)]
	named := map[string]int{}
	for _, r := range shown {
		named[r.QName]++
	}
	cands, err := loadEach(ctx, e, shown, func(r *Resolved) any {
		c := Candidate{SymbolRef: r.Ref()}
		if r.Def != nil && named[r.Row.QName] > 1 {
			c.Signature = r.Def.Signature // only a signature tells overloads apart
		}
		return c
	})
	if err != nil {
		return err
	}
	return &errs.Error{Kind: errs.Ambiguous, Msg: fmt.Sprintf(format, args...), Candidates: cands, Details: details,
		Fixes: []string{"cairn symbol <symbol_id>"}}
}
