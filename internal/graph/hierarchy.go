package graph

import (
	"cmp"
	"context"
	"path"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
)

// Sources of a type relation, as type_hierarchy reports them.
const (
	SourceDeclared  = "syntax"            // written in the code: extends, implements, embeds
	SourceMethodSet = "syntax_method_set" // syntax: the method set covers the interface's methods
	SourceSemantic  = "semantic"          // the semantic layer's implementation relationships
)

// TypeLink is a type related to the one asked about.
type TypeLink struct {
	// Symbol is the related type when it is in the repository.
	Symbol *query.SymbolRef `json:"symbol,omitempty"`
	// Name is its qualified name, or the name as written (or the SCIP
	// symbol) when it is outside the repository or unresolved.
	Name string `json:"name"`
	// Relation: extends, implements, embeds (declared), satisfies (by
	// method set).
	Relation string `json:"relation"`
	Source   string `json:"source"` // syntax, syntax_method_set, semantic (or both: syntax+semantic)
	// Via is the type it goes through when not direct: the base class an
	// interface is inherited from, the embedded type a method is promoted
	// from, the sub-interface a type implements.
	Via   string `json:"via,omitempty"`
	Depth int    `json:"depth"` // 1: direct
	Tier  string `json:"tier,omitempty"`
	// Pointer (Go) says only the pointer type *T has the method set: some
	// method is declared on a pointer receiver.
	Pointer bool `json:"pointer,omitempty"`
	// Undecided (candidates only) says why syntax cannot decide the relation.
	Undecided string `json:"undecided,omitempty"`
}

// HierarchyResult is type_hierarchy's payload.
type HierarchyResult struct {
	Type        query.SymbolRef `json:"type"`
	IsInterface bool            `json:"is_interface"`
	// Supertypes are the non-interface types it extends or embeds, transitively.
	Supertypes []TypeLink `json:"supertypes"`
	// Interfaces are the interfaces it implements, extends or embeds:
	// declared (also through base classes), by method set, and from the
	// semantic layer.
	Interfaces []TypeLink `json:"interfaces"`
	// Subtypes are the types that extend or embed it, transitively.
	Subtypes []TypeLink `json:"subtypes"`
	// Implementations (interfaces only) are the types implementing it.
	Implementations []TypeLink `json:"implementations"`
	// Candidates are types (for an interface) or interfaces (for a type)
	// whose method names match but whose signatures syntax cannot compare
	// (Go: a type it cannot read): they may implement it, or not.
	Candidates []TypeLink `json:"candidates,omitempty"`
	// Methods (interfaces only) are the names of its method set, embedded
	// interfaces included.
	Methods []string `json:"methods,omitempty"`
	// Unknown are supertypes syntax cannot see into (outside the
	// repository): method-set answers may miss what they contribute.
	Unknown []string       `json:"unknown_supertypes,omitempty"`
	Totals  map[string]int `json:"totals"`
	Layers  []string       `json:"layers"`
	// Semantic says how the semantic layer took part (used, unavailable, off).
	Semantic string   `json:"semantic"`
	Notes    []string `json:"notes"`
	Bytes    int64    `json:"-"`
	// Cut says what the limit and the response budget left out of each list.
	Cut []Cut `json:"-"`
}

// namedList is one list of a hierarchy with its field name.
type namedList struct {
	name string
	list *[]TypeLink
}

// lists are the hierarchy's lists, in the order a response budget cuts
// them: the answer to the question asked (implementations of an
// interface, interfaces of a type) last.
func (res *HierarchyResult) lists() []namedList {
	l := []namedList{{"candidates", &res.Candidates}, {"supertypes", &res.Supertypes}, {"subtypes", &res.Subtypes}}
	if res.IsInterface {
		return append(l, namedList{"interfaces", &res.Interfaces}, namedList{"implementations", &res.Implementations})
	}
	return append(l, namedList{"implementations", &res.Implementations}, namedList{"interfaces", &res.Interfaces})
}

// Fit makes the JSON encoding of the hierarchy at most max bytes: it drops
// related types declared in tests first (from every list, the least
// relevant list first), then the others, from the end of each list.
func (res *HierarchyResult) Fit(max int) {
	size := jsonSize(res)
	for _, tests := range []bool{true, false} {
		for _, l := range res.lists() {
			var dropped []TypeLink
			for size > max && len(*l.list) > 0 {
				i := len(*l.list) - 1
				if tests {
					for i >= 0 && !(*l.list)[i].isTest() {
						i--
					}
					if i < 0 {
						break
					}
				}
				dropped = append(dropped, (*l.list)[i])
				size -= jsonSize((*l.list)[i]) + 1
				*l.list = append((*l.list)[:i], (*l.list)[i+1:]...)
			}
			if len(dropped) > 0 {
				res.Cut = append(res.Cut, cutOf(l.name, dropped, "max_chars"))
			}
		}
	}
}

