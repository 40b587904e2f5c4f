package query

import (
	"context"
	"sort"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lexical"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/store"
)

// RefsParams pages through references.
type RefsParams struct {
	Limit  int
	Offset int
	// Anchored puts anchored (unproven, same-name) references in the flat
	// locations list too; they are always summarised in groups.
	Anchored bool
}

// RefLocation is one reference.
type RefLocation struct {
	protocol.Location
	Kind      string `json:"kind"` // definition, call, reference, write, import, ...
	Tier      string `json:"tier"`
	Enclosing string `json:"enclosing,omitempty"` // lexical path of the enclosing definition
	Snippet   string `json:"snippet"`
}

// AnchoredGroup gathers same-name references that syntax cannot attribute:
// same token and receiver shape, with a few exemplars.
type AnchoredGroup struct {
	Token     string        `json:"token"`
	Receiver  string        `json:"receiver"`
	Count     int           `json:"count"`
	Exemplars []RefLocation `json:"exemplars"`
}

// FileCount is a per-file count.
type FileCount struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

// ModuleCount groups counts by module.
type ModuleCount struct {
	Module string      `json:"module"`
	Count  int         `json:"count"`
	Files  []FileCount `json:"files"`
}

// RefsSummary is the compressed view.
type RefsSummary struct {
	Total    int            `json:"total"` // proven + strong references, plus the definition
	ByTier   map[string]int `json:"by_tier"`
	ByKind   map[string]int `json:"by_kind"`
	ByModule []ModuleCount  `json:"by_module"`
}

// RefsResult is refs_find's payload.
type RefsResult struct {
	Symbol     SymbolRef       `json:"symbol"`
	Summary    RefsSummary     `json:"summary"`
	Locations  []RefLocation   `json:"locations"`
	Anchored   []AnchoredGroup `json:"anchored"`
	More       bool            `json:"more"`
	NextOffset int             `json:"-"`
	// BytesCovered is the size of the files holding references (what reading them would cost).
	BytesCovered int64 `json:"-"`
	// AnchoredTotal counts anchored references.
	AnchoredTotal int `json:"-"`
	// Partial is set when the deadline stopped the search early.
	Partial bool `json:"-"`
}

const (
	maxAnchoredGroups = 20
	maxExemplars      = 3
	maxFilesPerModule = 10
)

type foundRef struct {
	loc    RefLocation
	module int64
	shape  string
}

// Refs finds the references of a symbol.
func (e *Engine) Refs(ctx context.Context, r *Resolved, p RefsParams) (*RefsResult, error) {
	res := &RefsResult{Symbol: r.ref(), Locations: []RefLocation{}, Anchored: []AnchoredGroup{},
		Summary: RefsSummary{ByTier: map[string]int{}, ByKind: map[string]int{}, ByModule: []ModuleCount{}}}
	name := r.row.Name
	member := isMemberKind(lang.DefKind(r.row.Kind))
	var found, anchored []foundRef
	if r.def != nil {
		content, _ := e.db.BlobText(ctx, r.file.BlobID)
		found = append(found, foundRef{loc: RefLocation{Location: spanLoc(r.file.Path, r.def.NameSpan), Kind: "definition",
			Tier: index.TierProven.String(), Snippet: snippet(lexical.LineText(content, int(r.def.NameSpan.Start.Line)), int(r.def.NameSpan.Start.Col))},
			module: r.file.ModuleID})
	}
	cands, err := e.db.TextCandidates(ctx, store.GlobLiteral(name), true, 1<<30)
	if err != nil {
		return nil, err
	}
	for _, c := range cands {
		if ctx.Err() != nil { // the deadline: summarise what was found
			res.Partial = true
			ctx = context.WithoutCancel(ctx)
			break
		}
		if c.Lang == "" {
			continue
		}
		f, ok, err := e.db.FileByID(ctx, c.FileID)
		if err != nil || !ok {
			continue
		}
		facts, err := e.ix.Facts(ctx, f.BlobID)
		if err != nil || facts == nil {
			continue
		}
		nameID := -1
		for i, n := range facts.Names {
			if n == name {
				nameID = i
				break
			}
		}
		if nameID < 0 {
			continue
		}
		links, err := e.links(ctx, f.ID)
		if err != nil {
			return nil, err
		}
		var content []byte
		hits := 0
		for ri, ref := range facts.Refs {
			if int(ref.Name) != nameID {
				continue
			}
			loc := RefLocation{Location: refLoc(f.Path, ref.Pos, name), Kind: ref.Role.String()}
			if ref.Enclosing >= 0 {
				loc.Enclosing = facts.Defs[ref.Enclosing].Path
			}
			if l, ok := links[ri]; ok {
				if l.Target != r.row.ID {
					continue
				}
				loc.Tier = l.Tier.String()
			} else if ref.BindLocal >= 0 || ref.BindDef >= 0 || (member && ref.Shape == lang.QualNone) {
				continue // bound to something else, or cannot be a member access
			} else {
				loc.Tier = index.TierAnchored.String()
			}
			if content == nil {
				content, _ = e.db.BlobText(ctx, f.BlobID)
			}
			loc.Snippet = snippet(lexical.LineText(content, int(ref.Pos.Line)), int(ref.Pos.Col))
			fr := foundRef{loc: loc, module: f.ModuleID, shape: shapeKey(facts, ref)}
			if loc.Tier == index.TierAnchored.String() {
				anchored = append(anchored, fr)
			} else {
				found = append(found, fr)
			}
			hits++
		}
		if hits > 0 {
			res.BytesCovered += f.Size
		}
	}
	res.AnchoredTotal = len(anchored)
	if p.Anchored {
		found = append(found, anchored...)
	}
	sort.Slice(found, func(i, j int) bool { return lessLoc(found[i].loc.Location, found[j].loc.Location) })
	mods, err := e.moduleNames(ctx)
	if err != nil {
		return nil, err
	}
	e.summarise(res, found, anchored, mods)
	res.Anchored = groupAnchored(anchored, name)
	page := found
	if p.Offset < len(page) {
		page = page[p.Offset:]
	} else {
		page = nil
	}
	if len(page) > p.Limit {
		page, res.More = page[:p.Limit], true
	}
	for _, f := range page {
		res.Locations = append(res.Locations, f.loc)
	}
	res.NextOffset = p.Offset + len(res.Locations)
	return res, nil
}

