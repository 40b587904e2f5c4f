package query

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
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
	// External (Family) are related symbols declared outside the indexed
	// files (a dependency's or the standard library's interface): a
	// rename cannot change them.
	External []string `json:"external_symbols,omitempty"`
	// Files counts the files whose references come from the semantic layer.
	Files int `json:"semantic_files,omitempty"`
	// Fallback lists files answered by the syntactic layer, with why.
	Fallback      []FileFallback `json:"fallback_files,omitempty"`
	FallbackTotal int            `json:"fallback_total,omitempty"`
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

// keep adds a syntactic reference to what the answer lists.
func (plan *layerPlan) keep(s *synRef) {
	if s.status == synMatch {
		plan.found = append(plan.found, s.foundRef)
	} else {
		plan.anchored = append(plan.anchored, s.foundRef)
	}
}

// planLayers combines the syntactic references with the semantic layer's
// occurrences of the symbol (DESIGN §5: the best layer per file, said).
func (e *Engine) planLayers(ctx context.Context, v *SemView, r *Resolved, syn []synRef, p RefsParams) (*layerPlan, error) {
	plan := &layerPlan{use: SemanticUse{Merge: p.Merge, Fallback: []FileFallback{}}}
	switch {
	case v == nil:
		return plan.syntaxOnly(syn, p, "off", "syntactic layer requested"), nil
	case v.Empty():
		return plan.syntaxOnly(syn, p, "unavailable", "no semantic index is imported (cairn index --semantic)"), nil
	}
	mapped, occs, external, err := e.semanticOccs(ctx, v, r.Row.ID, p.Family, !StaticMember(r))
	if err != nil {
		return nil, err
	}
	if len(mapped) == 0 {
		state, reason := unmapped(v, r.File.Path)
		return plan.syntaxOnly(syn, p, state, reason), nil
	}
	for _, m := range mapped {
		// Two imported indexes of one project map the same symbol twice.
		if !slices.Contains(plan.use.Symbols, m.Symbol) {
			plan.use.Symbols = append(plan.use.Symbols, m.Symbol)
		}
	}
	var reach map[string]bool // the packages that can reach the symbol, where dispatch relates methods (gopls's scope)
	if p.Family {
		plan.use.External = external
	} else if lang.Of(r.File.Lang).RelatedRefs == lang.RelatedDispatch {
		if reach, err = e.dependents(ctx, v, r.File.Lang, path.Dir(r.File.Path)); err != nil {
			return nil, err
		}
	}
	m := newLayerMerge(plan, v, r, syn, p)
	m.addSemantic(occs, reach)
	m.weighSyntax()
	if p.Merge == MergeUnion {
		if err := e.listConflicts(ctx, m); err != nil {
			return nil, err
		}
	}
	m.finish()
	return plan, nil
}

// syntaxOnly answers from the syntactic references alone (none when the
// semantic layer was asked for), saying why.
func (plan *layerPlan) syntaxOnly(syn []synRef, p RefsParams, state, reason string) *layerPlan {
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

// unmapped says why the semantic layer has no symbol for a definition in defPath.
func unmapped(v *SemView, defPath string) (state, reason string) {
	switch reason := v.FallbackReason(defPath); {
	case v.Usable(defPath):
		return "unmapped", "the semantic index has no symbol at this definition"
	case reason != "":
		return "stale", defPath + ": " + reason
	}
	return "unavailable", "no semantic index covers " + defPath
}

// layerMerge is the merge of one symbol's references from both layers.
type layerMerge struct {
	plan     *layerPlan
	v        *SemView
	r        *Resolved
	syn      []synRef
	p        RefsParams
	family   string             // the definition's language family
	synByKey map[locKey]*synRef // syntactic references by location
	semKeys  map[locKey]int     // semantic locations by location: index in semLocs
	semLocs  []foundRef         // the semantic layer's locations
	fallback map[string]string  // files answered from syntax: why
	conflict []LayerConflict    // merge union: where the layers disagree
}

func newLayerMerge(plan *layerPlan, v *SemView, r *Resolved, syn []synRef, p RefsParams) *layerMerge {
	m := &layerMerge{plan: plan, v: v, r: r, syn: syn, p: p, family: LangFamily(r.File.Lang),
		synByKey: make(map[locKey]*synRef, len(syn)), semKeys: map[locKey]int{}, fallback: map[string]string{}}
	for i := range syn {
		m.synByKey[keyOf(syn[i].loc.Location)] = &syn[i]
	}
	return m
}

// addSemantic takes the usable occurrences (related ones only within reach,
// when given), once per location, refining their kind with syntax.
func (m *layerMerge) addSemantic(occs []SemOcc, reach map[string]bool) {
	related := map[string]bool{}
	semFiles := map[protocol.RepoPath]bool{}
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
		if _, dup := m.semKeys[k]; dup {
			continue
		}
		if s := m.synByKey[k]; s != nil {
			if loc.Kind == "reference" && s.loc.Kind != "definition" {
				loc.Kind = s.loc.Kind // call, type, ...: syntax refines the kind (CKB §6.2 supplement)
			}
			loc.Enclosing = s.loc.Enclosing
		}
		var module int64
		if f, ok := m.v.FileRow(loc.Path); ok {
			module = f.ModuleID
		}
		m.semKeys[k] = len(m.semLocs)
		semFiles[loc.Path] = true
		m.semLocs = append(m.semLocs, foundRef{loc: loc, module: module})
	}
	m.plan.use.Files = len(semFiles)
	for s := range related {
		m.plan.use.Related = append(m.plan.use.Related, s)
	}
	sort.Strings(m.plan.use.Related)
}

