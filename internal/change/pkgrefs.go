package change

import (
	"cmp"
	"context"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// UnitRefsParams pages the references into a file, package or directory.
type UnitRefsParams struct {
	Target    string // a file or directory (repo path)
	Recursive bool   // a directory with every file below it
	Limit     int
	Offset    int
}

// UnitRef is one reference into the unit.
type UnitRef struct {
	protocol.Location
	// Symbol is the unit's symbol referenced: its qualified name without the
	// unit's import path (or path) in front.
	Symbol string `json:"symbol"`
	Kind   string `json:"kind"`
	Tier   string `json:"tier"`
}

// UnitRefFile counts one referencing file's references.
type UnitRefFile struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

// UnitRefPackage groups the referencing files of one directory.
type UnitRefPackage struct {
	Dir      string        `json:"dir"` // "." for the root
	Count    int           `json:"count"`
	TestOnly bool          `json:"test_only,omitempty"` // every referencing file of it is a test
	Files    []UnitRefFile `json:"files"`
}

// UnitRefsSummary counts the references into the unit.
type UnitRefsSummary struct {
	Total  int            `json:"total"`
	ByTier map[string]int `json:"by_tier"`
	Files  int            `json:"files"`
	// ByPackage groups them by referencing package: non-test ones first,
	// then the most references, then by directory.
	ByPackage []UnitRefPackage `json:"by_package"`
}

// UnitRefsResult is refs_find's payload for a file, package or directory
// target: every reference into it from outside it.
type UnitRefsResult struct {
	Target  Unit            `json:"target"`
	Summary UnitRefsSummary `json:"summary"`
	// Locations are the references: non-test files first, then by path and
	// position; paged.
	Locations  []UnitRef `json:"locations"`
	More       bool      `json:"more"`
	NextOffset int       `json:"-"`
	// BytesCovered is the size of the referencing files.
	BytesCovered int64 `json:"-"`
}

// UnitRefs lists the proven and strong references into a file, package or
// directory from the files outside it, grouped by referencing package and
// file, with a page of their locations.
func UnitRefs(ctx context.Context, e *query.Engine, c *Cache, p UnitRefsParams) (*UnitRefsResult, error) {
	a := &analysis{Engine: e, cache: c}
	g, u, err := a.unitOf(ctx, p.Target, p.Recursive)
	if err != nil {
		return nil, err
	}
	ri, err := a.refIndex(ctx)
	if err != nil {
		return nil, err
	}
	syms, err := g.symbols(ctx, a, u)
	if err != nil {
		return nil, err
	}
	label := map[int64]string{}
	member := u.isMember()
	counts := map[int]int{}
	res := &UnitRefsResult{Target: *u, Summary: UnitRefsSummary{ByTier: map[string]int{}, ByPackage: []UnitRefPackage{}}, Locations: []UnitRef{}}
	for _, s := range syms {
		label[s.ID] = u.symbolLabel(s.QName)
		for _, fr := range ri.by[s.ID] {
			if i, ok := g.byID[fr.file]; ok && !member(i) {
				counts[i] += int(fr.proven + fr.strong)
				res.Summary.ByTier["proven"] += int(fr.proven)
				res.Summary.ByTier["strong"] += int(fr.strong)
			}
		}
	}
	order := make([]int, 0, len(counts))
	for i := range counts {
		order = append(order, i)
		res.Summary.Total += counts[i]
		res.BytesCovered += g.files[i].Size
	}
	sort.Slice(order, func(x, y int) bool {
		_, tx := g.tests[order[x]]
		_, ty := g.tests[order[y]]
		return cmp.Or(graph.CompareBool(tx, ty), cmp.Compare(g.files[order[x]].Path, g.files[order[y]].Path)) < 0
	})
	res.Summary.Files = len(order)
	res.Summary.ByPackage = g.refPackages(order, counts)
	if p.Limit <= 0 {
		p.Limit = 50
	}
	// The page: whole files before the offset are skipped by their counts.
	seen := 0
	for _, i := range order {
		if len(res.Locations) >= p.Limit {
			res.More = true
			break
		}
		if seen+counts[i] <= p.Offset {
			seen += counts[i]
			continue
		}
		refs, err := a.refsInFile(ctx, g, i, label)
		if err != nil {
			return nil, err
		}
		for _, r := range refs {
			if seen >= p.Offset && len(res.Locations) < p.Limit {
				res.Locations = append(res.Locations, r)
			} else if seen >= p.Offset {
				res.More = true
			}
			seen++
		}
	}
	res.NextOffset = p.Offset + len(res.Locations)
	return res, ctx.Err()
}

// symbolLabel is a qualified name without the unit's import path (or path)
// in front: what tells the unit's symbols apart.
func (u *Unit) symbolLabel(qname string) string {
	for _, prefix := range []string{u.ImportPath + ".", u.Path + "#", u.Path + "/"} {
		if len(prefix) > 1 && strings.HasPrefix(qname, prefix) {
			return qname[len(prefix):]
		}
	}
	return qname
}

// refsInFile lists the references of file i linked to the symbols of label,
// by position.
func (a *analysis) refsInFile(ctx context.Context, g *depGraph, i int, label map[int64]string) ([]UnitRef, error) {
	f := g.files[i]
	links, err := a.Links(ctx, f.ID)
	if err != nil {
		return nil, err
	}
	facts, err := a.Facts(ctx, f.BlobID)
	if err != nil || facts == nil {
		return nil, err
	}
	var out []UnitRef
	for ri, l := range links {
		name, ok := label[l.Target]
		if !ok || ri >= len(facts.Refs) {
			continue
		}
		ref := facts.Refs[ri]
		out = append(out, UnitRef{Location: query.RefLoc(f.Path, ref.Pos, facts.Names[ref.Name]), Symbol: name, Kind: ref.Role.String(),
			Tier: l.Tier.String()})
	}
	sort.Slice(out, func(x, y int) bool {
		return cmp.Or(cmp.Compare(out[x].Line, out[y].Line), cmp.Compare(out[x].Col, out[y].Col)) < 0
	})
	return out, nil
}

// refPackages groups referencing files (in their order) by directory.
func (g *depGraph) refPackages(order []int, counts map[int]int) []UnitRefPackage {
	by := map[string]*UnitRefPackage{}
	var dirs []string
	for _, i := range order {
		d := cmp.Or(lang.DirOf(g.files[i].Path), ".")
		pk := by[d]
		if pk == nil {
			pk = &UnitRefPackage{Dir: d, TestOnly: true}
			by[d] = pk
			dirs = append(dirs, d)
		}
		pk.Count += counts[i]
		pk.Files = append(pk.Files, UnitRefFile{Path: g.files[i].Path, Count: counts[i]})
		if _, test := g.tests[i]; !test {
			pk.TestOnly = false
		}
	}
	out := make([]UnitRefPackage, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, *by[d])
	}
	sort.Slice(out, func(x, y int) bool {
		a, b := out[x], out[y]
		return cmp.Or(graph.CompareBool(a.TestOnly, b.TestOnly), cmp.Compare(b.Count, a.Count), cmp.Compare(a.Dir, b.Dir)) < 0
	})
	return out
}
