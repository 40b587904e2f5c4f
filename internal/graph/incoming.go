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
	// calls that syntax could not tell between overloads stay with the
	// first of them: candidates for the others that take as many arguments
	unsure := int64(0)
	ov, err := w.e.Overloads(ctx, n)
	if err != nil {
		return nil, err
	} else if ov != nil && ov.First != n.Row.ID && ov.Shared(n.Row.ID) {
		unsure = ov.First
		targets = append(targets, unsure)
	}
	var out []call
	if w.layer != query.LayerSemantic {
		for _, t := range targets {
			edges, err := w.e.EdgesTo(ctx, t, uint8(index.EdgeCall))
			if err != nil {
				return nil, err
			}
			name := n.Row.Name // the name called: the class's for a constructor
			if t == n.Row.Parent && t != n.Row.ID {
				if row, ok, err := w.row(ctx, t); err != nil {
					return nil, err
				} else if ok {
					name = row.Name
				}
			}
			files, err := w.edgeFiles(ctx, edges)
			if err != nil {
				return nil, err
			}
			for i, ed := range edges {
				f := files[i]
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
				c := call{other: ed.Src, count: ed.Count, tier: index.Tier(ed.Tier), layer: query.LayerSyntactic,
					kind: w.kindOf(n, t), site: siteLoc(f.Path, ed.Line, ed.Col, name), via: via[t]}
				if t == unsure {
					c.tier = index.TierAnchored
				}
				if ov != nil && t == n.Row.Parent && c.kind == "instantiate" {
					// new Box(4) runs the constructor that takes its arguments
					if ok, err := w.instantiations(ctx, &c, f, ov, n); err != nil {
						return nil, err
					} else if !ok {
						continue
					}
				}
				out = append(out, c)
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
	disp, err := w.dispatchCalls(ctx, n)
	if err != nil {
		return nil, err
	}
	return mergeCalls(append(out, disp...)), nil
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
	return k == lang.KindConstructor || (k == lang.KindMethod && n.Row.Name == lang.Of(n.File.Lang).Initializer)
}

// siteLoc is the location of a call site: the called name at line:col.
func siteLoc(path string, line, col int, name string) protocol.Location {
	return protocol.Location{Path: protocol.RepoPath(path), Line: line, Col: col, EndLine: line, EndCol: col + len(name)}
}

// mergeCalls folds calls to the same neighbour with the same kind and layer.
func mergeCalls(cs []call) []call {
	type key struct {
		other                int64
		kind, layer, through string
	}
	at := map[key]int{}
	var out []call
	for _, c := range cs {
		k := key{c.other, c.kind, c.layer, c.through}
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
	facts, err := w.e.Facts(ctx, f.BlobID)
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
	return own[enc].ID, siteLoc(path, int(p.Line), int(p.Col), facts.Names[facts.Refs[i].Name]), true, nil
}

// Dispatch: how a call of another method may run a node.
const (
	DispatchInterface = "interface" // a call of an interface method the node's type implements
	DispatchOverride  = "override"  // a call of a base class method the node overrides
)

// dispatchCalls lists the calls that reach a method through dispatch: the
// calls of the interface methods it implements and of the base methods it
// overrides, as gopls and typescript-language-server count them (pyright
// does not: a Python call reaches the method its receiver's class declares
// or inherits, so Python methods get none from syntax). Go: the interfaces
// of the repository its receiver type satisfies, by signature (method
// sets; the type itself, not the types embedding it). Others: the
// interfaces and base classes its class declares, transitively. The
// semantic layer adds the calls through the symbols its implementation
// relationships relate.
func (w *walker) dispatchCalls(ctx context.Context, n *query.Resolved) ([]call, error) {
	if lang.DefKind(n.Row.Kind) != lang.KindMethod {
		return nil, nil
	}
	var out []call
	if w.v != nil && w.layer != query.LayerSyntactic {
		sem, err := w.semanticCallers(ctx, n, true)
		if err != nil {
			return nil, err
		}
		up, err := semDispatched(ctx, w.e, n.Row.ID)
		if err != nil {
			return nil, err
		}
		for _, c := range sem {
			if !up[c.via] {
				continue // a method implementing or overriding this one: its calls do not run it
			}
			c.dispatch = DispatchInterface
			if th := semSymbolRef(ctx, w.e, c.via); th != nil {
				c.through = th.QName
			}
			c.via = ""
			out = append(out, c)
		}
	}
	if w.layer == query.LayerSemantic {
		return out, nil
	}
	methods, err := w.dispatchedFrom(ctx, n)
	if err != nil {
		return nil, err
	}
	for _, m := range methods {
		edges, err := w.e.EdgesTo(ctx, m.row.ID, uint8(index.EdgeCall))
		if err != nil {
			return nil, err
		}
		files, err := w.edgeFiles(ctx, edges)
		if err != nil {
			return nil, err
		}
		for i, ed := range edges {
			f := files[i]
			if f == nil || w.usable(f.Path) {
				continue // the semantic layer answers for this file
			}
			out = append(out, call{other: ed.Src, count: ed.Count, tier: index.Tier(ed.Tier), layer: query.LayerSyntactic,
				kind: callKind(n.File.Lang, lang.KindMethod), site: siteLoc(f.Path, ed.Line, ed.Col, n.Row.Name),
				through: m.row.QName, dispatch: m.dispatch})
		}
	}
	return out, nil
}

// maxSemDispatched bounds the methods semDispatched follows for one node.
const maxSemDispatched = 64

// semDispatched lists the SCIP symbols whose calls may run a node by
// dispatch, per the semantic layer: those its symbols' implementation
// relationships name (the interface methods it implements, the base
// methods it overrides), followed transitively. The semantic layer's
// related symbols go both ways (a reference search counts the methods
// implementing or overriding a method too); a call of those does not run
// the node.
func semDispatched(ctx context.Context, e *query.Engine, cairn int64) (map[string]bool, error) {
	queue, err := e.Store().SemSymbolsOfCairn(ctx, cairn)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	seen := map[[2]int64]bool{}
	for _, r := range queue {
		seen[[2]int64{r.Index, r.ID}] = true
	}
	for len(queue) > 0 && len(out) < maxSemDispatched {
		r := queue[0]
		queue = queue[1:]
		rels, err := e.Store().SemRels(ctx, r.Index, r.ID, false, maxSemDispatched)
		if err != nil {
			return nil, err
		}
		for _, rel := range rels {
			k := [2]int64{r.Index, rel.Target}
			if rel.Kinds&semantic.RelImplementation == 0 || seen[k] {
				continue
			}
			seen[k] = true
			t, ok, err := e.Store().SemSymbol(ctx, r.Index, rel.Target)
			if err != nil {
				return nil, err
			}
			if ok {
				out[t.Symbol] = true
				queue = append(queue, t)
			}
		}
	}
	return out, nil
}

// dispatched is a method a call of which may run another.
type dispatched struct {
	row      store.SymbolRow
	dispatch string
}

// dispatchedFrom lists the methods whose calls may run a method: the
// interface methods it implements and the base methods it overrides, as
// the language dispatches (lang.Language.Dispatch).
func (w *walker) dispatchedFrom(ctx context.Context, n *query.Resolved) ([]dispatched, error) {
	switch lang.Of(n.File.Lang).Dispatch {
	case lang.DispatchUntyped:
		return nil, nil
	case lang.DispatchMethodSet:
		return w.methodSetInterfaces(ctx, n)
	}
	owner, err := w.parentType(ctx, n)
	if err != nil || owner == nil {
		return nil, err
	}
	var out []dispatched
	supers := func(it typeStep) ([]typeEdge, error) {
		supers, _, err := w.supertypes(ctx, it.row, true)
		return supers, err
	}
	err = w.relatedMethods(ctx, owner.Row, n.Row, supers, func(m store.SymbolRow) error {
		d := DispatchOverride
		if iface, err := w.interfaceOf(ctx, m.Parent); err != nil {
			return err
		} else if iface != nil {
			d = DispatchInterface
		}
		out = append(out, dispatched{m, d})
		return nil
	})
	return out, err
}

// maxDispatchInterfaces bounds the interfaces checked for one method.
const maxDispatchInterfaces = 2000

// methodSetInterfaces lists the methods, named as the method is, of the
// interfaces of the repository that a method's receiver type satisfies by
// its method set (lang.DispatchMethodSet): signatures compared by the type
// checker of the interface's language, so none where it has none.
func (w *walker) methodSetInterfaces(ctx context.Context, n *query.Resolved) ([]dispatched, error) {
	owner, ok, err := w.ownerOf(ctx, n.Row)
	if err != nil || !ok {
		return nil, err
	}
	if is, err := w.isInterface(ctx, owner); err != nil || is {
		return nil, err
	}
	ms, err := w.typeMembers(ctx, owner)
	if err != nil {
		return nil, err
	}
	rows, err := w.e.SymbolsByName(ctx, n.Row.Name)
	if err != nil {
		return nil, err
	}
	// The owners and their files are read at once: a common name has
	// thousands of methods, most of them on types that are no interface.
	var parents []int64
	for _, m := range rows {
		if lang.DefKind(m.Kind) == lang.KindMethod && m.Parent != 0 {
			parents = append(parents, m.Parent)
		}
	}
	owners, err := w.symbols(ctx, parents)
	if err != nil {
		return nil, err
	}
	var ifaceFiles []int64
	for _, o := range owners {
		if lang.DefKind(o.Kind) == lang.KindInterface {
			ifaceFiles = append(ifaceFiles, o.FileID)
		}
	}
	if err := w.loadFiles(ctx, ifaceFiles); err != nil {
		return nil, err
	}
	var out []dispatched
	seen := map[int64]bool{}
	checked := 0
	for _, m := range rows {
		if lang.DefKind(m.Kind) != lang.KindMethod || m.ID == n.Row.ID || checked >= maxDispatchInterfaces {
			continue
		}
		iface, ok, err := w.ownerOf(ctx, m)
		if err != nil {
			return nil, err
		}
		if !ok || seen[iface.ID] {
			continue
		}
		seen[iface.ID] = true
		if is, err := w.isInterface(ctx, iface); err != nil {
			return nil, err
		} else if !is {
			continue
		}
		f, err := w.file(ctx, iface.FileID)
		if err != nil {
			return nil, err
		}
		if f == nil || w.typeChecker(f.Lang) == nil {
			continue
		}
		checked++
		ims, err := w.typeMembers(ctx, iface)
		if err != nil {
			return nil, err
		}
		names := methodNames(ims)
		covered := len(names) > 0
		for _, name := range names {
			if _, ok := ms.all[name]; !ok {
				covered = false
				break
			}
		}
		if !covered {
			continue
		}
		if sat, err := w.satisfies(ctx, f.Lang, ims, ms, names); err != nil {
			return nil, err
		} else if sat.Verdict == lang.VerdictYes {
			out = append(out, dispatched{ims.all[n.Row.Name].row, DispatchInterface})
		}
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
