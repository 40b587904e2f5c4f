package graph

import (
	"cmp"
	"context"
	"errors"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
)

// What syntax can say about types beyond their declarations: the members a
// type has (declared, promoted through embedded types, inherited from base
// classes), whether a symbol is an interface, and which types implement one
// (declared relations, method sets, the semantic layer's relationships).

// member is a member of a type and where it comes from.
type member struct {
	row store.SymbolRow
	via string // "" declared on the type; else the qualified name of the type it is promoted or inherited from
}

// memberSet is every member of a type syntax can see.
type memberSet struct {
	all map[string]member
	// unknown lists supertypes whose members syntax cannot see (declared
	// outside the repository, or unresolved), as written.
	unknown []string
}

// implType is a type implementing an interface.
type implType struct {
	row store.SymbolRow
	// how: declared (implements/extends/embeds, possibly through a base
	// type or a sub-interface), method_set (syntax: its method set covers
	// the interface's methods), semantic (an implementation relationship).
	how string
	via string // the type or interface it goes through, when not direct
}

// maxImplCandidates bounds the types whose method sets are checked for one interface.
const maxImplCandidates = 300

// maxSuperDepth bounds how far inheritance and embedding chains are followed.
const maxSuperDepth = 8

// typeCache keeps the type relations a walk worked out.
type typeCache struct {
	impls   map[int64][]implType       // interface -> implementations
	members map[int64]*memberSet       // type -> members
	ifaces  map[int64]*store.SymbolRow // symbol -> itself when interface-like, nil when not
	over    map[int64][]int64          // method -> the methods overriding it
}

func newTypeCache() typeCache {
	return typeCache{impls: map[int64][]implType{}, members: map[int64]*memberSet{}, ifaces: map[int64]*store.SymbolRow{},
		over: map[int64][]int64{}}
}

// typeMembers lists a type's members with those it inherits (base classes)
// and those promoted through embedded types, nearest first; own members win.
func (w *walker) typeMembers(ctx context.Context, t store.SymbolRow) (*memberSet, error) {
	return w.typeMembersDepth(ctx, t, map[int64]bool{}, 0)
}

func (w *walker) typeMembersDepth(ctx context.Context, t store.SymbolRow, seen map[int64]bool, depth int) (*memberSet, error) {
	if ms, ok := w.types.members[t.ID]; ok {
		return ms, nil
	}
	seen[t.ID] = true
	ms := &memberSet{all: map[string]member{}}
	own, err := w.directMembers(ctx, t)
	if err != nil {
		return nil, err
	}
	for _, m := range own {
		if _, dup := ms.all[m.Name]; !dup {
			ms.all[m.Name] = member{row: m}
		}
	}
	supers, unresolved, err := w.supertypes(ctx, t, false)
	if err != nil {
		return nil, err
	}
	ms.unknown = append(ms.unknown, unresolved...)
	for _, s := range supers {
		if seen[s.row.ID] || depth >= maxSuperDepth || s.kind == index.EdgeImplements {
			continue
		}
		sm, err := w.typeMembersDepth(ctx, s.row, seen, depth+1)
		if err != nil {
			return nil, err
		}
		for name, m := range sm.all {
			if _, ok := ms.all[name]; !ok {
				if m.via == "" {
					m.via = s.row.QName
				}
				ms.all[name] = m
			}
		}
		ms.unknown = append(ms.unknown, sm.unknown...)
	}
	delete(seen, t.ID)
	w.types.members[t.ID] = ms
	return ms, nil
}

// directMembers are the members declared on a type: its children, and for
// Go the methods declared in other files of the package (same qualified-name prefix).
func (w *walker) directMembers(ctx context.Context, t store.SymbolRow) ([]store.SymbolRow, error) {
	rows, err := w.e.Store().SymbolsByParent(ctx, t.ID, 1000)
	if err != nil {
		return nil, err
	}
	if f, err := w.file(ctx, t.FileID); err == nil && f != nil && f.Lang == "go" {
		more, err := w.e.Store().SymbolsByQNamePrefix(ctx, t.QName+".", 1000)
		if err != nil {
			return nil, err
		}
		have := map[int64]bool{}
		for _, r := range rows {
			have[r.ID] = true
		}
		for _, r := range more {
			if !have[r.ID] && !strings.Contains(r.QName[len(t.QName)+1:], ".") {
				rows = append(rows, r)
			}
		}
	}
	out := rows[:0]
	for _, r := range rows {
		switch lang.DefKind(r.Kind) {
		case lang.KindMethod, lang.KindField, lang.KindProperty, lang.KindConstructor:
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return cmp.Or(cmp.Compare(out[i].Name, out[j].Name), cmp.Compare(out[i].ID, out[j].ID)) < 0
	})
	return out, nil
}