func cutOf(field string, dropped []TypeLink, reason string) Cut {
	c := Cut{Field: field, Reason: reason}
	for _, d := range dropped {
		if d.isTest() {
			c.Tests++
		} else {
			c.NonTests++
		}
	}
	return c
}

// HierarchyParams bounds type_hierarchy.
type HierarchyParams struct {
	Limit int // per list
	Layer string
}

// Hierarchy answers what a type extends, embeds and implements, and what
// extends, embeds and implements it.
func Hierarchy(ctx context.Context, e *query.Engine, r *query.Resolved, p HierarchyParams) (*HierarchyResult, error) {
	if err := query.CheckLayer(p.Layer); err != nil {
		return nil, err
	}
	w, err := newWalker(ctx, e, p.Layer)
	if err != nil {
		return nil, err
	}
	res := &HierarchyResult{Supertypes: []TypeLink{}, Interfaces: []TypeLink{}, Subtypes: []TypeLink{}, Implementations: []TypeLink{},
		Totals: map[string]int{}, Notes: []string{}}
	t := r
	if !lang.DefKind(r.Row.Kind).IsTypeLike() {
		owner, ok, err := w.ownerOf(ctx, r.Row)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &errs.Error{Kind: errs.InvalidArgument, Msg: r.Row.QName + " is a " + lang.DefKind(r.Row.Kind).String() + ", not a type",
				Fixes: []string{"name a class, interface, struct or type"}}
		}
		if t, err = w.resolved(ctx, owner); err != nil || t == nil {
			return nil, err
		}
		res.Notes = append(res.Notes, r.Row.QName+" is a member: the hierarchy of its type "+owner.QName)
	}
	res.Type = t.Ref()
	res.Bytes = t.File.Size
	if res.IsInterface, err = w.isInterface(ctx, t.Row); err != nil {
		return nil, err
	}
	if err := w.supertypeLinks(ctx, t, res); err != nil {
		return nil, err
	}
	if err := w.subtypeLinks(ctx, t, res); err != nil {
		return nil, err
	}
	if res.IsInterface {
		ms, err := w.typeMembers(ctx, t.Row)
		if err != nil {
			return nil, err
		}
		res.Methods = methodNames(ms)
		impls, err := w.implementations(ctx, t.Row)
		if err != nil {
			return nil, err
		}
		for _, it := range impls {
			tl, err := w.typeLink(ctx, it.row, implRelation(it.how), implSource(it.how), it.via, 1, "")
			if err != nil {
				return nil, err
			}
			tl.Pointer, tl.Undecided = it.pointer, it.undecided
			if it.undecided != "" {
				res.Candidates = append(res.Candidates, tl)
				continue
			}
			res.Implementations = append(res.Implementations, tl)
		}
		if !structuralTyping(t.File.Lang, t) {
			res.Notes = append(res.Notes, t.File.Lang+" interfaces are implemented by declaration: implementations come from declared relations (and the semantic layer)")
		} else if len(res.Methods) == 0 {
			res.Notes = append(res.Notes, "an interface without methods is satisfied by every type: no method-set answer")
		}
	} else if l := lang.Of(t.File.Lang); l.StructuralInterfaces || l.ClassInterface != nil {
		if err := w.satisfiedInterfaces(ctx, t, res); err != nil {
			return nil, err
		}
	}
	if err := w.semanticInterfaces(ctx, t, res); err != nil {
		return nil, err
	}
	if len(res.Unknown) > 0 {
		res.Notes = append(res.Notes, "some supertypes are declared outside the repository; what they contribute to method sets is unknown to syntax")
	}
	if len(res.Candidates) > 0 {
		res.Notes = append(res.Notes, "candidates match by method names but syntax cannot compare their signatures (undecided says why): they are not counted as implementations")
	}
	for _, l := range res.lists() {
		sortLinks(*l.list, string(res.Type.Location.Path))
		if len(*l.list) > 0 || l.name != "candidates" {
			res.Totals[l.name] = len(*l.list)
		}
		if p.Limit > 0 && len(*l.list) > p.Limit {
			res.Cut = append(res.Cut, cutOf(l.name, (*l.list)[p.Limit:], "limit"))
			*l.list = (*l.list)[:p.Limit]
		}
	}
	res.Layers, res.Semantic, _ = w.layersUsed()
	return res, nil
}

