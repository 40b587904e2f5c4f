package graph

import (
	"context"
	"sort"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
)

// refAt finds the reference at a position in a file's facts (refs are
// in source order), or -1.
func refAt(f *lang.Facts, p lang.Pos) int {
	i := sort.Search(len(f.Refs), func(i int) bool { return !f.Refs[i].Pos.Before(p) })
	if i < len(f.Refs) && f.Refs[i].Pos == p {
		return i
	}
	return -1
}

// incoming lists the callers of a node: the syntactic edges into it (and
// into the other variants of its name, and, for a constructor, into its
// class), replaced per file by the semantic layer's call sites where it
// describes the file as it is.
func (w *walker) incoming(ctx context.Context, n *query.Resolved) ([]call, error) {
	targets := []int64{n.Row.ID}
	via := map[int64]string{}
	vars, err := w.variantsOf(ctx, n)
	if err != nil {
		return nil, err
	}
	for _, v := range vars {
		if v.ID != n.Row.ID {
			targets = append(targets, v.ID)
			if f, err := w.file(ctx, v.FileID); err == nil && f != nil {
				via[v.ID] = f.Path
			}
		}
	}
	if isConstructor(n) && n.Row.Parent != 0 {
		targets = append(targets, n.Row.Parent) // Foo() instantiates Foo and runs its constructor
	}
	var out []call
	if w.layer != query.LayerSemantic {
		for _, t := range targets {
			edges, err := w.e.Store().EdgesTo(ctx, t, uint8(index.EdgeCall))
			if err != nil {
				return nil, err
			}
			if err := w.loadFiles(ctx, idsOf(edges, func(ed store.EdgeRow) int64 { return ed.FileID })); err != nil {
				return nil, err
			}
			for _, ed := range edges {
				f, err := w.file(ctx, ed.FileID)
				if err != nil {
					return nil, err
				}
				if f == nil {
					continue
				}
				if w.usable(f.Path) {
					w.used.sem = true
					continue // the semantic layer answers for this file
				}
				if w.v != nil {
					w.note(f.Path, false)
				} else {
					w.used.syn = true
				}
				out = append(out, call{other: ed.Src, count: ed.Count, tier: index.Tier(ed.Tier), layer: query.LayerSyntactic,
					kind: w.kindOf(n, t), site: siteLoc(f.Path, ed.Line, ed.Col), via: via[t]})
			}
		}
	}
	if w.v != nil {
		sem, err := w.semanticCallers(ctx, n, false)
		if err != nil {
			return nil, err
		}
		out = append(out, sem...)
	}
	return mergeCalls(out), nil
}

// kindOf names a call into target made while walking to node n.
func (w *walker) kindOf(n *query.Resolved, target int64) string {
	if target == n.Row.Parent && target != 0 && isConstructor(n) {
		return "instantiate"
	}
	return callKind(n.File.Lang, lang.DefKind(n.Row.Kind))
}

func isConstructor(n *query.Resolved) bool {
	k := lang.DefKind(n.Row.Kind)
	return k == lang.KindConstructor || (k == lang.KindMethod && (n.Row.Name == "__init__" || n.Row.Name == "constructor"))
}

func siteLoc(path string, line, col int) protocol.Location {
	return protocol.Location{Path: protocol.RepoPath(path), Line: line, Col: col, EndLine: line, EndCol: col}
}

// mergeCalls folds calls to the same neighbour with the same kind and layer.
func mergeCalls(cs []call) []call {
	type key struct {
		other       int64
		kind, layer string
	}
	at := map[key]int{}
	var out []call
	for _, c := range cs {
		k := key{c.other, c.kind, c.layer}
		if i, ok := at[k]; ok {
			o := &out[i]
			o.count += c.count
			if c.tier < o.tier {
				o.tier = c.tier
			}
			if query.LessLoc(c.site, o.site) {
				o.site = c.site
			}
			continue
		}
		at[k] = len(out)
		out = append(out, c)
	}
	return out
}

// semanticCallers finds the callers of a node among the semantic layer's
// occurrences of its symbols: an occurrence that syntax sees as a call,
// enclosed by a definition. related selects the occurrences reached
// through related symbols (interface methods it implements) instead.
func (w *walker) semanticCallers(ctx context.Context, n *query.Resolved, related bool) ([]call, error) {
	_, occs, err := w.e.SemanticOccs(ctx, w.v, n.Row.ID)
	if err != nil {
		return nil, err
	}
	var out []call
	for _, o := range occs {
		if !o.Usable || (o.Via != "") != related || o.Roles&semantic.RoleDefinition != 0 {
			continue
		}
		if w.layer == query.LayerSyntactic {
			continue
		}
		caller, site, ok, err := w.callerAt(ctx, o.Path, lang.Pos{Line: o.Line, Col: o.Col})
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		w.used.sem = true
		out = append(out, call{other: caller, count: 1, tier: index.TierPrecise, layer: query.LayerSemantic, kind: callKind(n.File.Lang, lang.DefKind(n.Row.Kind)),
			site: site, via: o.Via})
	}
	return out, nil
}