// typeEdge is a resolved relation between types: the type at its other
// end, the relation and its tier.
type typeEdge struct {
	row  store.SymbolRow
	kind index.EdgeKind
	tier index.Tier
	at   store.EdgeRow
}

// relatedMethods calls each for the methods named name declared on the
// types a walk of relations (next) reaches from a type, the type itself left
// out, nearest first.
func (w *walker) relatedMethods(ctx context.Context, from store.SymbolRow, name string, next func(typeStep) ([]typeEdge, error),
	each func(store.SymbolRow) error) error {
	return w.walkRelations(from, map[int64]bool{from.ID: true}, next, func(_ typeStep, s typeEdge) (bool, error) {
		own, err := w.directMembers(ctx, s.row)
		if err != nil {
			return false, err
		}
		for _, m := range own {
			if m.Name == name && lang.DefKind(m.Kind) == lang.KindMethod {
				if err := each(m); err != nil {
					return false, err
				}
			}
		}
		return true, nil
	})
}

// errVanished stops a walk that reached a symbol whose file is gone.
var errVanished = errors.New("graph: a symbol's file vanished")

// typeStep is a type a walk of relations reached, depth relations away,
// through via (the qualified name of the type before it; "" at the start).
type typeStep struct {
	row   store.SymbolRow
	via   string
	depth int
}

// walkRelations walks type relations breadth first from a type, at most
// maxSuperDepth relations deep: next lists a type's relations, visit is
// called once per type not in seen (which it is added to) and says whether
// to walk on from it.
func (w *walker) walkRelations(from store.SymbolRow, seen map[int64]bool, next func(typeStep) ([]typeEdge, error),
	visit func(typeStep, typeEdge) (bool, error)) error {
	queue := []typeStep{{from, "", 0}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.depth >= maxSuperDepth {
			continue
		}
		edges, err := next(it)
		if err != nil {
			return err
		}
		for _, ed := range edges {
			if seen[ed.row.ID] {
				continue
			}
			seen[ed.row.ID] = true
			follow, err := visit(it, ed)
			if err != nil {
				return err
			}
			if follow {
				queue = append(queue, typeStep{ed.row, ed.row.QName, it.depth + 1})
			}
		}
	}
	return nil
}

// supertypes lists what a type extends, implements or embeds: the resolved
// relations (edges), and as written those syntax could not resolve.
// withImplements keeps implements relations (for hierarchy answers).
func (w *walker) supertypes(ctx context.Context, t store.SymbolRow, withImplements bool) ([]typeEdge, []string, error) {
	edges, err := w.e.Store().EdgesFrom(ctx, t.FileID, t.ID, index.TypeEdgeKinds...)
	if err != nil {
		return nil, nil, err
	}
	rows, err := w.symbols(ctx, idsOf(edges, func(e store.EdgeRow) int64 { return e.Dst }))
	if err != nil {
		return nil, nil, err
	}
	var out []typeEdge
	resolvedAt := map[[2]int]bool{}
	for _, ed := range edges {
		resolvedAt[[2]int{ed.Line, ed.Col}] = true
		row, ok := rows[ed.Dst]
		if !ok || (!withImplements && index.EdgeKind(ed.Kind) == index.EdgeImplements) {
			continue
		}
		out = append(out, typeEdge{row: row, kind: index.EdgeKind(ed.Kind), tier: index.Tier(ed.Tier), at: ed})
	}
	var unresolved []string
	r, err := w.resolved(ctx, t)
	if err != nil || r == nil || r.Facts == nil {
		return out, nil, err
	}
	for _, rel := range r.Facts.TypeRels {
		if int(rel.Def) != t.DefIdx || resolvedAt[[2]int{int(rel.Pos.Line), int(rel.Pos.Col)}] {
			continue
		}
		if rel.Kind == lang.RelImplements && !withImplements {
			continue
		}
		unresolved = append(unresolved, rel.Target)
	}
	return out, unresolved, nil
}

