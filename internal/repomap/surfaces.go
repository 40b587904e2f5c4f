package repomap

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// SurfaceParams selects surfaces of one kind.
type SurfaceParams struct {
	Kind       lang.SurfaceKind
	Paths      []string // globs
	Langs      []string
	Framework  string // exact framework name, "" for all
	Query      string // case-insensitive substring of the value
	Confidence string // "high" keeps only high-confidence surfaces
	Limit      int
	Offset     int
}

// SurfacesResult lists surfaces of one kind, ordered by path and position.
type SurfacesResult struct {
	Kind  string              `json:"kind"`
	Items []query.SurfaceItem `json:"items"`
	// Total counts every match; Files the files holding them; Distinct the
	// distinct values among them.
	Total        int            `json:"total"`
	Files        int            `json:"files"`
	Distinct     int            `json:"distinct_values"`
	ByFramework  map[string]int `json:"by_framework"`
	ByConfidence map[string]int `json:"by_confidence"`
	More         bool           `json:"-"`
	NextOffset   int            `json:"-"`
}

type surfaceHit struct {
	row store.SurfaceRow
	s   lang.Surface
}

// Surfaces lists the surfaces of one kind in the repository.
func Surfaces(ctx context.Context, e *query.Engine, p SurfaceParams) (*SurfacesResult, error) {
	filter, err := query.NewFileFilter(p.Paths, p.Langs)
	if err != nil {
		return nil, err
	}
	switch p.Confidence {
	case "", "low", "high":
	default:
		return nil, errs.E(errs.InvalidArgument, "confidence must be high or low, not %q", p.Confidence)
	}
	rows, err := e.Surfaces(ctx, uint8(p.Kind))
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(p.Query)
	res := &SurfacesResult{Kind: p.Kind.String(), Items: []query.SurfaceItem{}, ByFramework: map[string]int{}, ByConfidence: map[string]int{}}
	var hits []surfaceHit
	files := map[int64]bool{}
	values := map[string]bool{}
	for _, r := range rows {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !filter.Match(r.Path, r.Lang) {
			continue
		}
		list, err := lang.DecodeSurfaces(r.Data)
		if err != nil {
			continue // an unreadable row: the file is reindexed with its blob
		}
		for _, s := range list {
			s, ok := query.CompleteSurface(r.Path, s)
			if !ok {
				continue
			}
			if p.Framework != "" && s.Framework != p.Framework {
				continue
			}
			if p.Confidence == "high" && s.Confidence != lang.ConfHigh {
				continue
			}
			if q != "" && !strings.Contains(strings.ToLower(s.Value), q) {
				continue
			}
			hits = append(hits, surfaceHit{r, s})
			files[r.FileID] = true
			values[s.Value] = true
			res.ByFramework[s.Framework]++
			res.ByConfidence[s.Confidence.String()]++
		}
	}
	res.Total, res.Files, res.Distinct = len(hits), len(files), len(values)
	if p.Offset > len(hits) {
		p.Offset = len(hits)
	}
	end := min(p.Offset+p.Limit, len(hits))
	syms := map[int64]map[int]store.SymbolRow{}
	for _, h := range hits[p.Offset:end] {
		item := query.NewSurfaceItem(h.row.Path, h.row.Lang, h.s)
		if h.s.Def >= 0 {
			bySlot, ok := syms[h.row.FileID]
			if !ok {
				rows, err := e.SymbolsOfFile(ctx, h.row.FileID)
				if err != nil {
					return nil, err
				}
				bySlot = make(map[int]store.SymbolRow, len(rows))
				for _, r := range rows {
					bySlot[r.DefIdx] = r
				}
				syms[h.row.FileID] = bySlot
			}
			if row, ok := bySlot[int(h.s.Def)]; ok {
				if r, err := e.Load(ctx, row); err == nil && r != nil {
					ref := r.Ref()
					item.Symbol = &ref
				}
			}
		}
		res.Items = append(res.Items, item)
	}
	res.More = end < len(hits)
	res.NextOffset = end
	return res, nil
}