// weighSyntax decides each syntactic reference against the semantic
// layer: the same location is one reference; in a file the semantic layer
// describes, a reference it does not have is dropped (prefer) or listed as a
// conflict (union); elsewhere syntax answers and the file falls back.
func (m *layerMerge) weighSyntax() {
	p, plan := m.p, m.plan
	for i := range m.syn {
		s := &m.syn[i]
		if s.status == synOther {
			continue
		}
		k := keyOf(s.loc.Location)
		authoritative := m.v.Usable(string(s.loc.Path))
		if j, ok := m.semKeys[k]; ok {
			if p.Merge == MergeUnion {
				m.semLocs[j].loc.Also = s.loc.Tier
			}
			continue
		}
		if authoritative && s.status == synAnchored {
			plan.use.RejectedAnchored++
		}
		otherFamily := false
		if f, ok := m.v.FileRow(s.loc.Path); ok && LangFamily(f.Lang) != m.family {
			otherFamily = true
		}
		switch {
		case p.Merge == MergePrefer && otherFamily && s.status == synAnchored:
			// a same-name token in another language cannot refer to it
			plan.use.RejectedAnchored++
		case authoritative && s.status == synMatch && s.loc.Kind == lang.RoleDoc.String():
			// a documentation link, which no semantic index records
			plan.keep(s)
		case p.Merge == MergePrefer && authoritative:
			// the semantic layer describes this file: it has no such reference
		case p.Merge == MergeUnion && authoritative:
			if s.status == synMatch {
				m.conflict = append(m.conflict, LayerConflict{Location: s.loc.Location, Kind: "syntactic_only",
					Syntactic: s.loc.Tier + " reference to " + m.r.Row.QName})
			}
			s.loc.Also = ""
			plan.keep(s)
		default:
			m.fallBack(s)
		}
	}
}

// fallBack keeps a syntactic reference the semantic layer does not cover,
// noting its file as answered from syntax (when of the definition's family).
func (m *layerMerge) fallBack(s *synRef) {
	path := string(s.loc.Path)
	f, ok := m.v.FileRow(s.loc.Path)
	sameFamily := ok && LangFamily(f.Lang) == m.family
	if _, ok := m.fallback[path]; !ok && sameFamily {
		reason := m.v.FallbackReason(path)
		if reason == "" {
			reason = "not in the semantic index"
		}
		m.fallback[path] = reason
	}
	m.plan.keep(s)
}

// listConflicts (merge union) adds the locations the semantic layer gives
// this symbol and syntax another, describes the syntactic-only ones, and
// lists them in order, capped.
func (e *Engine) listConflicts(ctx context.Context, m *layerMerge) error {
	conflicts := m.conflict
	for _, sl := range m.semLocs {
		if s := m.synByKey[keyOf(sl.loc.Location)]; sl.loc.Via == "" && s != nil && s.status == synOther && s.target != 0 && s.target != m.r.Row.ID {
			conflicts = append(conflicts, LayerConflict{Location: sl.loc.Location, Kind: "semantic_other_target",
				Syntactic: s.loc.Tier + " reference to " + e.qnameOf(ctx, s.target), Semantic: "reference to " + m.r.Row.QName})
		}
	}
	if err := e.describeSemantic(ctx, m.v, conflicts); err != nil {
		return err
	}
	sort.Slice(conflicts, func(i, j int) bool { return LessLoc(conflicts[i].Location, conflicts[j].Location) })
	m.plan.use.ConflictsTotal = len(conflicts)
	if len(conflicts) > maxConflicts {
		conflicts = conflicts[:maxConflicts]
	}
	m.plan.use.Conflicts = conflicts
	return nil
}

// finish adds the semantic locations to the answer (alone when the
// semantic layer was asked for), lists the files that fell back and says
// how the semantic layer took part.
func (m *layerMerge) finish() {
	plan := m.plan
	if m.p.Layer == LayerSemantic {
		plan.found, plan.anchored = nil, nil
		m.fallback = map[string]string{}
	}
	plan.found = append(plan.found, m.semLocs...)
	paths := slices.Sorted(maps.Keys(m.fallback))
	plan.use.FallbackTotal = len(paths)
	for _, path := range paths {
		if len(plan.use.Fallback) == maxFallbackListed {
			break
		}
		plan.use.Fallback = append(plan.use.Fallback, FileFallback{Path: path, Reason: m.fallback[path]})
	}
	plan.use.State = "used"
	if len(paths) > 0 {
		plan.use.State = "partial"
		plan.use.Reason = fmt.Sprintf("%d files answered from syntactic facts", len(paths))
	}
	defPath := m.r.File.Path
	if reason := m.v.FallbackReason(defPath); reason != "" {
		plan.use.State = "partial"
		plan.use.Reason = defPath + " (the definition) " + reason
	}
}

// qnameOf names a Cairn symbol for messages.
func (e *Engine) qnameOf(ctx context.Context, id int64) string {
	if row, ok, err := e.Store().SymbolByID(ctx, id); err == nil && ok {
		return row.QName
	}
	return string(protocol.NewSymbolID(id))
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
			occs, idx, _, err = e.docOccs(ctx, v, string(c.Path))
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

// LangFamily groups languages that reference each other's symbols: the
// language's Family, or the language itself.
func LangFamily(l string) string { return cmp.Or(lang.Of(l).Family, l) }