// callerAt finds the symbol making the call at a position: the innermost
// definition enclosing a syntactic call reference there.
func (w *walker) callerAt(ctx context.Context, path string, p lang.Pos) (int64, protocol.Location, bool, error) {
	f, ok := w.v.FileRow(protocol.RepoPath(path))
	if !ok {
		return 0, protocol.Location{}, false, nil
	}
	facts, err := w.e.Index().Facts(ctx, f.BlobID)
	if err != nil || facts == nil {
		return 0, protocol.Location{}, false, err
	}
	i := refAt(facts, p)
	if i < 0 || facts.Refs[i].Role != lang.RoleCall || facts.Refs[i].Enclosing < 0 {
		return 0, protocol.Location{}, false, nil
	}
	own, err := w.ownSymbols(ctx, f.ID)
	if err != nil {
		return 0, protocol.Location{}, false, err
	}
	enc := facts.Refs[i].Enclosing
	if int(enc) >= len(own) {
		return 0, protocol.Location{}, false, nil
	}
	return own[enc].ID, siteLoc(path, int(p.Line), int(p.Col)), true, nil
}

// dynamicCallers lists the calls through the interface methods a node
// implements (from the semantic layer's relationships): each may reach it.
func (w *walker) dynamicCallers(ctx context.Context, n *query.Resolved) ([]DynamicCall, error) {
	out, err := w.virtualCallers(ctx, n)
	if err != nil || w.v == nil || w.layer == query.LayerSyntactic {
		return out, err
	}
	calls, err := w.semanticCallers(ctx, n, true)
	if err != nil || len(calls) == 0 {
		return out, err
	}
	self := n.Ref()
	type key struct {
		from int64
		via  string
	}
	at := map[key]int{}
	for _, c := range calls {
		k := key{c.other, c.via}
		if i, ok := at[k]; ok {
			out[i].Count++
			continue
		}
		at[k] = len(out)
		d := DynamicCall{From: index.FormatID(c.other), Kind: "interface", Name: n.Row.Name, Count: 1, Line: c.site.Line,
			Candidates: []query.SymbolRef{self}, CandidatesTotal: 1, CandidatesFrom: "semantic", Tier: index.TierPrecise.String(), Layer: query.LayerSemantic}
		if th := semSymbolRef(ctx, w.e, c.via); th != nil {
			d.Through = th
		}
		out = append(out, d)
	}
	return out, nil
}

// virtualCallers lists the calls of the methods a method overrides (the
// same name on its class's base classes, transitively): each may run it
// when the receiver is an instance of its class (syntax; not Go, which has
// no overriding).
func (w *walker) virtualCallers(ctx context.Context, n *query.Resolved) ([]DynamicCall, error) {
	if lang.DefKind(n.Row.Kind) != lang.KindMethod || n.Row.Parent == 0 || n.File.Lang == "go" || w.layer == query.LayerSemantic {
		return nil, nil
	}
	owner, err := w.resolveID(ctx, n.Row.Parent)
	if err != nil || owner == nil || !lang.DefKind(owner.Row.Kind).IsTypeLike() {
		return nil, err
	}
	self := n.Ref()
	var out []DynamicCall
	supers := func(it typeStep) ([]typeEdge, error) {
		supers, _, err := w.supertypes(ctx, it.row, false)
		return supers, err
	}
	err = w.relatedMethods(ctx, owner.Row, n.Row.Name, supers, func(m store.SymbolRow) error {
		base, err := w.resolved(ctx, m)
		if err != nil {
			return err
		}
		if base == nil {
			return errVanished
		}
		through := base.Ref()
		edges, err := w.e.Store().EdgesTo(ctx, m.ID, uint8(index.EdgeCall))
		if err != nil {
			return err
		}
		for _, ed := range edges {
			out = append(out, DynamicCall{From: index.FormatID(ed.Src), Kind: "virtual", Name: n.Row.Name, Count: ed.Count, Line: ed.Line,
				Through: &through, Candidates: []query.SymbolRef{self}, CandidatesTotal: 1, CandidatesFrom: "overrides",
				Tier: index.Tier(ed.Tier).String(), Layer: query.LayerSyntactic})
		}
		return nil
	})
	if err == errVanished {
		return nil, nil // a base method's file is gone: no answer rather than half of one
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// semSymbolRef names a SCIP symbol as a Cairn symbol when one is mapped to it.
func semSymbolRef(ctx context.Context, e *query.Engine, symbol string) *query.SymbolRef {
	rows, err := e.Store().SemSymbols(ctx, semantic.SymbolID(symbol))
	if err != nil {
		return nil
	}
	for _, r := range rows {
		if r.Symbol != symbol {
			continue
		}
		if ids, err := e.Store().SemCairnOf(ctx, r.Index, r.ID); err == nil && len(ids) > 0 {
			if row, ok, err := e.Store().SymbolByID(ctx, ids[0]); err == nil && ok {
				if res, err := e.Load(ctx, row); err == nil && res != nil {
					ref := res.Ref()
					return &ref
				}
			}
		}
	}
	return &query.SymbolRef{Name: lastDescriptor(symbol), QName: symbol, Kind: "external"}
}

// lastDescriptor is a SCIP symbol's last name (Read in .../Reader#Read().).
func lastDescriptor(symbol string) string {
	if g := semantic.NameGuesses(symbol); len(g) > 0 {
		return g[0]
	}
	return symbol
}
