package classlang

import (
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// this(4) and super(4) in a constructor run a constructor of the class, or
// of the class it extends, that takes their arguments: calls named after
// that class, as new Box(4) is, so that the references and callers of a
// constructor count them by their number of arguments.

// Delegation is this(...) or super(...) in a constructor (Java's, Kotlin's
// secondary ones): where the keyword is, whether it is super, and 1 + the
// number of arguments.
type Delegation struct {
	At    lang.Pos
	Super bool
	Args  uint16
}

// ConstructorCalls adds the calls ds make, named after the class whose
// constructor they run: the enclosing class (bound to it), or the class it
// extends, by its simple name (bound to a class of the file or an import of
// the name). A super(...) of a class that extends none, or names its base
// by a path, is left out.
func ConstructorCalls(f *lang.Facts, ds []Delegation) {
	if len(ds) == 0 {
		return
	}
	names := lang.NewNameTable(f)
	imports := f.ImportByName()
	for _, d := range ds {
		in := f.DefAt(d.At)
		class := enclosingClass(f, in)
		if class < 0 {
			continue
		}
		name, def := f.Defs[class].Name, class
		if d.Super {
			if name, def = baseClass(f, class); name == "" {
				continue
			}
		}
		r := lang.Ref{Name: names.ID(name), Pos: d.At, Role: lang.RoleCall, Args: d.Args, Enclosing: in, Scope: -1,
			BindLocal: -1, BindDef: def, BindImp: -1}
		if imp, ok := imports[name]; ok && def < 0 {
			r.BindImp = imp
		}
		f.Refs = append(f.Refs, r)
	}
	sort.SliceStable(f.Refs, func(i, j int) bool { return f.Refs[i].Pos.Before(f.Refs[j].Pos) })
}

// enclosingClass is the class around definition d, or -1.
func enclosingClass(f *lang.Facts, d int32) int32 {
	for ; d >= 0; d = f.Defs[d].Parent {
		if k := f.Defs[d].Kind; k == lang.KindClass || k == lang.KindEnum {
			return d
		}
	}
	return -1
}

// baseClass is the simple name of the class that class extends and its
// definition in the file (-1 when another file declares it); "" when it
// extends none or names it by a path. Where no relation says extends (a
// Kotlin supertype written without arguments, class K : Box { constructor()
// : super() }), the one supertype the class names is the class.
func baseClass(f *lang.Facts, class int32) (string, int32) {
	target, supertypes := "", 0
	for _, t := range f.TypeRels {
		if t.Def != class {
			continue
		}
		supertypes++
		if t.Kind == lang.RelExtends {
			target, supertypes = t.Target, 1
			break
		}
		target = t.Target
	}
	if supertypes != 1 {
		return "", -1
	}
	name, _, _ := strings.Cut(target, "<")
	if strings.Contains(name, ".") {
		return "", -1
	}
	for i, d := range f.Defs {
		if d.Name == name && d.Kind == lang.KindClass && d.Parent < 0 {
			return name, int32(i)
		}
	}
	return name, -1
}
