// Package langutil holds helpers that language hooks share, whatever the
// language: navigation over a lang.View that stops early, the nodes of
// definitions and scopes, and the edits Refine makes to extracted facts while
// keeping their invariants: definitions in pre-order with parents before
// children, paths and Dup ordinals consistent with the parent chain, and
// every index into Defs, Locals and Names valid. Packages classlang (Java, C#,
// Kotlin) and native (Rust, C, C++) add what only their languages share.
package langutil

import (
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// Enclosing is the innermost definition whose span contains p, or -1 (defs
// are in pre-order, so the last one that contains p is the innermost).
func Enclosing(f *lang.Facts, p lang.Pos) int32 {
	in := int32(-1)
	for i := range f.Defs {
		if f.Defs[i].Span.Contains(p) {
			in = int32(i)
		}
	}
	return in
}

// ScopesBySpan maps each scope's span to its index.
func ScopesBySpan(f *lang.Facts) map[lang.Span]int32 {
	at := make(map[lang.Span]int32, len(f.Scopes))
	for i, s := range f.Scopes {
		at[s.Span] = int32(i)
	}
	return at
}

// DefAfter is the definition that starts first at or after p (the one a
// comment ending at p documents, when it is right there); -1 for none.
func DefAfter(f *lang.Facts, p lang.Pos) int32 {
	next := int32(-1)
	for i, d := range f.Defs {
		if !d.Span.Start.Before(p) && (next < 0 || d.Span.Start.Before(f.Defs[next].Span.Start)) {
			next = int32(i)
		}
	}
	return next
}

// InnermostScope is the innermost scope whose span contains p, or -1.
func InnermostScope(f *lang.Facts, p lang.Pos) int32 {
	in := int32(-1)
	for i := range f.Scopes {
		if f.Scopes[i].Span.Contains(p) {
			in = int32(i)
		}
	}
	return in
}

// SpanSet answers whether a position lies in one of a set of spans that do
// not overlap.
type SpanSet []lang.Span

// Sort orders the set; call it before Contains.
func (s SpanSet) Sort() { sort.Slice(s, func(i, j int) bool { return s[i].Start.Before(s[j].Start) }) }

// Contains reports whether p lies in one of the spans.
func (s SpanSet) Contains(p lang.Pos) bool {
	k := sort.Search(len(s), func(i int) bool { return p.Before(s[i].Start) }) - 1
	return k >= 0 && s[k].Contains(p)
}

// Access is the visibility an access keyword gives: private is private,
// protected (seen by subclasses) internal, and any other public.
func Access(keyword string) lang.Visibility {
	switch keyword {
	case "private":
		return lang.VisPrivate
	case "protected":
		return lang.VisInternal
	}
	return lang.VisPublic
}

// DropDefs removes definitions and renumbers every index into Defs. target[i]
// is i for a kept definition; for a dropped one, the definition that stands in
// for it (references bound to or enclosed by it, and definitions nested in it,
// move there), or -1 (they move to its parent). Unlike lang.RemoveDefs, the type
// relations of a dropped definition go with it, and Dup ordinals are
// renumbered.
func DropDefs(f *lang.Facts, target []int32) {
	defs, newIdx := compact(f.Defs, func(i int) bool { return target[i] != int32(i) })
	if len(defs) == len(f.Defs) {
		return
	}
	// up maps an old index to the new index of it, of the definition that
	// stands in for it, or of its nearest kept ancestor.
	up := func(i int32) int32 {
		for i >= 0 && newIdx[i] < 0 {
			if t := target[i]; t >= 0 && newIdx[t] >= 0 {
				return newIdx[t]
			}
			i = f.Defs[i].Parent
		}
		if i < 0 {
			return -1
		}
		return newIdx[i]
	}
	for i := range defs {
		defs[i].Parent = up(defs[i].Parent)
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		r.Enclosing = up(r.Enclosing)
		if r.BindDef >= 0 {
			t := r.BindDef
			if newIdx[t] < 0 {
				t = target[t]
			}
			if t >= 0 && newIdx[t] >= 0 {
				r.BindDef = newIdx[t]
			} else {
				r.BindDef = -1
			}
		}
	}
	rels := f.TypeRels[:0]
	for _, t := range f.TypeRels {
		if d := newIdx[t.Def]; d >= 0 {
			t.Def = d
			rels = append(rels, t)
		}
	}
	f.TypeRels = rels
	renumberSites(f, up)
	f.Defs = defs
	RecomputeDups(f)
}

// renumberSites moves the dynamic sites' and the surfaces' definitions to
// their new indices.
func renumberSites(f *lang.Facts, to func(int32) int32) {
	for i := range f.Dynamic {
		f.Dynamic[i].Enclosing = to(f.Dynamic[i].Enclosing)
	}
	for i := range f.Surfaces {
		f.Surfaces[i].Def = to(f.Surfaces[i].Def)
	}
	if f.DefaultExport > 0 {
		f.DefaultExport = to(f.DefaultExport-1) + 1 // 0 when it was dropped
	}
}

// Agreed is the one type every entry names, or "" when they differ or there
// is none.
func Agreed(ts []string) string {
	if len(ts) == 0 {
		return ""
	}
	for _, t := range ts[1:] {
		if t != ts[0] {
			return ""
		}
	}
	return ts[0]
}

// InsertDefs adds definitions to f and renumbers every index into Defs. The
// Parent of each added definition is an index into f.Defs as it was; each
// goes after the definitions that start at or before it, so that Defs stay
// in pre-order (parents first, starts non-decreasing). Dup ordinals are
// renumbered.
func InsertDefs(f *lang.Facts, add []lang.Def) {
	if len(add) == 0 {
		return
	}
	sort.SliceStable(add, func(i, j int) bool { return add[i].Span.Start.Before(add[j].Span.Start) })
	old := f.Defs
	defs := make([]lang.Def, 0, len(old)+len(add))
	newIdx := make([]int32, len(old))
	i := 0
	keep := func() {
		newIdx[i] = int32(len(defs))
		defs = append(defs, old[i])
		i++
	}
	for _, a := range add {
		for i < len(old) && !a.Span.Start.Before(old[i].Span.Start) {
			keep()
		}
		defs = append(defs, a)
	}
	for i < len(old) {
		keep()
	}
	to := func(d int32) int32 {
		if d < 0 {
			return d
		}
		return newIdx[d]
	}
	for k := range defs {
		defs[k].Parent = to(defs[k].Parent)
	}
	for k := range f.Refs {
		f.Refs[k].Enclosing = to(f.Refs[k].Enclosing)
		f.Refs[k].BindDef = to(f.Refs[k].BindDef)
	}
	for k := range f.TypeRels {
		f.TypeRels[k].Def = to(f.TypeRels[k].Def)
	}
	renumberSites(f, to)
	f.Defs = defs
	RecomputeDups(f)
}

// RecomputePaths sets every definition's path from its parent's path and its
// segment (segment(i) returns the part for Defs[i], normally its name), and
// renumbers the Dup ordinals. Definitions with a receiver keep theirs.
func RecomputePaths(f *lang.Facts, segment func(i int) string) {
	for i := range f.Defs {
		d := &f.Defs[i]
		seg := segment(i)
		if d.Receiver != "" {
			d.Path = f.JoinPath(d.Receiver, d.Name)
		} else {
			d.Path = f.ChildPath(d.Parent, seg)
		}
	}
	RecomputeDups(f)
}

// RecomputeDups renumbers the ordinals of definitions sharing a path, after
// Refine has changed paths.
func RecomputeDups(f *lang.Facts) {
	dups := map[string]uint16{}
	for i := range f.Defs {
		f.Defs[i].Dup = dups[f.Defs[i].Path]
		dups[f.Defs[i].Path]++
	}
}

// DropRefsAt removes the references at the positions in at; when none is
// left, Refs is nil, as the codec decodes it.
func DropRefsAt(f *lang.Facts, at map[lang.Pos]bool) {
	if len(at) == 0 {
		return
	}
	refs := f.Refs[:0]
	for _, r := range f.Refs {
		if !at[r.Pos] {
			refs = append(refs, r)
		}
	}
	f.Refs = refs
	if len(refs) == 0 {
		f.Refs = nil
	}
}

// SortRefs restores the position order of references.
func SortRefs(f *lang.Facts) {
	sort.SliceStable(f.Refs, func(i, j int) bool { return f.Refs[i].Pos.Before(f.Refs[j].Pos) })
}

// Name returns the index of s in the facts' string table, adding it if needed.
func Name(f *lang.Facts, s string) uint32 {
	for i, n := range f.Names {
		if n == s {
			return uint32(i)
		}
	}
	f.Names = append(f.Names, s)
	return uint32(len(f.Names) - 1)
}

// Binder finds local bindings the way a language with scope gates sees them:
// a name resolves in its scope and the enclosing ones, but not past a gate (a
// scope, such as a Ruby or PHP function body, that does not see the locals of
// the scopes around it; the gate's own locals are visible).
type Binder struct {
	f      *lang.Facts
	gate   func(scope int32) bool
	byKey  map[uint64][]int32 // (scope, name) -> locals in order
	inPlay []bool             // locals still kept
}

// Gates is the gate of a Binder for a language whose gates are nodes of
// gateKinds: a scope is a gate when the node that opened it (found among the
// nodes of scopeKinds) is one.
func Gates(v *lang.View, f *lang.Facts, scopeKinds, gateKinds []string) func(scope int32) bool {
	nodes := ScopeNodes(v, f, KindSet(v, scopeKinds...))
	isGate := KindSet(v, gateKinds...)
	return func(s int32) bool { return nodes[s] >= 0 && isGate(nodes[s]) }
}

// NewBinder indexes the facts' locals.
func NewBinder(f *lang.Facts, gate func(scope int32) bool) *Binder {
	b := &Binder{f: f, gate: gate}
	b.index()
	return b
}

// index files every local of the facts under its scope and name, all in play.
func (b *Binder) index() {
	b.byKey = map[uint64][]int32{}
	b.inPlay = make([]bool, len(b.f.Locals))
	for i, lo := range b.f.Locals {
		k := key(lo.Scope, lo.Name)
		b.byKey[k] = append(b.byKey[k], int32(i))
		b.inPlay[i] = true
	}
}

func key(scope int32, name uint32) uint64 { return uint64(uint32(scope))<<32 | uint64(name) }

// Lookup finds the local that name means at pos in scope: the first kept local
// of that name in the scope chain, up to and including the first gate. With
// ordered, a local binds only from its position on. Returns -1 for none.
func (b *Binder) Lookup(name uint32, scope int32, pos lang.Pos, ordered bool) int32 {
	for s := scope; ; s = b.f.Scopes[s].Parent {
		for _, i := range b.byKey[key(s, name)] {
			if !b.inPlay[i] {
				continue
			}
			if ordered && pos.Before(b.f.Locals[i].Pos) {
				break
			}
			return i
		}
		if s < 0 || (b.gate != nil && b.gate(s)) {
			return -1
		}
	}
}

// Rebind applies the binder's rules to the facts:
//
//   - a reference bound to a local it cannot see (past a gate) is unbound,
//     then bound to a same-file top-level definition (not a namespace) or an
//     import of its name;
//   - a local for which assign(i) is true and whose name is already bound
//     where it stands (x = 1 ... x = 2, or a block assigning an outer
//     variable) is no new variable: it becomes a write reference to that one;
//   - qualifiers are re-checked: QualBound says whether the qualifier's first
//     name binds to a visible local or a top-level definition.
//
// ordered says whether a local binds only from its position on (Ruby) or in
// its whole scope (PHP). Refs are re-sorted by position.
func (b *Binder) Rebind(assign func(local int) bool, ordered bool, firstName func(qualifier string) string) {
	f := b.f
	target := make([]int32, len(f.Locals)) // where a dropped local goes
	for i := range target {
		target[i] = int32(i)
	}
	var writes []lang.Ref
	for i, lo := range f.Locals {
		if assign == nil || !assign(i) {
			continue
		}
		b.inPlay[i] = false
		j := b.Lookup(lo.Name, lo.Scope, lo.Pos, true)
		if j < 0 || j == int32(i) {
			b.inPlay[i] = true
			continue
		}
		target[i] = j
		writes = append(writes, lang.Ref{Name: lo.Name, Pos: lo.Pos, Role: lang.RoleWrite,
			Enclosing: Enclosing(f, lo.Pos), Scope: lo.Scope, BindLocal: j, BindDef: -1, BindImp: -1})
	}
	top := f.TopDefs(lang.KindNamespace)
	imports := f.ImportByName()
	ids := map[string]uint32{}
	for i, n := range f.Names {
		ids[n] = uint32(i)
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.BindLocal >= 0 {
			want := target[r.BindLocal]
			got := b.Lookup(r.Name, r.Scope, r.Pos, ordered)
			switch {
			case got >= 0:
				r.BindLocal = got
			case want != r.BindLocal && b.visible(want, r):
				r.BindLocal = want
			default:
				r.BindLocal = -1
				if r.Shape == lang.QualNone {
					name := f.Names[r.Name]
					if d, ok := top[name]; ok {
						r.BindDef = d
					} else if imp, ok := imports[name]; ok {
						r.BindImp = imp
					}
				}
			}
		}
		if r.Shape == lang.QualIdent || r.Shape == lang.QualPath {
			q := f.Names[r.Qualifier]
			if firstName != nil {
				q = firstName(q)
			}
			bound := false
			if id, ok := ids[q]; ok && b.Lookup(id, r.Scope, r.Pos, ordered) >= 0 {
				bound = true
			} else if _, ok := top[q]; ok {
				bound = true
			}
			r.QualBound = bound
		}
	}
	if len(writes) > 0 || anyDropped(b.inPlay) {
		b.compact(writes)
	}
}

// visible reports whether local j can be seen from r's scope (no gate between).
func (b *Binder) visible(j int32, r *lang.Ref) bool {
	want := b.f.Locals[j].Scope
	for s := r.Scope; ; s = b.f.Scopes[s].Parent {
		if s == want {
			return true
		}
		if s < 0 || (b.gate != nil && b.gate(s)) {
			return false
		}
	}
}

func anyDropped(inPlay []bool) bool {
	for _, k := range inPlay {
		if !k {
			return true
		}
	}
	return false
}

// compact removes the dropped locals, renumbers bindings and adds the writes.
func (b *Binder) compact(writes []lang.Ref) {
	f := b.f
	f.Refs = append(f.Refs, writes...)
	DropLocals(f, func(i int) bool { return !b.inPlay[i] }, nil)
	SortRefs(f)
	b.index() // the old one is stale now
}

// compact returns the elements of xs for which drop(i) is false, in order,
// and the new index of every element (-1 for a dropped one).
func compact[T any](xs []T, drop func(i int) bool) (kept []T, newIdx []int32) {
	newIdx = make([]int32, len(xs))
	for i, x := range xs {
		if drop(i) {
			newIdx[i] = -1
			continue
		}
		newIdx[i] = int32(len(kept))
		kept = append(kept, x)
	}
	return kept, newIdx
}

// DropLocals removes the locals for which drop(i) is true and renumbers
// Ref.BindLocal to match; a reference bound to a removed local is unbound
// (-1), then passed to rebind when rebind is not nil. Nothing changes when no
// local is removed.
func DropLocals(f *lang.Facts, drop func(i int) bool, rebind func(r *lang.Ref)) {
	kept, newIdx := compact(f.Locals, drop)
	if len(kept) == len(f.Locals) {
		return
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.BindLocal < 0 {
			continue
		}
		if n := newIdx[r.BindLocal]; n >= 0 {
			r.BindLocal = n
		} else {
			r.BindLocal = -1
			if rebind != nil {
				rebind(r)
			}
		}
	}
	f.Locals = kept
	if len(kept) == 0 {
		f.Locals = nil // as the codec decodes it
	}
}

// Head is the text of node n up to its body: from n's start to the first
// descendant whose kind is in body (or to stop, when that comes first), with
// each descendant for which cut holds (a comment, an annotation) replaced by
// one space and not looked into.
func Head(v *lang.View, n, stop int, body map[string]bool, cut func(kind string) bool) string {
	start, _ := v.Bytes(n)
	var cuts [][2]int
	skipTo := -1
	// Nodes are in pre-order with non-decreasing starts, so the nodes that
	// start before stop are n's descendants (and nothing after them is).
	for j := n + 1; j < v.Len(); j++ {
		sb, eb := v.Bytes(j)
		if sb >= stop {
			break
		}
		if sb < skipTo {
			continue
		}
		k := v.Kind(j)
		switch {
		case body[k]:
			stop = sb
		case cut(k):
			cuts = append(cuts, [2]int{sb, eb})
			skipTo = eb
		}
	}
	return Without(v.Src(), start, stop, cuts)
}

// Without is src[start:end] with each byte range in cut replaced by one
// space: the ranges are in order and do not overlap; one that starts at or
// after end ends the cutting, and one that runs past end stops there.
func Without(src []byte, start, end int, cut [][2]int) string {
	var b strings.Builder
	at := start
	for _, c := range cut {
		if c[0] >= end {
			break
		}
		if c[0] > at {
			b.Write(src[at:c[0]])
		}
		b.WriteByte(' ')
		at = min(c[1], end)
	}
	if at < end {
		b.Write(src[at:end])
	}
	return b.String()
}

// Header is the normalised text of src[start:end] with the byte ranges in cut
// left out (comments, attributes), capped like the engine's signatures.
func Header(src []byte, start, end int, cut [][2]int) string {
	var buf []byte
	at := start
	for _, c := range cut {
		if c[0] < at || c[1] > end {
			continue
		}
		buf = append(buf, src[at:c[0]]...)
		buf = append(buf, ' ')
		at = c[1]
	}
	if at < end {
		buf = append(buf, src[at:end]...)
	}
	return lang.Truncate(lang.CollapseSpace(string(buf)), lang.MaxSignature)
}
