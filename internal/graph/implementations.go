package graph

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
)

// implType is a type implementing an interface.
type implType struct {
	row store.SymbolRow
	// how: declared (implements/extends/embeds, possibly through a base
	// type or a sub-interface), method_set (syntax: its method set covers
	// the interface's methods), semantic (an implementation relationship).
	how string
	via string // the type or interface it goes through, when not direct
	// undecided says why syntax cannot decide whether the type implements
	// the interface (Go: a parameter or result type it cannot read): the
	// type is a candidate, not an implementation. "" when decided.
	undecided string
	pointer   bool // Go: only *T has the method set (pointer receivers)
}

// maxImplCandidates bounds the types whose method sets are checked for one interface.
const maxImplCandidates = 5000

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
	rows, err := w.e.SymbolsByName(ctx, rare)
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
		covers, via := ms.covers(names)
		if !covers {
			continue
		}
		it := implType{row: o, how: "method_set", via: via}
		sat, err := w.satisfies(ctx, ir.File.Lang, ims, ms, names)
		if err != nil {
			return nil, err
		}
		if sat.Verdict == lang.VerdictNo {
			continue
		}
		it.pointer, it.undecided = sat.Pointer, sat.Why
		have[o.ID] = true
		out = append(out, it)
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
	rows, err := w.e.SymbolsByQName(ctx, m.QName[:i])
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
	from := slices.Sorted(maps.Keys(hows))
	setCandidates(d, refs, strings.Join(from, ","))
	return nil
}