func isMemberKind(k lang.DefKind) bool {
	switch k {
	case lang.KindMethod, lang.KindField, lang.KindProperty, lang.KindEnumMember, lang.KindConstructor:
		return true
	}
	return false
}

func shapeKey(f *lang.Facts, r lang.Ref) string {
	if r.Shape == lang.QualNone {
		return "bare"
	}
	q := f.Names[r.Qualifier]
	if q == "" {
		return r.Shape.String()
	}
	return r.Shape.String() + ":" + q
}

func lessLoc(a, b protocol.Location) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

func (e *Engine) moduleNames(ctx context.Context) (map[int64]string, error) {
	mods, err := e.db.Modules(ctx)
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for _, m := range mods {
		out[m.ID] = m.Name
	}
	return out, nil
}

func (e *Engine) summarise(res *RefsResult, found, anchored []foundRef, mods map[int64]string) {
	byModule := map[string]map[string]int{}
	for _, f := range found {
		res.Summary.ByTier[f.loc.Tier]++
		res.Summary.ByKind[f.loc.Kind]++
		if f.loc.Tier == index.TierAnchored.String() {
			continue
		}
		res.Summary.Total++
		m := mods[f.module]
		if byModule[m] == nil {
			byModule[m] = map[string]int{}
		}
		byModule[m][string(f.loc.Path)]++
	}
	if len(anchored) > 0 {
		res.Summary.ByTier[index.TierAnchored.String()] = len(anchored)
	}
	for m, files := range byModule {
		mc := ModuleCount{Module: m, Files: []FileCount{}}
		for p, n := range files {
			mc.Count += n
			mc.Files = append(mc.Files, FileCount{Path: p, Count: n})
		}
		sort.Slice(mc.Files, func(i, j int) bool {
			if mc.Files[i].Count != mc.Files[j].Count {
				return mc.Files[i].Count > mc.Files[j].Count
			}
			return mc.Files[i].Path < mc.Files[j].Path
		})
		if len(mc.Files) > maxFilesPerModule {
			mc.Files = mc.Files[:maxFilesPerModule]
		}
		res.Summary.ByModule = append(res.Summary.ByModule, mc)
	}
	sort.Slice(res.Summary.ByModule, func(i, j int) bool {
		a, b := res.Summary.ByModule[i], res.Summary.ByModule[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Module < b.Module
	})
}

func groupAnchored(anchored []foundRef, token string) []AnchoredGroup {
	groups := map[string]*AnchoredGroup{}
	for _, a := range anchored {
		g := groups[a.shape]
		if g == nil {
			g = &AnchoredGroup{Token: token, Receiver: a.shape, Exemplars: []RefLocation{}}
			groups[a.shape] = g
		}
		g.Count++
		if len(g.Exemplars) < maxExemplars {
			g.Exemplars = append(g.Exemplars, a.loc)
		}
	}
	out := make([]AnchoredGroup, 0, len(groups))
	for _, g := range groups {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Receiver < out[j].Receiver
	})
	if len(out) > maxAnchoredGroups {
		out = out[:maxAnchoredGroups]
	}
	return out
}
