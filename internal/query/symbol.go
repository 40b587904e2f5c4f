package query

import (
	"cmp"
	"context"
	"fmt"
	"sort"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
)

// CallEdge is an outgoing call from a symbol, grouped by callee.
type CallEdge struct {
	Name     string     `json:"name"`
	Receiver string     `json:"receiver,omitempty"` // qualifier shape and text, for unresolved calls
	Count    int        `json:"count"`
	Tier     string     `json:"tier"`
	Layer    string     `json:"layer"`
	Target   *SymbolRef `json:"target,omitempty"`
	// External is the SCIP symbol of a callee defined outside the repository
	// (semantic layer only).
	External string `json:"external,omitempty"`
	// Origin says where a call outside the repository goes: stdlib,
	// dependency or external (from the import it goes through, as the
	// import resolver classifies it); Import is that import.
	Origin string `json:"origin,omitempty"`
	Import string `json:"import,omitempty"`
}

// Relation is a type relation of a symbol.
type Relation struct {
	// Kind: extends, implements, embeds (syntactic, as written); from the
	// semantic layer: implements, implemented_by, type_definition, references.
	Kind   string `json:"kind"`
	Target string `json:"target"`
	Layer  string `json:"layer"`
	// TargetID is the target's symbol id when it is in the repository.
	TargetID protocol.SymbolID `json:"target_id,omitempty"`
}

// SymbolCard describes one symbol.
type SymbolCard struct {
	SymbolRef
	VersionID    string            `json:"version_id"`
	Language     string            `json:"language"`
	Module       string            `json:"module"`
	Visibility   string            `json:"visibility"`
	Signature    string            `json:"signature,omitempty"`
	Doc          string            `json:"doc,omitempty"`
	Span         protocol.Location `json:"span"`
	Parent       *SymbolRef        `json:"parent,omitempty"`
	Members      []SymbolRef       `json:"members"`
	MembersTotal int               `json:"members_total"`
	Calls        []CallEdge        `json:"calls"`
	CallsTotal   int               `json:"calls_total"`
	// BuiltinCalls counts the builtins of the language it calls (len,
	// append, print), left out of calls.
	BuiltinCalls int        `json:"builtin_calls,omitempty"`
	Relations    []Relation `json:"relations"`
	// RelationsTotal counts the relations before the limit.
	RelationsTotal int `json:"relations_total"`
	// Surfaces are the routes, configuration keys, tables, DI registrations,
	// exceptions and log templates written inside the definition.
	Surfaces      []SurfaceItem `json:"surfaces,omitempty"`
	SurfacesTotal int           `json:"surfaces_total,omitempty"`
	// Layer and Tier say who vouches for the definition: the semantic layer
	// (precise) when an imported index maps it and its file is unchanged,
	// else the syntactic layer (proven).
	Layer       string   `json:"layer"`
	Tier        string   `json:"tier"`
	SCIPSymbols []string `json:"scip_symbols,omitempty"`
	Confidence  float64  `json:"confidence"`
	FileEpoch   int64    `json:"file_epoch"`
	ParseErrors bool     `json:"parse_errors,omitempty"`
	// Limits says what the file's facts leave out because the file reached
	// the extractor's bounds (nesting, path length); "" for almost every file.
	Limits string `json:"limits,omitempty"`
	// Build is the build constraint of the symbol's file (Go: the GOOS and
	// GOARCH of its name and its //go:build line), when it has one.
	Build string `json:"build,omitempty"`
	// Variants are the other definitions of the same name under other
	// builds or conditions (variants.go): which one runs depends on the
	// build, so each is an answer.
	Variants []Variant `json:"variants,omitempty"`
	// Guess is set when the card answers a position that several symbols
	// may denote: this one ranked first, the others are its candidates.
	Guess *Guess `json:"guess,omitempty"`
	// RedirectedFrom is set when the requested id was renamed or moved.
	RedirectedFrom *Redirect `json:"redirected_from,omitempty"`
	// Cards are the spec cards linked to the symbol, to what encloses it or
	// to its file.
	Cards []LinkedCard `json:"cards,omitempty"`
	// FileBytes is the size of the defining file (what reading it would cost).
	FileBytes int64 `json:"-"`
}

