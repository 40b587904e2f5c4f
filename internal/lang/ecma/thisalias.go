package ecma

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// ThisAliases reads the members of a local that holds a method's this as
// members of this: const self = this; ... self.m() in a callback is
// this.m() of the method's class. Only where the local is never assigned
// again, and only in a method, a constructor or one of fns, the other
// functions whose this is an instance (JavaScript's constructor functions
// and prototype members, PrototypeMethods): arrow functions keep their
// this, any other function has its own.
func ThisAliases(v *lang.View, f *lang.Facts, fns map[int]bool) {
	var aliases []int32 // locals holding this
	localAt := make(map[lang.Pos]int32, len(f.Locals))
	for i, lo := range f.Locals {
		localAt[lo.Pos] = int32(i)
	}
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "variable_declarator" {
			continue
		}
		name, val := langutil.Child(v, n, "name"), langutil.Child(v, n, "value")
		if v.Kind(name) != "identifier" || v.Kind(val) != "this" || !methodThis(v, n, fns) {
			continue
		}
		if li, ok := localAt[v.Start(name)]; ok {
			aliases = append(aliases, li)
		}
	}
	if len(aliases) == 0 {
		return
	}
	for _, r := range f.Refs {
		if r.Role == lang.RoleWrite && r.BindLocal >= 0 {
			for i, a := range aliases {
				if a == r.BindLocal {
					aliases[i] = -1 // assigned again: no longer this
				}
			}
		}
	}
	binder := langutil.NewBinder(f, nil)
	this := lang.NewNameTable(f).ID("this")
	for i := range f.Refs {
		r := &f.Refs[i]
		if r.Shape != lang.QualIdent || !r.QualBound {
			continue
		}
		li := binder.Lookup(r.Qualifier, r.Scope, r.Pos, true)
		for _, a := range aliases {
			if a >= 0 && a == li {
				r.Shape, r.Qualifier, r.QualBound = lang.QualSelf, this, false
			}
		}
	}
}
