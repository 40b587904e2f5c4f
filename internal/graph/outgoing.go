package graph

import (
	"cmp"
	"context"
	"slices"
	"sort"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// outgoingCalls is what a node calls.
type outgoingCalls struct {
	calls      []call
	unresolved []UnresolvedCall
	dynamic    []DynamicCall
	external   []ExternalCall
	builtins   int // distinct builtins of the language called
}

// outgoing lists a node's calls (those whose innermost enclosing definition
// is the node): per call site the semantic layer's target when it describes
// the file as it is, else the syntactic link; calls of a function value, an
// interface method or a run-time name are dynamic; the rest are unresolved,
// grouped by name and receiver.
func (w *walker) outgoing(ctx context.Context, n *query.Resolved) (*outgoingCalls, error) {
	out := &outgoingCalls{}
	if n.Facts == nil || n.Def == nil {
		return out, nil
	}
	links, err := w.fileLinks(ctx, n.File.ID)
	if err != nil {
		return nil, err
	}
	var doc *query.DocUses
	if w.layer != query.LayerSyntactic {
		if doc, err = w.semDoc(ctx, n.File.Path); err != nil {
			return nil, err
		}
	} else {
		w.used.syn = true
	}
	if w.layer == query.LayerSemantic && doc == nil {
		return out, nil
	}
	cs := newCallSites(n, out)
	if cs.outside, err = w.e.Outside(ctx, n.File, n.Facts); err != nil {
		return nil, err
	}
	for i, ref := range n.Facts.Refs {
		if ref.Role != lang.RoleCall && !links[i].Runs || ref.Enclosing != cs.me || cs.runtime[ref.Pos] {
			continue
		}
		if err := w.callSite(ctx, cs, doc, links, i, ref); err != nil {
			return nil, err
		}
	}
	if err := w.countCandidates(ctx, out.unresolved); err != nil {
		return nil, err
	}
	cs.addRuntimeNames()
	out.calls = mergeCalls(out.calls)
	return out, nil
}

// callSites gathers one node's calls, grouping the dynamic, unresolved and
// external ones as they come.
type callSites struct {
	n       *query.Resolved
	out     *outgoingCalls
	me      int32              // the node's definition in its file's facts
	runtime map[lang.Pos]bool  // sites of calls of a name computed at run time
	unres   map[[2]string]int  // name, receiver -> index in out.unresolved
	dyn     map[dynamicKey]int // -> index in out.dynamic
	ext     map[string]int     // SCIP symbol, or name and receiver -> index in out.external
	outside *query.Outside     // classifies the calls that leave the repository
	builtin map[string]bool    // builtins called
}

type dynamicKey struct {
	kind, name, recv string
	through          int64
}

func newCallSites(n *query.Resolved, out *outgoingCalls) *callSites {
	cs := &callSites{n: n, out: out, me: int32(n.Row.DefIdx), runtime: map[lang.Pos]bool{}, unres: map[[2]string]int{},
		dyn: map[dynamicKey]int{}, ext: map[string]int{}, builtin: map[string]bool{}}
	for _, s := range n.Facts.Dynamic {
		if s.Enclosing == cs.me {
			cs.runtime[s.Pos] = true // listed as such, not as calls
		}
	}
	return cs
}

// callSite adds one call of the node: to the symbol a layer resolves it
// to, through a local value or an interface, or unresolved.
func (w *walker) callSite(ctx context.Context, cs *callSites, doc *query.DocUses, links map[int]index.Link, i int, ref lang.Ref) error {
	n, facts := cs.n, cs.n.Facts
	name := facts.Names[ref.Name]
	site := query.RefLoc(n.File.Path, ref.Pos, name)
	target, tier, layer, external := w.callTarget(ctx, doc, links, i, ref)
	if external != "" {
		cs.addExternal(external, site)
		return nil
	}
	if target != 0 {
		return w.resolvedCall(ctx, cs, target, tier, layer, site, name)
	}
	recv := query.Receiver(facts, ref)
	switch oc := cs.outside.Call(ref); {
	case oc.Builtin:
		if !cs.builtin[name] {
			cs.builtin[name] = true
			cs.out.builtins++
		}
		return nil
	case oc.Origin != "":
		cs.addOutside(name, recv, oc, site)
		return nil
	case linkedOutside(links, i):
		// the linker knows the receiver's type is a dependency's (t.Errorf
		// on t *testing.T), though no import qualifies the call
		cs.addOutside(name, recv, query.OutsideCall{Origin: "external"}, site)
		return nil
	}
	if ref.BindLocal >= 0 {
		d := DynamicCall{From: n.ID(), Kind: "value", Name: name, Count: 1, Line: site.Line, Candidates: []query.SymbolRef{},
			Tier: index.TierProven.String(), Layer: query.LayerSyntactic}
		if err := w.localCandidates(ctx, n, ref.BindLocal, &d); err != nil {
			return err
		}
		cs.addDynamic(dynamicKey{"value", name, "", 0}, d)
		return nil
	}
	if d, ok, err := w.interfaceCall(ctx, n, ref, name, site); err != nil {
		return err
	} else if ok {
		cs.addDynamic(dynamicKey{"interface", name, recv, throughID(d)}, *d)
		return nil
	}
	cs.addUnresolved(name, recv, site)
	return nil
}

// callTarget is the symbol a call resolves to (0: none) with its tier and
// layer: the semantic layer's target where it describes the file, else the
// syntactic link; external is the SCIP symbol of a target outside the
// repository.
func (w *walker) callTarget(ctx context.Context, doc *query.DocUses, links map[int]index.Link, i int, ref lang.Ref) (target int64, tier index.Tier, layer, external string) {
	tier, layer = index.TierUnknown, query.LayerSyntactic
	if doc != nil {
		if o, ok := doc.At[ref.Pos]; ok {
			t, ext, ok := w.e.SemTarget(ctx, doc.Index, o.Sym)
			switch {
			case ok && ext != "":
				return 0, tier, layer, ext
			case ok:
				target, tier, layer = t, index.TierPrecise, query.LayerSemantic
			}
		}
	}
	if target == 0 && w.layer != query.LayerSemantic {
		if l, ok := links[i]; ok {
			target, tier = l.Target, l.Tier
		}
	}
	return target, tier, layer, ""
}

// resolvedCall adds a call whose target is known: an edge (and one to each
// build variant of the callee), or a dynamic call when the target holds a
// function or is an interface method.
func (w *walker) resolvedCall(ctx context.Context, cs *callSites, target int64, tier index.Tier, layer string, site protocol.Location, name string) error {
	c, d, ok, err := w.classify(ctx, cs.n, target, tier, layer, site)
	if err != nil || !ok {
		return err
	}
	if d != nil {
		cs.addDynamic(dynamicKey{d.Kind, name, "", throughID(d)}, *d)
	}
	if c.other == 0 {
		return nil
	}
	cs.out.calls = append(cs.out.calls, c)
	// Build variants of the callee: the build decides which runs.
	vars, err := w.variantRows(ctx, c.other)
	if err != nil {
		return err
	}
	for _, v := range vars {
		if v.ID == c.other {
			continue
		}
		vc := c
		vc.other = v.ID
		if f, err := w.file(ctx, w.idx.syms[c.other].FileID); err == nil && f != nil {
			vc.via = f.Path
		}
		cs.out.calls = append(cs.out.calls, vc)
	}
	return nil
}

// throughID is the id of the symbol a dynamic call goes through (0: none).
func throughID(d *DynamicCall) int64 {
	var th int64
	if d.Through != nil {
		th, _ = d.Through.ID.Hash()
	}
	return th
}

func (cs *callSites) addDynamic(k dynamicKey, d DynamicCall) {
	if i, ok := cs.dyn[k]; ok {
		cs.out.dynamic[i].Count++
		return
	}
	cs.dyn[k] = len(cs.out.dynamic)
	cs.out.dynamic = append(cs.out.dynamic, d)
}

func (cs *callSites) addExternal(symbol string, site protocol.Location) {
	if j, seen := cs.ext[symbol]; seen {
		cs.out.external[j].Count++
		return
	}
	cs.ext[symbol] = len(cs.out.external)
	cs.out.external = append(cs.out.external, ExternalCall{From: cs.n.ID(), Symbol: symbol, Count: 1, Line: site.Line})
}

// addOutside adds a call syntax sees leaving the repository through an import.
func (cs *callSites) addOutside(name, recv string, oc query.OutsideCall, site protocol.Location) {
	k := "\x00" + recv + "\x00" + name
	if j, seen := cs.ext[k]; seen {
		cs.out.external[j].Count++
		return
	}
	cs.ext[k] = len(cs.out.external)
	cs.out.external = append(cs.out.external, ExternalCall{From: cs.n.ID(), Name: name, Receiver: recv, Origin: oc.Origin, Import: oc.Import,
		Count: 1, Line: site.Line})
}

func (cs *callSites) addUnresolved(name, recv string, site protocol.Location) {
	k := [2]string{name, recv}
	if j, ok := cs.unres[k]; ok {
		cs.out.unresolved[j].Count++
		return
	}
	cs.unres[k] = len(cs.out.unresolved)
	cs.out.unresolved = append(cs.out.unresolved, UnresolvedCall{From: cs.n.ID(), Name: name, Receiver: recv, Count: 1, Line: site.Line})
}

// addRuntimeNames adds the calls of a name computed at run time (obj[name](),
// getattr, reflection, eval): dynamic, with no candidates.
func (cs *callSites) addRuntimeNames() {
	n := cs.n
	for _, s := range n.Facts.Dynamic {
		if s.Enclosing != cs.me {
			continue
		}
		site := protocol.Location{Path: protocol.RepoPath(n.File.Path), Line: int(s.Pos.Line), Col: int(s.Pos.Col),
			EndLine: int(s.Pos.Line), EndCol: int(s.Pos.Col) + len(s.Text)}
		cs.out.dynamic = append(cs.out.dynamic, DynamicCall{From: n.ID(), Kind: s.Kind.String(), Count: 1, Line: site.Line, Text: s.Text,
			Candidates: []query.SymbolRef{}, Tier: index.TierUnknown.String(), Layer: query.LayerSyntactic})
	}
}

// countCandidates says, for each unresolved call, how many symbols of the
// repository bear its name: anchored when some do, unknown when none.
func (w *walker) countCandidates(ctx context.Context, unresolved []UnresolvedCall) error {
	for i := range unresolved {
		u := &unresolved[i]
		n, err := w.sameName(ctx, u.Name)
		if err != nil {
			return err
		}
		u.Candidates, u.Tier = n, index.TierAnchored.String()
		if n == 0 {
			u.Tier = index.TierUnknown.String()
		}
	}
	return nil
}

// classify turns a resolved call target into an edge, or into a dynamic
// call when the target is a value (a field or variable holding a function)
// or an interface method. ok is false when the target vanished.
func (w *walker) classify(ctx context.Context, n *query.Resolved, target int64, tier index.Tier, layer string, site protocol.Location) (call, *DynamicCall, bool, error) {
	rows, err := w.symbols(ctx, []int64{target})
	if err != nil {
		return call{}, nil, false, err
	}
	row, ok := rows[target]
	if !ok {
		return call{}, nil, false, nil
	}
	k := lang.DefKind(row.Kind)
	if kind, dyn := dynamicKind(k); dyn {
		t, err := w.resolved(ctx, row)
		if err != nil || t == nil {
			return call{}, nil, false, err
		}
		ref := t.Ref()
		d := &DynamicCall{From: n.ID(), Kind: kind, Name: row.Name, Count: 1, Line: site.Line, Through: &ref, Candidates: []query.SymbolRef{},
			Tier: tier.String(), Layer: layer}
		if err := w.assignedCandidates(ctx, t, d); err != nil {
			return call{}, nil, false, err
		}
		return call{}, d, true, nil
	}
	if k == lang.KindMethod && row.Parent != 0 {
		if iface, err := w.interfaceOf(ctx, row.Parent); err != nil {
			return call{}, nil, false, err
		} else if iface != nil {
			t, err := w.resolved(ctx, row)
			if err != nil || t == nil {
				return call{}, nil, false, err
			}
			ref := t.Ref()
			d := &DynamicCall{From: n.ID(), Kind: "interface", Name: row.Name, Count: 1, Line: site.Line, Through: &ref, Candidates: []query.SymbolRef{},
				Tier: tier.String(), Layer: layer}
			if err := w.implementationCandidates(ctx, iface, row.ID, row.Name, d); err != nil {
				return call{}, nil, false, err
			}
			return call{}, d, true, nil
		}
	}
	language := n.File.Lang
	if f, err := w.file(ctx, row.FileID); err == nil && f != nil {
		language = f.Lang
	}
	c := call{other: target, count: 1, tier: tier, layer: layer, kind: callKind(language, k), site: site}
	if k != lang.KindMethod || row.Parent == 0 || lang.Of(language).Dispatch == lang.DispatchMethodSet {
		return c, nil, true, nil
	}
	// A method of a class (not of a type whose methods only interfaces
	// dispatch to, as Go's): subclasses may override it, and the call runs
	// whichever the receiver's class has. The edge stays; the overrides are
	// listed as what may run instead.
	over, err := w.overrides(ctx, row)
	if err != nil || len(over) == 0 {
		return c, nil, err == nil, err
	}
	t, err := w.resolved(ctx, row)
	if err != nil || t == nil {
		return c, nil, err == nil, err
	}
	ref := t.Ref()
	d := &DynamicCall{From: n.ID(), Kind: "virtual", Name: row.Name, Count: 1, Line: site.Line, Through: &ref, Candidates: []query.SymbolRef{},
		Tier: tier.String(), Layer: layer}
	refs, err := w.refsOf(ctx, append([]int64{row.ID}, over...))
	if err != nil {
		return c, nil, false, err
	}
	setCandidates(d, refs, "overrides")
	return c, d, true, nil
}

// overrides lists the methods of the same name declared on the subtypes of
// a method's class (transitively): what a call of it may run instead.
func (w *walker) overrides(ctx context.Context, m store.SymbolRow) ([]int64, error) {
	if o, ok := w.types.over[m.ID]; ok {
		return o, nil
	}
	parents, err := w.symbols(ctx, []int64{m.Parent})
	if err != nil {
		return nil, err
	}
	owner, ok := parents[m.Parent]
	var out []int64
	if ok && lang.DefKind(owner.Kind).IsTypeLike() {
		// Subclasses, not implementations: an interface method has no body to override.
		subclasses := func(it typeStep) ([]typeEdge, error) {
			subs, err := w.subtypes(ctx, it.row)
			return slices.DeleteFunc(subs, func(s typeEdge) bool { return s.kind == index.EdgeImplements }), err
		}
		err := w.relatedMethods(ctx, owner, m, subclasses, func(mm store.SymbolRow) error {
			out = append(out, mm.ID)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	w.types.over[m.ID] = out
	return out, nil
}

// nameCache keeps what a walk looked up by name.
type nameCache struct {
	defined  map[string]int               // name -> same-name symbols in the repository
	variants map[string][]store.SymbolRow // qualified name -> its definitions
}

func newNameCache() nameCache {
	return nameCache{defined: map[string]int{}, variants: map[string][]store.SymbolRow{}}
}

// sameName counts the symbols of the repository with a name (cached).
func (w *walker) sameName(ctx context.Context, name string) (int, error) {
	return memo(w.names.defined, name, func() (int, error) {
		rows, err := w.e.SymbolsByName(ctx, name)
		return len(rows), err
	})
}

// maxCandidates bounds the candidates listed for one dynamic call.
const maxDynCandidates = 10

// setCandidates fills a dynamic call's candidates (sorted, capped).
func setCandidates(d *DynamicCall, refs []query.SymbolRef, from string) {
	sort.Slice(refs, func(i, j int) bool {
		return cmp.Or(cmp.Compare(refs[i].QName, refs[j].QName), cmp.Compare(refs[i].ID, refs[j].ID)) < 0
	})
	refs = slices.CompactFunc(refs, func(a, b query.SymbolRef) bool { return a.ID == b.ID })
	d.CandidatesTotal = len(refs)
	if len(refs) > maxDynCandidates {
		refs = refs[:maxDynCandidates]
	}
	d.Candidates = append(d.Candidates[:0], refs...)
	if len(refs) > 0 {
		d.CandidatesFrom = from
	}
}

// node describes a walked symbol: its build constraint and variants.
func (w *walker) node(ctx context.Context, r *query.Resolved, depth int) (Node, error) {
	n := Node{SymbolRef: r.Ref(), Depth: depth, Build: query.BuildOf(r)}
	vars, err := w.variantsOf(ctx, r)
	if err != nil {
		return n, err
	}
	for _, v := range vars {
		if v.ID == r.Row.ID {
			continue
		}
		vr, err := w.resolved(ctx, v)
		if err != nil {
			return n, err
		}
		if vr != nil {
			n.Variants = append(n.Variants, query.VariantOf(r, vr))
		}
	}
	sort.Slice(n.Variants, func(i, j int) bool { return query.LessLoc(n.Variants[i].Location, n.Variants[j].Location) })
	return n, nil
}

// variantsOf lists every definition of a symbol's qualified name (itself
// included) when it has several: Go build-tag and platform variants,
// conditional definitions.
func (w *walker) variantsOf(ctx context.Context, r *query.Resolved) ([]store.SymbolRow, error) {
	return w.variantsOfRow(ctx, r.Row)
}

// variantRows is variantsOf for a symbol id (nil when it has no variants).
func (w *walker) variantRows(ctx context.Context, id int64) ([]store.SymbolRow, error) {
	row, ok, err := w.row(ctx, id)
	if err != nil || !ok {
		return nil, err
	}
	return w.variantsOfRow(ctx, row)
}

func (w *walker) variantsOfRow(ctx context.Context, r store.SymbolRow) ([]store.SymbolRow, error) {
	if lang.RepeatableAnywhere(r.Name) {
		// A name a package may declare any number of times (Go's _ and
		// init) is its own symbol each time, never a variant of another.
		if f, err := w.file(ctx, r.FileID); err != nil || (f != nil && lang.Of(f.Lang).Repeatable(r.Name)) {
			return nil, err
		}
	}
	if !lang.DefKind(r.Kind).IsTypeLike() {
		// same-named functions are overloads, each its own, where the language has them
		if f, err := w.file(ctx, r.FileID); err != nil || (f != nil && lang.Of(f.Lang).Overloads) {
			return nil, err
		}
	}
	qn := r.QName
	rows, ok := w.names.variants[qn]
	if !ok {
		var err error
		if rows, err = w.e.SymbolsByQName(ctx, qn); err != nil {
			return nil, err
		}
		w.names.variants[qn] = rows
	}
	if len(rows) < 2 {
		return w.declaredApart(ctx, r)
	}
	var out []store.SymbolRow
	for _, row := range rows {
		if row.Kind == r.Kind {
			out = append(out, row)
		}
	}
	if len(out) < 2 {
		return w.declaredApart(ctx, r)
	}
	return out, nil
}

// declaredApart is the function r with its declarations and definitions
// in other files (query.Engine.DeclaredApart: a C prototype in a header),
// nil when it has none: one function, whose callers call any of them.
func (w *walker) declaredApart(ctx context.Context, r store.SymbolRow) ([]store.SymbolRow, error) {
	if f, err := w.file(ctx, r.FileID); err != nil || f == nil || len(lang.Of(f.Lang).Headers) == 0 {
		return nil, err // the walk's file cache answers for most languages
	}
	others, err := w.e.DeclaredApart(ctx, r)
	if err != nil || len(others) == 0 {
		return nil, err
	}
	return append([]store.SymbolRow{r}, others...), nil
}

// linkedOutside reports whether the syntactic layer linked reference i as
// outside the repository (no target, tier unknown).
func linkedOutside(links map[int]index.Link, i int) bool {
	l, ok := links[i]
	return ok && l.Target == 0 && l.Tier == index.TierUnknown
}
