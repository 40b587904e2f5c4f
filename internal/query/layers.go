package query

import (
	"context"
	"fmt"
	"path"
	"sort"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/semantic"
)

// SemanticUse says how the semantic layer took part in an answer.
type SemanticUse struct {
	// State: used (every location from the semantic layer), partial (some
	// files fell back to syntactic facts), unmapped (the semantic index
	// covers the definition's file but has no symbol there), stale (the
	// definition's file changed since the semantic index), unavailable (no
	// semantic index covers it), off (the caller asked for syntax only).
	State   string   `json:"state"`
	Reason  string   `json:"reason,omitempty"`
	Merge   string   `json:"merge"`
	Symbols []string `json:"scip_symbols,omitempty"`
	// Related are the symbols whose references count as this one's (the
	// interface method a method implements, the methods implementing an
	// interface method: SCIP is_reference); their locations carry via.
	Related []string `json:"related_symbols,omitempty"`
	// Files counts the files whose references come from the semantic layer.
	Files int `json:"semantic_files"`
	// Fallback lists files answered by the syntactic layer, with why.
	Fallback      []FileFallback `json:"fallback_files"`
	FallbackTotal int            `json:"fallback_total"`
	// RejectedAnchored counts anchored candidates the semantic layer ruled out.
	RejectedAnchored int `json:"rejected_anchored,omitempty"`
	// Conflicts (merge union) are locations where the layers disagree.
	Conflicts      []LayerConflict `json:"conflicts,omitempty"`
	ConflictsTotal int             `json:"conflicts_total,omitempty"`
}

// FileFallback is a file answered from syntactic facts.
type FileFallback struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// LayerConflict is a location the two layers attribute differently.
type LayerConflict struct {
	protocol.Location
	// Kind: syntactic_only (syntax linked it to this symbol, the semantic
	// layer to another symbol or to none) or semantic_other_target (the
	// semantic layer says this symbol, syntax linked it to another one).
	Kind      string `json:"kind"`
	Syntactic string `json:"syntactic"`
	Semantic  string `json:"semantic"`
}

const (
	maxFallbackListed = 20
	maxConflicts      = 50
)

type layerPlan struct {
	use      SemanticUse
	found    []foundRef
	anchored []foundRef
}

