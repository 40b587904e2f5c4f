package lang

import (
	"fmt"
	"strings"
)

// The facts of a file grow with its size, never with the square of anything
// in it, so the size cap (index.max_file_bytes) is a memory and disk budget
// for every file. Nesting is where the square hides: a nested definition's
// lexical path repeats the paths of all its parents (f0.f1.f2...), so N
// nested functions would store paths and qualified names of N² bytes (10,000
// nested functions in a 200 KB file made a 900 MB index), and every walk up
// a chain of parents or scopes costs the chain's length per step. These
// bounds cut both; a file that reaches one says so in Facts.Limits.

// MaxNesting is how many definitions deep the extractor follows (a top-level
// definition is level 1). Real code nests a few levels; definitions deeper
// than this are not created, and what they contain (references, dynamic
// sites, surfaces) belongs to their ancestor at this level.
const MaxNesting = 64

// MaxScopeNesting is how many lexical scopes deep the extractor follows;
// deeper scopes merge into their ancestor at this level (their locals bind
// there). Every block is a scope, so real code nests scopes deeper than
// definitions.
const MaxScopeNesting = 256

// MaxPath bounds a definition's lexical path in bytes, and so its qualified
// name, which adds only the file's module or path. A longer path is cut and
// ends in "…"; definitions whose cut paths are equal are told apart by Dup.
const MaxPath = 1024

// Limits records which bounds a file reached.
type Limits uint8

// Bounds a file can reach; stored in the blob store (append-only).
const (
	LimitNesting Limits = 1 << iota // definitions deeper than MaxNesting, or scopes deeper than MaxScopeNesting
	LimitPath                       // a lexical path longer than MaxPath was cut
)

// String says what the facts of a file leave out because of its limits.
func (l Limits) String() string {
	var parts []string
	if l&LimitNesting != 0 {
		parts = append(parts, fmt.Sprintf("nesting deeper than %d levels: definitions below level %d are summarised into it", MaxNesting, MaxNesting))
	}
	if l&LimitPath != 0 {
		parts = append(parts, fmt.Sprintf("lexical paths longer than %d bytes are cut", MaxPath))
	}
	return strings.Join(parts, "; ")
}

// JoinPath joins a lexical path and a name with "." (the name alone when
// prefix is ""), cut to MaxPath bytes.
func (f *Facts) JoinPath(prefix, name string) string {
	if prefix == "" {
		return f.CutPath(name)
	}
	if len(prefix)+1+len(name) > MaxPath {
		name = name[:min(len(name), MaxPath)] // enough to fill the cut path
	}
	return f.CutPath(prefix + "." + name)
}

// ChildPath is the lexical path of a definition named name inside
// Defs[parent] (at top level when parent < 0), cut to MaxPath bytes. Hooks
// that rebuild paths use it, so no path repeats an unbounded parent.
func (f *Facts) ChildPath(parent int32, name string) string {
	if parent < 0 {
		return f.CutPath(name)
	}
	return f.JoinPath(f.Defs[parent].Path, name)
}

// CutPath cuts a path to MaxPath bytes and records that it did.
func (f *Facts) CutPath(p string) string {
	if len(p) <= MaxPath {
		return p
	}
	f.Limits |= LimitPath
	return Truncate(p, MaxPath-len("…"))
}

// enforceBounds holds the facts of any language to MaxNesting and MaxPath,
// whatever its hooks did: the engine and the shared helpers keep to them as
// they build, so no intermediate step grows either, and this catches the
// rest. Deeper definitions are removed (RemoveDefs) and longer paths cut.
func enforceBounds(f *Facts) {
	level := make([]int, len(f.Defs)) // 1 at top level; parents come first
	var drop []bool
	for i, d := range f.Defs {
		level[i] = 1
		if p := d.Parent; p >= 0 && int(p) < i {
			level[i] = level[p] + 1
		} else if p >= 0 {
			level[i] = nestingOf(f, i)
		}
		if level[i] > MaxNesting {
			if drop == nil {
				drop = make([]bool, len(f.Defs))
			}
			drop[i] = true
		}
	}
	if drop != nil {
		f.Limits |= LimitNesting
		RemoveDefs(f, drop)
	}
	cut := false
	for i := range f.Defs {
		if d := &f.Defs[i]; len(d.Path) > MaxPath {
			d.Path, cut = f.CutPath(d.Path), true
		}
	}
	if cut {
		dups := map[string]uint16{}
		for i := range f.Defs {
			d := &f.Defs[i]
			d.Dup = dups[d.Path]
			dups[d.Path]++
		}
	}
}

// nestingOf is the level of Defs[i] (1 at top level) found by walking its
// parents, counted up to MaxNesting+1; a cycle counts as too deep. Only for
// a definition listed before its parent, which hooks rarely produce.
func nestingOf(f *Facts, i int) int {
	n := 0
	for d := int32(i); d >= 0 && n <= MaxNesting; d = f.Defs[d].Parent {
		n++
	}
	return n
}

// RemoveDefs drops the marked definitions. What pointed at a dropped
// definition points at its nearest kept ancestor instead (children, enclosing
// definitions of references, type relations, dynamic sites and surfaces);
// same-file bindings to it are cleared. Paths are left as they were: rebuild
// them (ChildPath) when they depend on the parent chain.
func RemoveDefs(f *Facts, drop []bool) {
	some := false
	for _, d := range drop {
		some = some || d
	}
	if !some {
		return
	}
	// to[i] is the index after removal of Defs[i] or of its nearest kept
	// ancestor (-1 for none), resolved once per definition: a long chain of
	// dropped definitions costs its length once, not once per member.
	const unresolved = -2
	to := make([]int32, len(f.Defs))
	n := int32(0)
	for i := range f.Defs {
		to[i] = unresolved
		if !drop[i] {
			to[i] = n
			n++
		}
	}
	var chain []int32
	mapTo := func(i int32) int32 {
		chain = chain[:0]
		for i >= 0 && to[i] == unresolved && len(chain) <= len(f.Defs) {
			chain = append(chain, i)
			i = f.Defs[i].Parent
		}
		r := int32(-1)
		if i >= 0 && to[i] != unresolved {
			r = to[i]
		}
		for _, c := range chain {
			to[c] = r
		}
		return r
	}
	kept := make([]Def, 0, n)
	for i, d := range f.Defs {
		if drop[i] {
			continue
		}
		d.Parent = mapTo(d.Parent)
		kept = append(kept, d)
	}
	for i := range f.Refs {
		r := &f.Refs[i]
		r.Enclosing = mapTo(r.Enclosing)
		if r.BindDef >= 0 {
			if drop[r.BindDef] {
				r.BindDef = -1
			} else {
				r.BindDef = to[r.BindDef]
			}
		}
	}
	rels := f.TypeRels[:0]
	for _, t := range f.TypeRels {
		if t.Def = mapTo(t.Def); t.Def >= 0 {
			rels = append(rels, t)
		}
	}
	if len(rels) == 0 {
		rels = nil
	}
	f.TypeRels = rels
	for i := range f.Dynamic {
		f.Dynamic[i].Enclosing = mapTo(f.Dynamic[i].Enclosing)
	}
	for i := range f.Surfaces {
		f.Surfaces[i].Def = mapTo(f.Surfaces[i].Def)
	}
	f.Defs = kept
	if len(f.Defs) == 0 {
		f.Defs = nil
	}
}