// markerBase reports whether a base type adds no members worth knowing
// (Python's object, Protocol, ABC, Generic[...]).
func markerBase(name string) bool {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "typing."), "abc.")
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	switch name {
	case "object", "Protocol", "ABC", "Generic", "metaclass=ABCMeta":
		return true
	}
	return false
}

func implRelation(how string) string {
	if how == "method_set" {
		return "satisfies"
	}
	return "implements"
}

func implSource(how string) string {
	switch how {
	case "declared":
		return SourceDeclared
	case "method_set":
		return SourceMethodSet
	case "semantic":
		return SourceSemantic
	case "declared+semantic":
		return SourceDeclared + "+" + SourceSemantic
	case "method_set+semantic":
		return SourceMethodSet + "+" + SourceSemantic
	}
	return how
}

// sortLinks orders related types: nearest in the hierarchy first, then the
// repository's code before its tests, then those of the type's own package
// (directory), then by name.
func sortLinks(ls []TypeLink, root string) {
	near := func(l TypeLink) bool {
		return l.Symbol != nil && path.Dir(string(l.Symbol.Location.Path)) == path.Dir(root)
	}
	sort.Slice(ls, func(i, j int) bool {
		a, b := ls[i], ls[j]
		return cmp.Or(cmp.Compare(a.Depth, b.Depth), CompareBool(a.isTest(), b.isTest()), CompareBool(!near(a), !near(b)),
			cmp.Compare(a.Name, b.Name), cmp.Compare(a.Relation, b.Relation)) < 0
	})
}

// isTest reports whether the related type is declared in a test file.
func (l TypeLink) isTest() bool { return l.Symbol != nil && isTestPath(string(l.Symbol.Location.Path)) }

// typeLink describes a related type in the repository.
func (w *walker) typeLink(ctx context.Context, row store.SymbolRow, relation, source, via string, depth int, tier string) (TypeLink, error) {
	tl := TypeLink{Name: row.QName, Relation: relation, Source: source, Via: via, Depth: depth, Tier: tier}
	r, err := w.resolved(ctx, row)
	if err != nil {
		return tl, err
	}
	if r != nil {
		ref := r.Ref()
		tl.Symbol = &ref
	}
	return tl, nil
}

// supertypeLinks walks up: what the type extends, implements and embeds,
// and what those do in turn (an interface a base class implements is
// implemented by the type too).
func (w *walker) supertypeLinks(ctx context.Context, t *query.Resolved, res *HierarchyResult) error {
	next := func(it typeStep) ([]typeEdge, error) {
		supers, unresolved, err := w.supertypes(ctx, it.row, true)
		for _, u := range unresolved {
			if it.depth == 0 && !markerBase(u) {
				res.Unknown = append(res.Unknown, u)
			}
		}
		return supers, err
	}
	err := w.walkRelations(t.Row, map[int64]bool{t.Row.ID: true}, next, func(it typeStep, s typeEdge) (bool, error) {
		is, err := w.isInterface(ctx, s.row)
		if err != nil {
			return false, err
		}
		tl, err := w.typeLink(ctx, s.row, s.kind.String(), SourceDeclared, it.via, it.depth+1, s.tier.String())
		if err != nil {
			return false, err
		}
		if is {
			res.Interfaces = append(res.Interfaces, tl)
		} else {
			res.Supertypes = append(res.Supertypes, tl)
		}
		return true, nil
	})
	sort.Strings(res.Unknown)
	return err
}

// subtypeLinks walks down: the types that extend or embed this one, and
// theirs in turn.
func (w *walker) subtypeLinks(ctx context.Context, t *query.Resolved, res *HierarchyResult) error {
	next := func(it typeStep) ([]typeEdge, error) { return w.subtypes(ctx, it.row) }
	return w.walkRelations(t.Row, map[int64]bool{t.Row.ID: true}, next, func(it typeStep, s typeEdge) (bool, error) {
		if res.IsInterface && s.kind != index.EdgeExtends && s.kind != index.EdgeEmbeds {
			return false, nil // implementations are listed on their own
		}
		if res.IsInterface {
			if is, err := w.isInterface(ctx, s.row); err != nil || !is {
				return false, err // a type embedding an interface implements it: listed as an implementation
			}
		}
		tl, err := w.typeLink(ctx, s.row, s.kind.String(), SourceDeclared, it.via, it.depth+1, s.tier.String())
		if err != nil {
			return false, err
		}
		res.Subtypes = append(res.Subtypes, tl)
		return true, nil
	})
}

// maxSatisfyNames bounds the method names looked up for one type's interfaces.
const maxSatisfyNames = 64

