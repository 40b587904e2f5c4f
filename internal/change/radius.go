package change

import (
	"context"
	"maps"
	"slices"
	"sort"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// radius measures the blast radius of the page's changes (with impact)
// and the tests they reach; both read the index, which holds the working
// tree, so only a diff against it has them.
func (a *analysis) radius(ctx context.Context, res *DiffResult, target DiffSide, impact bool) ([]string, error) {
	res.ImpactBasis = "not computed"
	if target.Kind != "worktree" {
		if impact {
			res.ImpactBasis = "not computed: the blast radius is measured on the index, which holds the working tree, not " + target.Spec
		}
		return nil, nil
	}
	if impact {
		res.ImpactBasis = "the index (the working tree)"
		if err := a.enrich(ctx, res); err != nil {
			return nil, err
		}
	}
	return a.hintTests(ctx, res), nil
}

// enrich adds the blast radius to the changes of the page.
func (a *analysis) enrich(ctx context.Context, r *DiffResult) error {
	g, err := a.depGraph(ctx)
	if err != nil {
		return err
	}
	ri, err := a.refIndex(ctx)
	if err != nil {
		return err
	}
	testsOf := map[string][]string{}
	fileTests := func(path string) []string {
		if t, ok := testsOf[path]; ok {
			return t
		}
		var out []string
		if aff, err := AffectedTests(ctx, a.Engine, a.cache, AffectedParams{Files: []string{path}, MaxDepth: 2, Limit: 10}); err == nil {
			for _, t := range aff.Tests {
				out = append(out, t.Path)
			}
		}
		if out == nil {
			out = []string{}
		}
		testsOf[path] = out
		return out
	}
	symsOf := map[int64][]store.SymbolRow{}
	for k := range r.Changes {
		c := &r.Changes[k]
		if ctx.Err() != nil {
			break
		}
		im := &ChangeImpact{RefTiers: map[string]int{}, ReferencingFiles: []string{}, ImportingFiles: []string{}, AffectedTests: []string{}}
		c.Impact = im
		path := c.Path
		if c.new == nil && c.old != nil {
			path = c.old.f.path
		}
		if i, ok := g.byPath[path]; ok {
			imps := g.importers(i)
			im.ImportingTotal = len(imps)
			for _, j := range imps {
				if len(im.ImportingFiles) < 10 {
					im.ImportingFiles = append(im.ImportingFiles, g.files[j].Path)
				}
			}
			sort.Strings(im.ImportingFiles)
			im.AffectedTests = fileTests(path)
		}
		if c.new != nil {
			i, ok := g.byPath[c.new.f.path]
			if !ok {
				continue
			}
			fid := g.files[i].ID
			if _, ok := symsOf[fid]; !ok {
				symsOf[fid], _ = a.SymbolsOfFile(ctx, fid)
			}
			for _, s := range symsOf[fid] {
				if s.DefIdx != c.new.idx {
					continue
				}
				c.SymbolID = protocol.NewSymbolID(s.ID)
				files := map[string]bool{}
				for _, fr := range ri.by[s.ID] {
					im.RefTiers["proven"] += int(fr.proven)
					im.RefTiers["strong"] += int(fr.strong)
					im.ReferenceCount += int(fr.proven + fr.strong)
					if j, ok := g.byID[fr.file]; ok {
						files[g.files[j].Path] = true
					}
				}
				im.ReferencingFiles = firstSorted(files, 10)
			}
			im.ReferenceBasis, im.Confidence = "ref_links", "high"
			if c.Change == "renamed" && c.old != nil {
				// Code still using the old name no longer resolves.
				n, files := a.danglingRefs(ctx, c.old.def.Name)
				im.RefTiers["anchored"] = n
				im.ReferenceCount += n
				im.ReferencingFiles = sortedUnique(append(im.ReferencingFiles, files...))
				im.ReferenceBasis, im.Confidence = "ref_links+old_name", "low"
			}
			continue
		}
		// A removed symbol: what still names it no longer resolves.
		n, files := a.danglingRefs(ctx, c.old.def.Name)
		im.RefTiers["anchored"] = n
		im.ReferenceCount = n
		im.ReferencingFiles = files
		im.ReferenceBasis, im.Confidence = "name_only", "low"
	}
	return nil
}

// danglingRefs counts unresolved references carrying a name (bounded).
func (a *analysis) danglingRefs(ctx context.Context, name string) (int, []string) {
	if ov := a.Overlay(); ov != nil {
		ov.Note("unresolved reference counts are the baseline index's")
	}
	hits, err := a.Store().TextCandidates(ctx, store.GlobLiteral(name), true, 200)
	if err != nil {
		return 0, []string{}
	}
	n := 0
	files := map[string]bool{}
	a.unlinkedRefs(ctx, hits, name, func(nf *query.NameFile, _ lang.Ref) {
		n++
		files[nf.File.Path] = true
	})
	return n, firstSorted(files, 10)
}

// unlinkedRefs calls f for each reference to name in the candidate files
// that nothing resolves: neither a binding in its file nor a link.
func (a *analysis) unlinkedRefs(ctx context.Context, hits []store.TextHit, name string, f func(*query.NameFile, lang.Ref)) {
	for _, h := range hits {
		if h.Lang == "" || ctx.Err() != nil {
			continue
		}
		nf, err := a.NameFileOf(ctx, h.FileID, name)
		if err != nil || nf == nil {
			continue
		}
		for ri, ref := range nf.Facts.Refs {
			if int(ref.Name) != nf.NameID || ref.BindLocal >= 0 || ref.BindDef >= 0 {
				continue
			}
			if _, linked := nf.Links[ri]; linked {
				continue
			}
			f(nf, ref)
		}
	}
}

func firstSorted(set map[string]bool, n int) []string {
	out := slices.Sorted(maps.Keys(set))
	if len(out) > n {
		out = out[:n]
	}
	return out
}
