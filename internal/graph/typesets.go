package graph

import (
	"cmp"
	"context"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// What syntax can say about types beyond their declarations: the members a
// type has (declared, promoted through embedded types, inherited from base
// classes) and whether a symbol is an interface. Which types implement one
// is in implementations.go, the walks of type relations in relations.go.

// member is a member of a type and where it comes from.
type member struct {
	row store.SymbolRow
	via string // "" declared on the type; else the qualified name of the type it is promoted or inherited from
	// subst binds the type parameters of the generic type a member is
	// promoted from to the type arguments of the embedding (Go's S embeds
	// G[int]), as the language's type checker reads them.
	subst lang.TypeBindings
}

// memberSet is every member of a type syntax can see.
type memberSet struct {
	all map[string]member
	// unknown lists supertypes whose members syntax cannot see (declared
	// outside the repository, or unresolved), as written.
	unknown []string
	checked *lang.MemberSet // the set as type checkers read it (made once)
}

// forChecker is the set as a language's type checker reads it.
func (ms *memberSet) forChecker(w *walker) *lang.MemberSet {
	if ms.checked == nil {
		ms.checked = &lang.MemberSet{Members: make(map[string]lang.Member, len(ms.all)), Unknown: ms.unknown}
		for name, m := range ms.all {
			w.remember(m.row)
			ms.checked.Members[name] = lang.Member{ID: m.row.ID, Kind: lang.DefKind(m.row.Kind), Via: m.via, Bindings: m.subst}
		}
	}
	return ms.checked
}

// covers says whether the set has a member of every name, and through which
// embedded or inherited type the first promoted one of them comes ("" when
// all are declared on the type itself).
func (ms *memberSet) covers(names []string) (ok bool, via string) {
	for _, n := range names {
		m, ok := ms.all[n]
		if !ok {
			return false, ""
		}
		if m.via != "" && via == "" {
			via = m.via
		}
	}
	return true, via
}

// maxSuperDepth bounds how far inheritance and embedding chains are followed.
const maxSuperDepth = 8

// typeCache keeps the type relations a walk worked out.
type typeCache struct {
	impls   map[int64][]implType       // interface -> implementations
	members map[int64]*memberSet       // type -> members
	ifaces  map[int64]*store.SymbolRow // symbol -> itself when interface-like, nil when not
	over    map[int64][]int64          // method -> the methods overriding it
	arity   map[int64]lang.Arity       // method -> its arity, where overloads are told apart by it
	// checkers are the languages' type checkers (nil: names only), which
	// keep the signatures they read.
	checkers map[string]lang.TypeChecker
}

func newTypeCache() typeCache {
	return typeCache{impls: map[int64][]implType{}, members: map[int64]*memberSet{}, ifaces: map[int64]*store.SymbolRow{},
		over: map[int64][]int64{}, arity: map[int64]lang.Arity{}, checkers: map[string]lang.TypeChecker{}}
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
		subst, err := w.embedSubst(ctx, t, s)
		if err != nil {
			return nil, err
		}
		for name, m := range sm.all {
			if _, ok := ms.all[name]; !ok {
				if m.via == "" {
					m.via = s.row.QName
				}
				if len(subst) > 0 {
					m.subst = mergeSubst(m.subst, subst)
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

// directMembers are the members declared on a type: its children, and where
// the language declares methods apart from their type (Go) those of other
// files of the package (same qualified-name prefix).
func (w *walker) directMembers(ctx context.Context, t store.SymbolRow) ([]store.SymbolRow, error) {
	rows, err := w.e.SymbolsByParent(ctx, t.ID, 1000)
	if err != nil {
		return nil, err
	}
	if f, err := w.file(ctx, t.FileID); err == nil && f != nil && lang.Of(f.Lang).MethodsApart {
		more, err := w.e.SymbolsByQNamePrefix(ctx, t.QName+".", 1000)
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

// interfaceOf returns a symbol when it is interface-like: an interface, or
// a Python class deriving from Protocol or ABC (nil otherwise).
func (w *walker) interfaceOf(ctx context.Context, id int64) (*store.SymbolRow, error) {
	return memo(w.types.ifaces, id, func() (*store.SymbolRow, error) {
		rows, err := w.symbols(ctx, []int64{id})
		if err != nil {
			return nil, err
		}
		row, ok := rows[id]
		if !ok {
			return nil, nil
		}
		if is, err := w.isInterface(ctx, row); err != nil || !is {
			return nil, err
		}
		return &row, nil
	})
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
	if err != nil || r == nil || r.Facts == nil {
		return false, err
	}
	classIface := lang.Of(r.File.Lang).ClassInterface
	if classIface == nil {
		return false, nil
	}
	iface, _ := classIface(r.Facts, int32(row.DefIdx))
	return iface, nil
}

// structuralTyping reports whether types satisfy the interface iface of a
// language by method set (Go, TypeScript, Python's Protocols) rather than
// only by declaration.
func structuralTyping(language string, iface *query.Resolved) bool {
	l := lang.Of(language)
	if l.StructuralInterfaces {
		return true
	}
	if l.ClassInterface == nil || iface == nil || iface.Facts == nil {
		return false
	}
	_, structural := l.ClassInterface(iface.Facts, int32(iface.Row.DefIdx))
	return structural
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

// methodNames are the names of an interface's methods and properties, sorted.
func methodNames(ms *memberSet) []string {
	var names []string
	for name, m := range ms.all {
		if k := lang.DefKind(m.row.Kind); k == lang.KindMethod || k == lang.KindProperty {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}
