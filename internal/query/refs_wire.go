package query

import (
	"cmp"
	"encoding/json"
)

// The wire form of refs_find's answer (schema 2) states nothing twice
// (Compact): a field every listed location has with the same value
// (kind, tier, layer) is stated once in uniform and left out of each
// location; the summary counts by tier, kind, layer and file only when
// locations does not hold every reference (a later page, or more to come):
// otherwise the list says it; the layers are the provenance's; anchored
// exemplars are all of tier anchored and of the syntactic layer. The
// location object itself (path, line, col, end_line, end_col) stays whole.

// Uniform holds the fields every location of a list shares.
type Uniform struct {
	Kind  string `json:"kind,omitempty"`
	Tier  string `json:"tier,omitempty"`
	Layer string `json:"layer,omitempty"`
}

// Compact turns a result into its wire form, in place; the answer line
// and the checks that read the counts run before it. UnmarshalJSON reads
// the wire form back whole, but for the counts left out.
func (r *RefsResult) Compact() {
	r.Uniform = hoist(r.Locations)
	r.Summary.Anchored = r.AnchoredTotal
	delete(r.Summary.ByTier, "anchored")
	if r.NextOffset == len(r.Locations) && !r.More { // the page holds every reference
		r.Summary.ByTier, r.Summary.ByKind, r.Summary.ByLayer = nil, nil, nil
		for i := range r.Summary.ByModule {
			r.Summary.ByModule[i].Files = nil
		}
	}
	for _, g := range r.Anchored {
		for i := range g.Exemplars {
			g.Exemplars[i].Tier, g.Exemplars[i].Layer = "", ""
		}
	}
}

// hoist states the fields all locations share once, emptying them on each
// (nil for an empty list, or when none is shared).
func hoist(locs []RefLocation) *Uniform {
	if len(locs) == 0 {
		return nil
	}
	u := Uniform{Kind: locs[0].Kind, Tier: locs[0].Tier, Layer: locs[0].Layer}
	for _, l := range locs[1:] {
		if l.Kind != u.Kind {
			u.Kind = ""
		}
		if l.Tier != u.Tier {
			u.Tier = ""
		}
		if l.Layer != u.Layer {
			u.Layer = ""
		}
	}
	if u == (Uniform{}) {
		return nil
	}
	for i := range locs {
		l := &locs[i]
		if u.Kind != "" {
			l.Kind = ""
		}
		if u.Tier != "" {
			l.Tier = ""
		}
		if u.Layer != "" {
			l.Layer = ""
		}
	}
	return &u
}

// Field reads a location's kind, tier and layer, from uniform when the
// location leaves them out.
func (u *Uniform) Field(l RefLocation) (kind, tier, layer string) {
	if u == nil {
		return l.Kind, l.Tier, l.Layer
	}
	return cmp.Or(l.Kind, u.Kind), cmp.Or(l.Tier, u.Tier), cmp.Or(l.Layer, u.Layer)
}

// refsResultWire is RefsResult without its methods.
type refsResultWire RefsResult

// UnmarshalJSON reads the wire form back (Go clients): the uniform fields
// go back on each location, tier and layer on the anchored exemplars.
func (r *RefsResult) UnmarshalJSON(b []byte) error {
	var w refsResultWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = RefsResult(w)
	for i := range r.Locations {
		l := &r.Locations[i]
		l.Kind, l.Tier, l.Layer = r.Uniform.Field(*l)
	}
	r.Uniform = nil
	for _, g := range r.Anchored {
		for i := range g.Exemplars {
			g.Exemplars[i].Tier, g.Exemplars[i].Layer = "anchored", LayerSyntactic
		}
	}
	r.AnchoredTotal = r.Summary.Anchored
	return nil
}