// planLayers combines the syntactic references with the semantic layer's
// occurrences of the symbol (DESIGN §5: the best layer per file, said).
func (e *Engine) planLayers(ctx context.Context, v *SemView, r *Resolved, syn []synRef, p RefsParams) (*layerPlan, error) {
	plan := &layerPlan{use: SemanticUse{Merge: p.Merge, Fallback: []FileFallback{}}}
	synOnly := func(state, reason string) *layerPlan {
		plan.use.State, plan.use.Reason = state, reason
		if p.Layer == LayerSemantic {
			return plan
		}
		for _, s := range syn {
			switch s.status {
			case synMatch:
				plan.found = append(plan.found, s.foundRef)
			case synAnchored:
				plan.anchored = append(plan.anchored, s.foundRef)
			}
		}
		return plan
	}
	switch {
	case v == nil:
		return synOnly("off", "syntactic layer requested"), nil
	case v.Empty():
		return synOnly("unavailable", "no semantic index is imported (cairn index --semantic)"), nil
	}
	mapped, occs, err := e.SemanticOccs(ctx, v, r.Row.ID)
	if err != nil {
		return nil, err
	}
	defPath := r.File.Path
	if len(mapped) == 0 {
		switch reason := v.FallbackReason(defPath); {
		case v.Usable(defPath):
			return synOnly("unmapped", "the semantic index has no symbol at this definition"), nil
		case reason != "":
			return synOnly("stale", defPath+": "+reason), nil
		}
		return synOnly("unavailable", "no semantic index covers "+defPath), nil
	}
	for _, m := range mapped {
		plan.use.Symbols = append(plan.use.Symbols, m.Symbol)
	}
	synByKey := make(map[locKey]*synRef, len(syn))
	for i := range syn {
		synByKey[keyOf(syn[i].loc.Location)] = &syn[i]
	}
	family := LangFamily(r.File.Lang)
	related := map[string]bool{}
	var reach map[string]bool // Go: the packages that can reach the symbol (gopls's scope for related methods)
	if r.File.Lang == "go" {
		if reach, err = e.goDependents(ctx, v, path.Dir(r.File.Path)); err != nil {
			return nil, err
		}
	}
	semKeys := map[locKey]int{}
	semFiles := map[protocol.RepoPath]bool{}
	var semLocs []foundRef
	for _, o := range occs {
		if !o.Usable || (o.Via != "" && reach != nil && !reach[path.Dir(o.Path)]) {
			continue
		}
		loc := RefLocation{Location: protocol.Location{Path: protocol.RepoPath(o.Path), Line: int(o.Line), Col: int(o.Col),
			EndLine: int(o.EndLine), EndCol: int(o.EndCol)}, Kind: semantic.RoleName(o.Roles), Tier: index.TierPrecise.String(), Layer: LayerSemantic,
			Via: o.Via}
		if o.Via != "" {
			related[o.Via] = true
		}
		k := keyOf(loc.Location)
		if _, dup := semKeys[k]; dup {
			continue
		}
		if s := synByKey[k]; s != nil {
			if loc.Kind == "reference" && s.loc.Kind != "definition" {
				loc.Kind = s.loc.Kind // call, type, ...: syntax refines the kind (CKB §6.2 supplement)
			}
			loc.Enclosing = s.loc.Enclosing
		}
		var module int64
		if f, ok := v.FileRow(loc.Path); ok {
			module = f.ModuleID
		}
		semKeys[k] = len(semLocs)
		semFiles[loc.Path] = true
		semLocs = append(semLocs, foundRef{loc: loc, module: module})
	}
	plan.use.Files = len(semFiles)
	for s := range related {
		plan.use.Related = append(plan.use.Related, s)
	}
	sort.Strings(plan.use.Related)
	fallback := map[string]string{}
	keepSyn := func(s *synRef) {
		path := string(s.loc.Path)
		f, ok := v.FileRow(s.loc.Path)
		sameFamily := ok && LangFamily(f.Lang) == family
		if _, ok := fallback[path]; !ok && sameFamily {
			reason := v.FallbackReason(path)
			if reason == "" {
				reason = "not in the semantic index"
			}
			fallback[path] = reason
		}
		if s.status == synMatch {
			plan.found = append(plan.found, s.foundRef)
		} else {
			plan.anchored = append(plan.anchored, s.foundRef)
		}
	}
	var conflicts []LayerConflict
	for i := range syn {
		s := &syn[i]
		if s.status == synOther {
			continue
		}
		k := keyOf(s.loc.Location)
		authoritative := v.Usable(string(s.loc.Path))
		if j, ok := semKeys[k]; ok {
			if p.Merge == MergeUnion {
				semLocs[j].loc.Also = s.loc.Tier
			}
			continue
		}
		if authoritative && s.status == synAnchored {
			plan.use.RejectedAnchored++
		}
		otherFamily := false
		if f, ok := v.FileRow(s.loc.Path); ok && LangFamily(f.Lang) != family {
			otherFamily = true
		}
		switch {
		case p.Merge == MergePrefer && otherFamily && s.status == synAnchored:
			// a same-name token in another language cannot refer to it
			plan.use.RejectedAnchored++
		case p.Merge == MergePrefer && authoritative:
			// the semantic layer describes this file: it has no such reference
		case p.Merge == MergeUnion && authoritative:
			if s.status == synMatch {
				conflicts = append(conflicts, LayerConflict{Location: s.loc.Location, Kind: "syntactic_only",
					Syntactic: s.loc.Tier + " reference to " + r.Row.QName})
			}
			s.loc.Also = ""
			if s.status == synMatch {
				plan.found = append(plan.found, s.foundRef)
			} else {
				plan.anchored = append(plan.anchored, s.foundRef)
			}
		default:
			keepSyn(s)
		}
	}
	if p.Merge == MergeUnion {
		for _, sl := range semLocs {
			if s := synByKey[keyOf(sl.loc.Location)]; sl.loc.Via == "" && s != nil && s.status == synOther && s.target != 0 && s.target != r.Row.ID {
				conflicts = append(conflicts, LayerConflict{Location: sl.loc.Location, Kind: "semantic_other_target",
					Syntactic: s.loc.Tier + " reference to " + e.qnameOf(ctx, s.target), Semantic: "reference to " + r.Row.QName})
			}
		}
		if err := e.describeSemantic(ctx, v, conflicts); err != nil {
			return nil, err
		}
		sort.Slice(conflicts, func(i, j int) bool { return LessLoc(conflicts[i].Location, conflicts[j].Location) })
		plan.use.ConflictsTotal = len(conflicts)
		if len(conflicts) > maxConflicts {
			conflicts = conflicts[:maxConflicts]
		}
		plan.use.Conflicts = conflicts
	}
	if p.Layer == LayerSemantic {
		plan.found, plan.anchored = nil, nil
		fallback = map[string]string{}
	}
	plan.found = append(plan.found, semLocs...)
	paths := make([]string, 0, len(fallback))
	for path := range fallback {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	plan.use.FallbackTotal = len(paths)
	for _, path := range paths {
		if len(plan.use.Fallback) == maxFallbackListed {
			break
		}
		plan.use.Fallback = append(plan.use.Fallback, FileFallback{Path: path, Reason: fallback[path]})
	}
	plan.use.State = "used"
	if len(paths) > 0 {
		plan.use.State = "partial"
		plan.use.Reason = fmt.Sprintf("%d files answered from syntactic facts", len(paths))
	}
	if reason := v.FallbackReason(defPath); reason != "" {
		plan.use.State = "partial"
		plan.use.Reason = defPath + " (the definition) " + reason
	}
	return plan, nil
}

// qnameOf names a Cairn symbol for messages.
func (e *Engine) qnameOf(ctx context.Context, id int64) string {
	if row, ok, err := e.Store().SymbolByID(ctx, id); err == nil && ok {
		return row.QName
	}
	return index.FormatID(id)
}

// describeSemantic fills what the semantic layer says at each syntactic-only
// conflict: the symbol it has there, or none.
func (e *Engine) describeSemantic(ctx context.Context, v *SemView, cs []LayerConflict) error {
	byPath := map[protocol.RepoPath][]semantic.Occ{}
	idxOf := map[protocol.RepoPath]int64{}
	for i := range cs {
		c := &cs[i]
		if c.Kind != "syntactic_only" {
			continue
		}
		occs, ok := byPath[c.Path]
		if !ok {
			var err error
			var idx int64
			occs, idx, _, err = e.DocOccs(ctx, v, string(c.Path))
			if err != nil {
				return err
			}
			byPath[c.Path], idxOf[c.Path] = occs, idx
		}
		c.Semantic = "no symbol at this position"
		for _, o := range occs {
			if int(o.Line) == c.Line && int(o.Col) == c.Col {
				if row, ok, err := e.Store().SemSymbol(ctx, idxOf[c.Path], o.Sym); err == nil && ok {
					c.Semantic = "reference to " + row.Symbol
				}
				break
			}
		}
	}
	return nil
}

// LangFamily groups languages that reference each other's symbols.
func LangFamily(l string) string {
	switch l {
	case "typescript", "tsx", "javascript":
		return "ecma"
	}
	return l
}
