package langutil

import "github.com/cairnhq/cairn/internal/lang"

// Assignment is what an assignment gives a variable of a dynamically typed
// language: the class it constructs ("new Foo"), the call it stores ("call
// f()"), or "?" for anything else.
type Assignment struct {
	Scope int32
	Name  string
	What  string
}

// Untyped forgets the type (and the call) that a local is declared or
// first assigned with when the assignments of its name in its scope do not
// all give it the same thing (PHP and Ruby hold no variable to one class);
// so does param, for a local that is a parameter assigned at all.
func Untyped(f *lang.Facts, assigned []Assignment, param func(lo lang.Local) bool) {
	type key struct {
		scope int32
		name  string
	}
	what := map[key]map[string]bool{}
	for _, a := range assigned {
		k := key{a.Scope, a.Name}
		if what[k] == nil {
			what[k] = map[string]bool{}
		}
		what[k][a.What] = true
	}
	for i := range f.Locals {
		lo := &f.Locals[i]
		if lo.Type == "" && lo.Via == 0 {
			continue
		}
		got := what[key{lo.Scope, f.Names[lo.Name]}]
		if len(got) > 1 || len(got) == 1 && param != nil && param(*lo) {
			lo.Type, lo.Via = "", 0
		}
	}
}
