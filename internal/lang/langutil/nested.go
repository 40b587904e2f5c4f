package langutil

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// Members indexes the definitions nested directly in other definitions by
// their parent and name.
type Members map[member]int32

type member struct {
	parent int32
	name   string
}

// NewMembers indexes the nested definitions that keep accepts (nil accepts
// all); of several with one parent and name, the first counts.
func NewMembers(f *lang.Facts, keep func(d *lang.Def) bool) Members {
	m := Members{}
	for i := range f.Defs {
		d := &f.Defs[i]
		if d.Parent < 0 || keep != nil && !keep(d) {
			continue
		}
		k := member{d.Parent, d.Name}
		if _, ok := m[k]; !ok {
			m[k] = int32(i)
		}
	}
	return m
}

// Of is the definition named name directly inside parent, or -1.
func (m Members) Of(parent int32, name string) int32 {
	if i, ok := m[member{parent, name}]; ok {
		return i
	}
	return -1
}

// BindNested binds names to nested definitions, which the engine binds only
// when they are top-level: lookup(from, name) is the definition that name
// means inside definition from (by the language's scoping rule), or -1. A
// bare reference bound to no local binds to it; a qualifier whose first name
// finds one is marked bound (field.x). Import references are left alone.
func BindNested(f *lang.Facts, lookup func(from int32, name string) int32) {
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.BindLocal >= 0 || r.Enclosing < 0 || r.Role == lang.RoleImport {
			continue
		}
		switch r.Shape {
		case lang.QualNone:
			if d := lookup(r.Enclosing, f.Names[r.Name]); d >= 0 {
				r.BindDef, r.BindImp = d, -1
			}
		case lang.QualIdent, lang.QualPath:
			if r.QualBound {
				continue
			}
			q, _, _ := strings.Cut(f.Names[r.Qualifier], ".")
			if lookup(r.Enclosing, q) >= 0 {
				r.QualBound, r.BindImp = true, -1
			}
		}
	}
}