// CardLimits bounds the lists of a card.
type CardLimits struct {
	Members int
	Calls   int
}

// Card builds the symbol card of a resolved symbol.
func (e *Engine) Card(ctx context.Context, r *Resolved, lim CardLimits) (*SymbolCard, error) {
	c := &SymbolCard{SymbolRef: r.Ref(), VersionID: fmt.Sprintf("ver_%016x", uint64(r.Row.Version)), Language: r.File.Lang,
		Visibility: lang.Visibility(r.Row.Visibility).String(), Members: []SymbolRef{}, Calls: []CallEdge{},
		Relations: []Relation{}, Layer: LayerSyntactic, Tier: index.TierProven.String(), Confidence: 1, FileEpoch: r.File.Epoch, FileBytes: r.File.Size,
		RedirectedFrom: r.Redirect}
	mods, err := e.moduleNames(ctx)
	if err != nil {
		return nil, err
	}
	c.Module = mods[r.Row.ModuleID]
	c.Build = BuildOf(r)
	if c.Guess = r.Guess; c.Guess != nil {
		c.Tier, c.Confidence = index.TierAnchored.String(), 0.5
		if c.Guess.Tied {
			c.Confidence = 1 / float64(c.Guess.Total)
		}
	}
	if c.Variants, err = e.VariantsOf(ctx, r); err != nil {
		return nil, err
	}
	if r.Def != nil {
		c.Signature, c.Doc = r.Def.Signature, r.Def.Doc
		c.Span = spanLoc(r.File.Path, r.Def.Span)
	}
	if r.Facts != nil && r.Facts.ParseErrors > 0 {
		c.ParseErrors = true
		c.Confidence = 0.8
	}
	if r.Facts != nil && r.Facts.Limits != 0 {
		c.Limits = r.Facts.Limits.String()
	}
	if r.Row.Parent != 0 {
		if prow, ok, err := e.symbolByID(ctx, r.Row.Parent); err == nil && ok {
			if pr, err := e.Load(ctx, prow); err == nil && pr != nil {
				ref := pr.Ref()
				c.Parent = &ref
			}
		}
	}
	if err := e.members(ctx, r, c, lim.Members); err != nil {
		return nil, err
	}
	v, err := e.Semantic(ctx)
	if err != nil {
		return nil, err
	}
	if r.Facts != nil {
		for _, t := range r.Facts.TypeRels {
			if int(t.Def) == r.Row.DefIdx {
				c.Relations = append(c.Relations, Relation{Kind: t.Kind.String(), Target: t.Target, Layer: LayerSyntactic})
			}
		}
	}
	if err := e.semanticCard(ctx, v, r, c, lim.Members); err != nil {
		return nil, err
	}
	c.RelationsTotal = len(c.Relations)
	if len(c.Relations) > lim.Members {
		c.Relations = c.Relations[:lim.Members]
	}
	c.Surfaces, c.SurfacesTotal = e.SurfacesIn(r, lim.Members)
	if r.Facts != nil {
		if err := e.calls(ctx, v, r, c, lim.Calls); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// semanticCard adds what the semantic layer knows: the layer that vouches
// for the definition, its SCIP symbols and their relationships.
func (e *Engine) semanticCard(ctx context.Context, v *SemView, r *Resolved, c *SymbolCard, limit int) error {
	if v.Empty() {
		return nil
	}
	syms, err := e.Store().SemSymbolsOfCairn(ctx, r.Row.ID)
	if err != nil || len(syms) == 0 {
		return err
	}
	for _, s := range syms {
		c.SCIPSymbols = append(c.SCIPSymbols, s.Symbol)
		if d, ok := v.byDoc[[2]int64{s.Index, s.DefDoc}]; ok && d.status.Usable {
			c.Layer, c.Tier = LayerSemantic, index.TierPrecise.String()
		}
	}
	if c.Layer != LayerSemantic {
		return nil // the file changed since: its relationships may be stale too
	}
	for _, s := range syms {
		for _, reverse := range []bool{false, true} {
			rels, err := e.Store().SemRels(ctx, s.Index, s.ID, reverse, limit)
			if err != nil {
				return err
			}
			for _, rel := range rels {
				other := rel.Target
				if reverse {
					other = rel.Sym
				}
				for _, kind := range semantic.RelNames(rel.Kinds) {
					name := map[string]string{"implementation": "implements", "type_definition": "type_definition",
						"reference": "references", "definition": "defines"}[kind]
					if reverse {
						if kind != "implementation" {
							continue
						}
						name = "implemented_by"
					}
					c.Relations = append(c.Relations, e.semRelation(ctx, s.Index, other, name))
				}
			}
		}
	}
	return nil
}

// semRelation names the other end of a relationship: the Cairn symbol it
// maps to, else its SCIP symbol.
func (e *Engine) semRelation(ctx context.Context, idx, sym int64, kind string) Relation {
	rel := Relation{Kind: kind, Layer: LayerSemantic}
	if ids, err := e.Store().SemCairnOf(ctx, idx, sym); err == nil && len(ids) > 0 {
		if row, ok, err := e.Store().SymbolByID(ctx, ids[0]); err == nil && ok {
			rel.Target, rel.TargetID = row.QName, protocol.NewSymbolID(row.ID)
			return rel
		}
	}
	if row, ok, err := e.Store().SemSymbol(ctx, idx, sym); err == nil && ok {
		rel.Target = row.Symbol
	}
	return rel
}

// calls groups the calls made inside a definition (including nested
// closures): the repository's symbols first, then the calls that leave the
// repository (standard library, dependencies), then those no layer
// resolves; most made first in each. Calls of the language's builtins are
// only counted.
func (e *Engine) calls(ctx context.Context, v *SemView, r *Resolved, c *SymbolCard, limit int) error {
	counts, tiers, builtins, err := e.countCalls(ctx, v, r)
	if err != nil {
		return err
	}
	c.BuiltinCalls = builtins
	keys := make([]callKey, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	group := func(k callKey) int {
		switch {
		case k.target != 0:
			return 0
		case k.external != "" || k.origin != "":
			return 1
		case tiers[k] == index.TierAnchored:
			return 2
		}
		return 3
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		return cmp.Or(cmp.Compare(group(a), group(b)), cmp.Compare(counts[b], counts[a]), cmp.Compare(a.name, b.name), cmp.Compare(a.recv, b.recv),
			cmp.Compare(a.external, b.external), cmp.Compare(a.target, b.target)) < 0
	})
	c.CallsTotal = len(keys)
	if len(keys) > limit {
		keys = keys[:limit]
	}
	for _, k := range keys {
		c.Calls = append(c.Calls, e.callEdge(ctx, k, counts[k], tiers[k]))
	}
	return nil
}

// callKey groups calls: by callee when one is known, else by name and
// receiver (and where the call goes, when it leaves the repository).
type callKey struct {
	name, recv  string
	target      int64
	external    string
	origin, imp string
}

// countCalls counts the calls made inside a definition by callee, with the
// tier of each: the semantic layer's target where it describes the file as
// it is, else the syntactic link, else the name and receiver, classified
// when the call leaves the repository. builtins counts the distinct
// builtins called.
func (e *Engine) countCalls(ctx context.Context, v *SemView, r *Resolved) (map[callKey]int, map[callKey]index.Tier, int, error) {
	links, err := e.Links(ctx, r.File.ID)
	if err != nil {
		return nil, nil, 0, err
	}
	var uses *DocUses
	if !v.Empty() {
		if uses, err = e.Uses(ctx, v, r.File.Path); err != nil {
			return nil, nil, 0, err
		}
	}
	out, err := e.Outside(ctx, r.File, r.Facts)
	if err != nil {
		return nil, nil, 0, err
	}
	inside := func(d int32) bool {
		for ; d >= 0; d = r.Facts.Defs[d].Parent {
			if int(d) == r.Row.DefIdx {
				return true
			}
		}
		return false
	}
	counts := map[callKey]int{}
	tiers := map[callKey]index.Tier{}
	builtins := map[string]bool{}
	for i, ref := range r.Facts.Refs {
		if ref.Role != lang.RoleCall || !inside(ref.Enclosing) {
			continue
		}
		k := callKey{name: r.Facts.Names[ref.Name]}
		tier := index.TierAnchored
		if o, ok := uses.at(ref.Pos); ok {
			if target, external, ok := e.SemTarget(ctx, uses.Index, o.Sym); ok {
				k.target, k.external = target, external
				if external != "" {
					k.origin = OriginExternal
				}
				counts[k]++
				tiers[k] = index.TierPrecise
				continue
			}
		}
		l, linked := links[i]
		if linked && l.Target != 0 {
			k.target, tier = l.Target, l.Tier
			counts[k]++
			tiers[k] = tier
			continue
		}
		k.recv = Receiver(r.Facts, ref)
		switch oc := out.Call(ref); {
		case oc.Builtin:
			builtins[k.name] = true
			continue
		case oc.Origin != "":
			k.origin, k.imp, tier = oc.Origin, oc.Import, index.TierStrong
		case linked: // resolved outside the repository
			k.imp, tier = oc.Import, index.TierUnknown
		case ref.BindLocal >= 0:
			tier = index.TierProven // a call through a local function value
		}
		counts[k]++
		tiers[k] = tier
	}
	return counts, tiers, len(builtins), nil
}

// callEdge describes one group of calls.
func (e *Engine) callEdge(ctx context.Context, k callKey, count int, tier index.Tier) CallEdge {
	if tier == index.TierAnchored {
		// anchored needs a same-name candidate; without one the callee is
		// outside the index (standard library, dependency, built-in)
		if ok, err := e.Store().NameDefined(ctx, k.name); err == nil && !ok {
			tier = index.TierUnknown
		}
	}
	edge := CallEdge{Name: k.name, Receiver: k.recv, Count: count, Tier: tier.String(), Layer: LayerSyntactic, External: k.external,
		Origin: k.origin, Import: k.imp}
	if tier == index.TierPrecise {
		edge.Layer = LayerSemantic
	}
	if k.target != 0 {
		if row, ok, err := e.Store().SymbolByID(ctx, k.target); err == nil && ok {
			if tr, err := e.Load(ctx, row); err == nil && tr != nil {
				ref := tr.Ref()
				edge.Target = &ref
			}
		}
	}
	return edge
}

// SemTarget maps a semantic occurrence's symbol to its Cairn symbol, or to
// its SCIP symbol when it is defined outside the repository; ok is false
// when it is defined here but not mapped (syntax answers then).
func (e *Engine) SemTarget(ctx context.Context, idx, sym int64) (int64, string, bool) {
	if ids, err := e.Store().SemCairnOf(ctx, idx, sym); err == nil && len(ids) > 0 {
		return ids[0], "", true
	}
	row, ok, err := e.Store().SemSymbol(ctx, idx, sym)
	if err != nil || !ok || row.DefDoc >= 0 {
		return 0, "", false
	}
	return 0, row.Symbol, true
}

// members lists a symbol's members on its card: from the index, or from
// the overlay file that defines it.
func (e *Engine) members(ctx context.Context, r *Resolved, c *SymbolCard, limit int) error {
	if r.File.ID < 0 {
		rows, err := e.ovRows(ctx, func(m store.SymbolRow) bool { return m.FileID == r.File.ID && m.Parent == r.Row.ID })
		if err != nil {
			return err
		}
		c.MembersTotal = len(rows)
		c.Members, err = e.SymbolRefs(ctx, rows[:min(len(rows), limit)])
		e.ov.Note("the card of %s comes from the overlay's syntax: calls to other files and relations are not linked", r.Row.QName)
		return err
	}
	owners := []int64{r.Row.ID}
	if l := lang.Of(r.File.Lang); l.PartialTypes != "" && lang.DefKind(r.Row.Kind).IsTypeLike() {
		parts, err := e.Variants(ctx, r) // the other parts of a partial type
		if err != nil {
			return err
		}
		for _, p := range parts {
			owners = append(owners, p.Row.ID)
		}
	}
	var members []store.SymbolRow
	c.MembersTotal = 0
	for _, id := range owners {
		if len(members) < limit {
			more, err := e.Store().SymbolsByParent(ctx, id, limit-len(members))
			if err != nil {
				return err
			}
			members = append(members, more...)
		}
		n, err := e.Store().CountSymbolsByParent(ctx, id)
		if err != nil {
			return err
		}
		c.MembersTotal += n
	}
	var err error
	c.Members, err = e.SymbolRefs(ctx, members)
	return err
}
