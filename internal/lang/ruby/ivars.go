package ruby

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// An instance variable (@host) belongs to the object: the instance methods
// of its class read and assign it. Each one that an instance method
// assigns is a field of the class named with its @, defined where
// initialize first assigns it, or else the first method that does; its
// span is its name, and its signature the assignment. The @host of the
// class's instance methods bind to it (bindLexical); those of a class body
// or of def self.m are the class object's and stay apart.

// isIvar reports whether a name is an instance variable's.
func isIvar(name string) bool { return strings.HasPrefix(name, "@") && !strings.HasPrefix(name, "@@") }

// instanceVariables adds the fields that instance methods assign; nodes
// maps each definition to its node.
func instanceVariables(v *lang.View, f *lang.Facts, nodes []int) {
	type site struct {
		class      int32
		name, stmt int
		init       bool
	}
	sites := map[string]*site{}
	var order []string
	writes := map[lang.Pos]bool{}
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "instance_variable" {
			continue
		}
		st := v.Parent(n)
		if v.Kind(st) == "left_assignment_list" { // @a, @b = a, b
			st = v.Parent(st)
			if v.Kind(st) != "assignment" {
				continue
			}
		} else if k := v.Kind(st); (k != "assignment" && k != "operator_assignment") || v.Child(st, "left") != n {
			continue
		}
		writes[v.Start(n)] = true
		m := langutil.Enclosing(f, v.Start(n))
		if m < 0 || int(m) >= len(nodes) || nodes[m] < 0 || v.Kind(nodes[m]) != "method" {
			continue
		}
		cls := f.Defs[m].Parent
		if cls < 0 || !isNamespace(f.Defs[cls].Kind) {
			continue
		}
		key := f.Defs[cls].Path + "\x00" + v.Text(n)
		init := f.Defs[m].Name == "initialize"
		switch s := sites[key]; {
		case s == nil:
			sites[key] = &site{class: cls, name: n, stmt: st, init: init}
			order = append(order, key)
		case init && !s.init:
			s.name, s.stmt, s.init = n, st, true
		}
	}
	var add []lang.Def
	for _, key := range order {
		s := sites[key]
		add = append(add, langutil.AssignedDef(v, f, lang.KindField, s.class, v.Text(s.name), s.name, s.stmt, lang.VisPrivate))
	}
	for i := range f.Refs {
		if writes[f.Refs[i].Pos] {
			f.Refs[i].Role = lang.RoleWrite // @name = value
		}
	}
	langutil.DeclareAssigned(f, add)
}
