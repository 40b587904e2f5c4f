package query

import (
	"context"
	"fmt"
	"sort"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
)

// CallEdge is an outgoing call from a symbol, grouped by callee.
type CallEdge struct {
	Name     string     `json:"name"`
	Receiver string     `json:"receiver,omitempty"` // qualifier shape and text, for unresolved calls
	Count    int        `json:"count"`
	Tier     string     `json:"tier"`
	Target   *SymbolRef `json:"target,omitempty"`
}

// Relation is a type relation of a symbol.
type Relation struct {
	Kind   string `json:"kind"` // extends, implements, embeds
	Target string `json:"target"`
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
	Relations    []Relation        `json:"relations"`
	Layer        string            `json:"layer"`
	Confidence   float64           `json:"confidence"`
	FileEpoch    int64             `json:"file_epoch"`
	ParseErrors  bool              `json:"parse_errors,omitempty"`
	// RedirectedFrom is set when the requested id was renamed or moved.
	RedirectedFrom *Redirect `json:"redirected_from,omitempty"`
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
	c := &SymbolCard{SymbolRef: r.ref(), VersionID: fmt.Sprintf("ver_%016x", uint64(r.row.Version)), Language: r.file.Lang,
		Visibility: lang.Visibility(r.row.Visibility).String(), Members: []SymbolRef{}, Calls: []CallEdge{},
		Relations: []Relation{}, Layer: "syntactic", Confidence: 1, FileEpoch: r.file.Epoch, FileBytes: r.file.Size,
		RedirectedFrom: r.Redirect}
	mods, err := e.moduleNames(ctx)
	if err != nil {
		return nil, err
	}
	c.Module = mods[r.row.ModuleID]
	if r.def != nil {
		c.Signature, c.Doc = r.def.Signature, r.def.Doc
		c.Span = spanLoc(r.file.Path, r.def.Span)
	}
	if r.facts != nil && r.facts.ParseErrors > 0 {
		c.ParseErrors = true
		c.Confidence = 0.8
	}
	if r.row.Parent != 0 {
		if prow, ok, err := e.db.SymbolByID(ctx, r.row.Parent); err == nil && ok {
			if pr, err := e.load(ctx, prow); err == nil && pr != nil {
				ref := pr.ref()
				c.Parent = &ref
			}
		}
	}
	members, err := e.db.SymbolsByParent(ctx, r.row.ID, lim.Members)
	if err != nil {
		return nil, err
	}
	if c.Members, err = e.refs(ctx, members); err != nil {
		return nil, err
	}
	if c.MembersTotal, err = e.db.CountSymbolsByParent(ctx, r.row.ID); err != nil {
		return nil, err
	}
	if r.facts != nil {
		for _, t := range r.facts.TypeRels {
			if int(t.Def) == r.row.DefIdx {
				c.Relations = append(c.Relations, Relation{Kind: t.Kind.String(), Target: t.Target})
			}
		}
		if err := e.calls(ctx, r, c, lim.Calls); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// calls groups the calls made inside a definition (including nested closures).
func (e *Engine) calls(ctx context.Context, r *Resolved, c *SymbolCard, limit int) error {
	links, err := e.links(ctx, r.file.ID)
	if err != nil {
		return err
	}
	inside := func(d int32) bool {
		for ; d >= 0; d = r.facts.Defs[d].Parent {
			if int(d) == r.row.DefIdx {
				return true
			}
		}
		return false
	}
	type key struct {
		name, recv string
		target     int64
	}
	counts := map[key]int{}
	tiers := map[key]index.Tier{}
	for i, ref := range r.facts.Refs {
		if ref.Role != lang.RoleCall || !inside(ref.Enclosing) {
			continue
		}
		k := key{name: r.facts.Names[ref.Name]}
		tier := index.TierAnchored
		if l, ok := links[i]; ok {
			k.target, tier = l.Target, l.Tier
		} else {
			if ref.Shape != lang.QualNone {
				k.recv = shapeKey(r.facts, ref)
			}
			if ref.BindLocal >= 0 {
				tier = index.TierProven // a call through a local function value
			}
		}
		counts[k]++
		tiers[k] = tier
	}
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if counts[a] != counts[b] {
			return counts[a] > counts[b]
		}
		if a.name != b.name {
			return a.name < b.name
		}
		if a.recv != b.recv {
			return a.recv < b.recv
		}
		return a.target < b.target
	})
	c.CallsTotal = len(keys)
	if len(keys) > limit {
		keys = keys[:limit]
	}
	for _, k := range keys {
		tier := tiers[k]
		if tier == index.TierAnchored {
			// anchored needs a same-name candidate; without one the callee is
			// outside the index (standard library, dependency, built-in)
			if ok, err := e.db.NameDefined(ctx, k.name); err == nil && !ok {
				tier = index.TierUnknown
			}
		}
		edge := CallEdge{Name: k.name, Receiver: k.recv, Count: counts[k], Tier: tier.String()}
		if k.target != 0 {
			if row, ok, err := e.db.SymbolByID(ctx, k.target); err == nil && ok {
				if tr, err := e.load(ctx, row); err == nil && tr != nil {
					ref := tr.ref()
					edge.Target = &ref
				}
			}
		}
		c.Calls = append(c.Calls, edge)
	}
	return nil
}
