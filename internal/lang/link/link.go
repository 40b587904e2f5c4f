// Package link holds what the Linker hooks of several languages share:
// finding the local a name binds in a file's scopes, the definitions that
// enclose a reference, the declared types of member qualifiers (Java, C#,
// TypeScript, Python), the top-level names and lexical paths of other
// files, and the rules for imports that lead outside the repository.
//
// Like the hooks, it works on facts and on what a lang.Resolver answers; it
// never touches the store.
package link

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// LocalIndex finds local bindings by scope and name.
type LocalIndex map[uint64]int32

// NewLocalIndex indexes the locals of a file (the first of a name in a
// scope wins).
func NewLocalIndex(f *lang.Facts) LocalIndex {
	m := make(LocalIndex, len(f.Locals))
	for i, lo := range f.Locals {
		k := uint64(uint32(lo.Scope))<<32 | uint64(lo.Name)
		if _, ok := m[k]; !ok {
			m[k] = int32(i)
		}
	}
	return m
}

// Binding finds the local a name refers to from a scope, or -1.
func (li LocalIndex) Binding(f *lang.Facts, name uint32, scope int32) int32 {
	for s := scope; ; s = f.Scopes[s].Parent {
		if i, ok := li[uint64(uint32(s))<<32|uint64(name)]; ok {
			return i
		}
		if s < 0 {
			return -1
		}
	}
}

// LatestIndex finds local bindings by scope and name where a binding
// shadows the ones of its name declared before it in the same scope (Rust's
// let x = ...; let x = x.f();).
type LatestIndex map[uint64][]int32

// NewLatestIndex indexes the locals of a file.
func NewLatestIndex(f *lang.Facts) LatestIndex {
	m := make(LatestIndex, len(f.Locals))
	for i, lo := range f.Locals {
		k := uint64(uint32(lo.Scope))<<32 | uint64(lo.Name)
		m[k] = append(m[k], int32(i))
	}
	return m
}

// Binding finds the local a name refers to at pos from a scope: in the
// innermost scope with a binding of the name visible before pos (after its
// initialiser: Local.Visible), the latest such binding; -1 when none is.
func (li LatestIndex) Binding(f *lang.Facts, name uint32, scope int32, pos lang.Pos) int32 {
	for s := scope; ; s = f.Scopes[s].Parent {
		best := int32(-1)
		for _, i := range li[uint64(uint32(s))<<32|uint64(name)] {
			if p := f.Locals[i].Visible(); p.Before(pos) && (best < 0 || f.Locals[best].Visible().Before(p)) {
				best = i
			}
		}
		if best >= 0 || s < 0 {
			return best
		}
	}
}

// EnclosingClass finds the innermost class-like definition around def i.
func EnclosingClass(facts *lang.Facts, i int32) int32 {
	for i >= 0 {
		if facts.Defs[i].Kind == lang.KindClass || facts.Defs[i].Kind == lang.KindStruct {
			return i
		}
		i = facts.Defs[i].Parent
	}
	return -1
}

// FactsAt is a file of the worktree and its facts (nil when unavailable).
func FactsAt(ctx context.Context, r lang.Resolver, p string) (lang.File, *lang.Facts) {
	f, _ := r.File(p)
	return f, r.Facts(ctx, p)
}

// Set makes a set of the space-separated words of a list (standard-library
// module names).
func Set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
