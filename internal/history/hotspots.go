package history

import (
	"context"
	"math"
	"sort"

	"github.com/cairnhq/cairn/internal/gitx"
)

// FileChurn is how much one file changed in a window.
type FileChurn struct {
	Path       string `json:"path"`
	Commits    int    `json:"commits"`
	Authors    int    `json:"authors"`
	Added      int    `json:"lines_added"`
	Deleted    int    `json:"lines_deleted"`
	LastCommit string `json:"last_commit"`
	LastDate   string `json:"last_date"`
}

// Files counts, for every file changed since a date, its commits, authors
// and changed lines (renames count toward the new path). Newest commits
// come first, so the first one seen is the last change.
func (s Source) Files(ctx context.Context, since string) ([]FileChurn, error) {
	if s.Head == "" {
		return []FileChurn{}, nil
	}
	key := []any{"files", s.Head, since}
	var out []FileChurn
	if s.Cache.Get(key, &out) {
		return out, nil
	}
	commits, err := gitx.Touches(ctx, s.Root, s.Head, since, nil)
	if err != nil {
		return nil, err
	}
	by := map[string]*FileChurn{}
	authors := map[string]map[string]bool{}
	for _, c := range commits {
		for _, t := range c.Files {
			f := by[t.Path]
			if f == nil {
				f = &FileChurn{Path: t.Path, LastCommit: c.OID, LastDate: c.Time}
				by[t.Path] = f
				authors[t.Path] = map[string]bool{}
			}
			f.Commits++
			f.Added += t.Additions
			f.Deleted += t.Deletions
			authors[t.Path][c.Author] = true
		}
	}
	out = make([]FileChurn, 0, len(by))
	for p, f := range by {
		f.Authors = len(authors[p])
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	s.Cache.Put(key, out)
	return out, nil
}

// Span is a line span of a file at HEAD (1-based, inclusive).
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// SpanChurn is how often the lines of one span changed.
type SpanChurn struct {
	Span
	Commits    int    `json:"commits"`
	Authors    int    `json:"authors"`
	LastCommit string `json:"last_commit,omitempty"`
	LastDate   string `json:"last_date,omitempty"`
}

// Spans follows several spans of one file back through its history at once
// (one git log -p -U0 for the file, following renames): for each commit,
// newest first, a span is touched when a hunk changes a line inside it,
// and the spans are then mapped to the parent's line numbers through the
// hunks. It agrees with git log -L on linear history; across merges (left
// out here) it is an approximation, which hotspots is content with.
func (s Source) Spans(ctx context.Context, path string, spans []Span, since string) ([]SpanChurn, error) {
	out := make([]SpanChurn, len(spans))
	for i, sp := range spans {
		out[i].Span = sp
	}
	if s.Head == "" || len(spans) == 0 {
		return out, nil
	}
	key := []any{"spans", s.Head, path, spans, since}
	if s.Cache.Get(key, &out) {
		return out, nil
	}
	patches, err := gitx.FilePatches(ctx, s.Root, s.Head, since, path, 0)
	if err != nil {
		return nil, err
	}
	cur := append([]Span(nil), spans...)
	alive := make([]bool, len(spans))
	for i := range alive {
		alive[i] = true
	}
	authors := make([]map[string]bool, len(spans))
	for _, p := range patches {
		for i := range cur {
			if !alive[i] {
				continue
			}
			if touched(cur[i], p.Hunks) {
				o := &out[i]
				if o.Commits == 0 {
					o.LastCommit, o.LastDate = p.OID, p.Time
				}
				o.Commits++
				if authors[i] == nil {
					authors[i] = map[string]bool{}
				}
				authors[i][p.Author] = true
			}
			start, end := mapBack(cur[i].Start, p.Hunks, false), mapBack(cur[i].End, p.Hunks, true)
			if end < start {
				alive[i] = false // the lines were created by this commit
				continue
			}
			cur[i] = Span{start, end}
		}
	}
	for i := range out {
		out[i].Authors = len(authors[i])
	}
	s.Cache.Put(key, out)
	return out, nil
}

// touched reports whether a hunk changes a line of sp (in the new side's
// numbering): it replaces or adds lines inside it, or deletes lines between
// two of its lines.
func touched(sp Span, hunks []gitx.Hunk) bool {
	for _, h := range hunks {
		if h.NewLines > 0 {
			if h.NewStart <= sp.End && h.NewStart+h.NewLines-1 >= sp.Start {
				return true
			}
		} else if h.NewStart >= sp.Start && h.NewStart < sp.End {
			return true // lines deleted after line NewStart, inside the span
		}
	}
	return false
}

// mapBack maps line x of the new side to the old side: lines outside hunks
// shift by what the hunks before them added or removed; a line inside a
// hunk maps to the start (or, for an end, the end) of the hunk's old side.
func mapBack(x int, hunks []gitx.Hunk, isEnd bool) int {
	delta := 0
	for _, h := range hunks {
		if h.NewLines == 0 {
			if x > h.NewStart {
				delta += h.OldLines
				continue
			}
			break
		}
		last := h.NewStart + h.NewLines - 1
		switch {
		case x < h.NewStart:
			return x + delta
		case x <= last:
			if isEnd {
				if h.OldLines == 0 {
					return h.OldStart
				}
				return h.OldStart + h.OldLines - 1
			}
			if h.OldLines == 0 {
				return h.OldStart + 1
			}
			return h.OldStart
		}
		delta += h.OldLines - h.NewLines
	}
	return x + delta
}

// Score weighs change frequency by size: commits x log2(2 + lines), so a
// large file that changes often outranks a small one with the same
// commits, and size alone never makes a hotspot. Rounded to 6 places.
func Score(commits, lines int) float64 {
	v := float64(commits) * math.Log2(2+float64(lines))
	return math.Round(v*1e6) / 1e6
}