// satisfiedInterfaces adds the interfaces of the repository a type
// satisfies by its method set (methods declared on it, promoted through
// embedded types and inherited), which it may never name.
func (w *walker) satisfiedInterfaces(ctx context.Context, t *query.Resolved, res *HierarchyResult) error {
	ms, err := w.typeMembers(ctx, t.Row)
	if err != nil {
		return err
	}
	have := map[int64]bool{}
	for _, l := range res.Interfaces {
		if l.Symbol != nil {
			if id, ok := l.Symbol.ID.Hash(); ok {
				have[id] = true
			}
		}
	}
	var names []string
	for name, m := range ms.all {
		if lang.DefKind(m.row.Kind) == lang.KindMethod {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) > maxSatisfyNames {
		names = names[:maxSatisfyNames]
	}
	family := query.LangFamily(t.File.Lang)
	checked := map[int64]bool{}
	for _, name := range names {
		rows, err := w.e.SymbolsByName(ctx, name)
		if err != nil {
			return err
		}
		for _, m := range rows {
			if lang.DefKind(m.Kind) != lang.KindMethod {
				continue
			}
			o, ok, err := w.ownerOf(ctx, m)
			if err != nil {
				return err
			}
			if !ok || checked[o.ID] || have[o.ID] || o.ID == t.Row.ID {
				continue
			}
			checked[o.ID] = true
			if is, err := w.isInterface(ctx, o); err != nil || !is {
				if err != nil {
					return err
				}
				continue
			}
			f, err := w.file(ctx, o.FileID)
			if err != nil {
				return err
			}
			if f == nil || query.LangFamily(f.Lang) != family {
				continue
			}
			or, err := w.resolved(ctx, o)
			if err != nil {
				return err
			}
			if or == nil || !structuralTyping(f.Lang, or) {
				continue
			}
			ims, err := w.typeMembers(ctx, o)
			if err != nil {
				return err
			}
			inames := methodNames(ims)
			covers, via := ms.covers(inames)
			if !covers || len(inames) == 0 {
				continue
			}
			tl, err := w.typeLink(ctx, o, "satisfies", SourceMethodSet, via, 1, "")
			if err != nil {
				return err
			}
			sat, err := w.satisfies(ctx, f.Lang, ims, ms, inames)
			if err != nil {
				return err
			}
			if sat.Verdict == lang.VerdictNo {
				continue
			}
			tl.Pointer, tl.Undecided = sat.Pointer, sat.Why
			if sat.Verdict == lang.VerdictUndecided {
				res.Candidates = append(res.Candidates, tl)
				continue
			}
			res.Interfaces = append(res.Interfaces, tl)
		}
	}
	return nil
}

// semanticInterfaces adds what the semantic layer's implementation
// relationships say: the interfaces the type implements (also those outside
// the repository, by SCIP symbol) and, for an interface, its implementations.
func (w *walker) semanticInterfaces(ctx context.Context, t *query.Resolved, res *HierarchyResult) error {
	if w.v == nil || w.layer == query.LayerSyntactic {
		return nil
	}
	syms, err := w.e.Store().SemSymbolsOfCairn(ctx, t.Row.ID)
	if err != nil || len(syms) == 0 {
		return err
	}
	listed := map[string]int{}
	for i, l := range res.Interfaces {
		listed[l.Name] = i
	}
	for _, s := range syms {
		rels, err := w.e.Store().SemRels(ctx, s.Index, s.ID, false, 1000)
		if err != nil {
			return err
		}
		for _, rel := range rels {
			if rel.Kinds&semantic.RelImplementation == 0 {
				continue
			}
			w.used.sem = true
			tl := TypeLink{Relation: "implements", Source: SourceSemantic, Depth: 1, Tier: index.TierPrecise.String()}
			if ids, err := w.e.Store().SemCairnOf(ctx, s.Index, rel.Target); err == nil && len(ids) > 0 {
				rows, err := w.symbols(ctx, ids[:1])
				if err != nil {
					return err
				}
				row, ok := rows[ids[0]]
				if !ok {
					continue
				}
				if tl, err = w.typeLink(ctx, row, "implements", SourceSemantic, "", 1, index.TierPrecise.String()); err != nil {
					return err
				}
			} else if row, ok, err := w.e.Store().SemSymbol(ctx, s.Index, rel.Target); err == nil && ok {
				tl.Name = row.Symbol
			} else {
				continue
			}
			if i, ok := listed[tl.Name]; ok {
				if l := &res.Interfaces[i]; l.Source != SourceSemantic {
					l.Source += "+" + SourceSemantic
				}
				continue
			}
			listed[tl.Name] = len(res.Interfaces)
			res.Interfaces = append(res.Interfaces, tl)
		}
	}
	return nil
}