// interfaceOf returns a symbol when it is interface-like: an interface, or
// a Python class deriving from Protocol or ABC (nil otherwise).
func (w *walker) interfaceOf(ctx context.Context, id int64) (*store.SymbolRow, error) {
	if v, ok := w.types.ifaces[id]; ok {
		return v, nil
	}
	rows, err := w.symbols(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	var out *store.SymbolRow
	if row, ok := rows[id]; ok {
		is, err := w.isInterface(ctx, row)
		if err != nil {
			return nil, err
		}
		if is {
			out = &row
		}
	}
	w.types.ifaces[id] = out
	return out, nil
}

func (w *walker) isInterface(ctx context.Context, row store.SymbolRow) (bool, error) {
	switch lang.DefKind(row.Kind) {
	case lang.KindInterface:
		return true, nil
	case lang.KindClass:
	default:
		return false, nil
	}
	r, err := w.resolved(ctx, row)
	if err != nil || r == nil || r.Facts == nil || r.File.Lang != "python" {
		return false, err
	}
	for _, rel := range r.Facts.TypeRels {
		if int(rel.Def) != row.DefIdx {
			continue
		}
		switch strings.TrimPrefix(strings.TrimPrefix(rel.Target, "typing."), "abc.") {
		case "Protocol", "ABC":
			return true, nil
		}
		if strings.HasPrefix(rel.Target, "Protocol[") || strings.HasPrefix(rel.Target, "typing.Protocol[") {
			return true, nil
		}
	}
	return false, nil
}

// structuralTyping reports whether a language's interfaces are satisfied by
// method sets (Go, TypeScript) rather than only by declaration.
func structuralTyping(language string, iface *query.Resolved) bool {
	switch language {
	case "go", "typescript", "tsx":
		return true
	case "python": // typing.Protocol is structural; ABC is not
		if iface != nil && iface.Facts != nil {
			for _, rel := range iface.Facts.TypeRels {
				if int(rel.Def) == iface.Row.DefIdx && strings.Contains(rel.Target, "Protocol") {
					return true
				}
			}
		}
	}
	return false
}

// implementations lists the types implementing an interface, from declared
// relations (directly, through sub-interfaces and base classes), from
// method sets where the language is structural, and from the semantic
// layer's implementation relationships.
func (w *walker) implementations(ctx context.Context, iface store.SymbolRow) ([]implType, error) {
	if list, ok := w.types.impls[iface.ID]; ok {
		return list, nil
	}
	var out []implType
	have := map[int64]bool{iface.ID: true}
	add := func(row store.SymbolRow, how, via string) {
		if !have[row.ID] {
			have[row.ID] = true
			out = append(out, implType{row: row, how: how, via: via})
		}
	}
	// Declared: walk the relations into the interface, through
	// sub-interfaces, then down base classes and embedders.
	next := func(it typeStep) ([]typeEdge, error) { return w.subtypes(ctx, it.row) }
	err := w.walkRelations(iface, have, next, func(it typeStep, s typeEdge) (bool, error) {
		is, err := w.isInterface(ctx, s.row)
		if err != nil {
			return false, err
		}
		via := it.via
		if it.depth > 0 && via == "" {
			via = it.row.QName
		}
		if !is { // a sub-interface: its implementations implement this one
			out = append(out, implType{row: s.row, how: "declared", via: via})
		}
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	// Method sets, where the language is structural.
	ir, err := w.resolved(ctx, iface)
	if err != nil {
		return nil, err
	}
	if ir != nil && structuralTyping(ir.File.Lang, ir) {
		found, err := w.methodSetImpls(ctx, iface, ir, have)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	// The semantic layer.
	sem, err := w.semanticImpls(ctx, iface.ID)
	if err != nil {
		return nil, err
	}
	for _, id := range sem {
		if have[id] {
			for i := range out {
				if out[i].row.ID == id && out[i].how != "semantic" {
					out[i].how += "+semantic"
				}
			}
			continue
		}
		rows, err := w.symbols(ctx, []int64{id})
		if err != nil {
			return nil, err
		}
		if row, ok := rows[id]; ok {
			add(row, "semantic", "")
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return cmp.Or(cmp.Compare(out[i].row.QName, out[j].row.QName), cmp.Compare(out[i].row.ID, out[j].row.ID)) < 0
	})
	w.types.impls[iface.ID] = out
	return out, nil
}

// subtypes lists the types that extend, implement or embed a type.
func (w *walker) subtypes(ctx context.Context, t store.SymbolRow) ([]typeEdge, error) {
	edges, err := w.e.Store().EdgesTo(ctx, t.ID, index.TypeEdgeKinds...)
	if err != nil {
		return nil, err
	}
	rows, err := w.symbols(ctx, idsOf(edges, func(e store.EdgeRow) int64 { return e.Src }))
	if err != nil {
		return nil, err
	}
	var out []typeEdge
	for _, ed := range edges {
		if row, ok := rows[ed.Src]; ok && row.Kind != uint8(lang.KindField) {
			out = append(out, typeEdge{row: row, kind: index.EdgeKind(ed.Kind), tier: index.Tier(ed.Tier), at: ed})
		}
	}
	return out, nil
}

// methodSetImpls finds the named types of the interface's language family
// whose members (declared, promoted and inherited) cover every method of
// the interface. Candidates come from the rarest method name: the types
// declaring it, and those embedding or extending one of them.
func (w *walker) methodSetImpls(ctx context.Context, iface store.SymbolRow, ir *query.Resolved, have map[int64]bool) ([]implType, error) {
	ims, err := w.typeMembers(ctx, iface)
	if err != nil {
		return nil, err
	}
	var names []string
	for name, m := range ims.all {
		if k := lang.DefKind(m.row.Kind); k == lang.KindMethod || k == lang.KindProperty || k == lang.KindField {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil, nil // every type satisfies an empty interface: not an answer
	}
	sort.Strings(names)
	rare, best := "", -1
	for _, n := range names {
		c, err := w.sameName(ctx, n)
		if err != nil {
			return nil, err
		}
		if best < 0 || c < best {
			rare, best = n, c
		}
	}
	rows, err := w.e.Store().SymbolsByName(ctx, rare)
	if err != nil {
		return nil, err
	}
	family := query.LangFamily(ir.File.Lang)
	var owners []store.SymbolRow
	seenOwner := map[int64]bool{}
	for _, r := range rows {
		o, ok, err := w.ownerOf(ctx, r)
		if err != nil {
			return nil, err
		}
		if ok && !seenOwner[o.ID] {
			seenOwner[o.ID] = true
			owners = append(owners, o)
		}
	}
	// Types that embed or extend an owner get its members too.
	for i := 0; i < len(owners) && len(owners) < maxImplCandidates; i++ {
		subs, err := w.subtypes(ctx, owners[i])
		if err != nil {
			return nil, err
		}
		for _, s := range subs {
			if !seenOwner[s.row.ID] && s.kind != index.EdgeImplements {
				seenOwner[s.row.ID] = true
				owners = append(owners, s.row)
			}
		}
	}
	var out []implType
	for _, o := range owners {
		if have[o.ID] || o.ID == iface.ID {
			continue
		}
		f, err := w.file(ctx, o.FileID)
		if err != nil {
			return nil, err
		}
		if f == nil || query.LangFamily(f.Lang) != family {
			continue
		}
		if is, err := w.isInterface(ctx, o); err != nil {
			return nil, err
		} else if is {
			continue
		}
		ms, err := w.typeMembers(ctx, o)
		if err != nil {
			return nil, err
		}
		covers := true
		via := ""
		for _, n := range names {
			m, ok := ms.all[n]
			if !ok {
				covers = false
				break
			}
			if m.via != "" && via == "" {
				via = m.via
			}
		}
		if covers {
			have[o.ID] = true
			out = append(out, implType{row: o, how: "method_set", via: via})
		}
	}
	return out, nil
}

// ownerOf finds the type a member belongs to: its parent, or for Go the
// type its qualified name names (methods declared in another file).
func (w *walker) ownerOf(ctx context.Context, m store.SymbolRow) (store.SymbolRow, bool, error) {
	switch lang.DefKind(m.Kind) {
	case lang.KindMethod, lang.KindField, lang.KindProperty:
	default:
		return store.SymbolRow{}, false, nil
	}
	if m.Parent != 0 {
		rows, err := w.symbols(ctx, []int64{m.Parent})
		if err != nil {
			return store.SymbolRow{}, false, err
		}
		p, ok := rows[m.Parent]
		return p, ok && lang.DefKind(p.Kind).IsTypeLike(), nil
	}
	i := strings.LastIndexByte(m.QName, '.')
	if i <= 0 {
		return store.SymbolRow{}, false, nil
	}
	rows, err := w.e.Store().SymbolsByQName(ctx, m.QName[:i])
	if err != nil {
		return store.SymbolRow{}, false, err
	}
	for _, r := range rows {
		if lang.DefKind(r.Kind).IsTypeLike() {
			w.idx.syms[r.ID] = &r
			return r, true, nil
		}
	}
	return store.SymbolRow{}, false, nil
}

// semanticImpls lists the Cairn symbols the semantic layer says implement
// a symbol (reverse implementation relationships of its SCIP symbols).
func (w *walker) semanticImpls(ctx context.Context, id int64) ([]int64, error) {
	if w.v == nil || w.layer == query.LayerSyntactic {
		return nil, nil
	}
	syms, err := w.e.Store().SemSymbolsOfCairn(ctx, id)
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	var out []int64
	for _, s := range syms {
		rels, err := w.e.Store().SemRels(ctx, s.Index, s.ID, true, 1000)
		if err != nil {
			return nil, err
		}
		for _, rel := range rels {
			if rel.Kinds&semantic.RelImplementation == 0 {
				continue
			}
			ids, err := w.e.Store().SemCairnOf(ctx, s.Index, rel.Sym)
			if err != nil {
				return nil, err
			}
			for _, c := range ids {
				if !seen[c] {
					seen[c] = true
					out = append(out, c)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	if len(out) > 0 {
		w.used.sem = true
	}
	return out, nil
}

// implementationCandidates fills a dynamic call through an interface method
// with what may run: the semantic layer's implementations of the method
// when it has them, else the members of that name of the types
// implementing the interface.
func (w *walker) implementationCandidates(ctx context.Context, iface *store.SymbolRow, method int64, name string, d *DynamicCall) error {
	if method != 0 {
		ids, err := w.semanticImpls(ctx, method)
		if err != nil {
			return err
		}
		if len(ids) > 0 {
			refs, err := w.refsOf(ctx, ids)
			if err != nil {
				return err
			}
			setCandidates(d, refs, "semantic")
			return nil
		}
	}
	impls, err := w.implementations(ctx, *iface)
	if err != nil {
		return err
	}
	var ids []int64
	hows := map[string]bool{}
	for _, it := range impls {
		ms, err := w.typeMembers(ctx, it.row)
		if err != nil {
			return err
		}
		if m, ok := ms.all[name]; ok {
			ids = append(ids, m.row.ID)
			hows[strings.TrimSuffix(it.how, "+semantic")] = true
		}
	}
	refs, err := w.refsOf(ctx, ids)
	if err != nil {
		return err
	}
	var from []string
	for h := range hows {
		from = append(from, h)
	}
	sort.Strings(from)
	setCandidates(d, refs, strings.Join(from, ","))
	return nil
}

// refsOf loads symbols as compact references (vanished ones are skipped).
func (w *walker) refsOf(ctx context.Context, ids []int64) ([]query.SymbolRef, error) {
	rows, err := w.symbols(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []query.SymbolRef
	seen := map[int64]bool{}
	for _, id := range ids {
		row, ok := rows[id]
		if !ok || seen[id] {
			continue
		}
		seen[id] = true
		r, err := w.resolved(ctx, row)
		if err != nil {
			return nil, err
		}
		if r != nil {
			out = append(out, r.Ref())
		}
	}
	return out, nil
}
