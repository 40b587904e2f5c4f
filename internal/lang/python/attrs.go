package python

import (
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/langutil"
)

// attrEvidence is what the assignments of one class attribute say of its type.
type attrEvidence struct {
	declared []string // annotations (x: T in the class body, self.x: T = v); "" for one that names no class
	inferred []string // classes called on the right (x = T(...), self.x = T(...))
	unknown  bool     // an assignment of another value (None aside)
	pos      lang.Pos // the first assignment
}

// typ is the attribute's type: the annotation when every annotation agrees,
// else the class every assignment calls; "" when the evidence disagrees or
// is missing. None is compatible with any type.
func (e *attrEvidence) typ() string {
	if len(e.declared) > 0 {
		return agree(e.declared)
	}
	if e.unknown {
		return ""
	}
	return agree(e.inferred)
}

func agree(ts []string) string {
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

type attrKey struct {
	class int32 // index into Facts.Defs; -1 for a module-level variable
	name  string
}

// attributes types the attributes of classes from their assignments: the
// fields assigned in the class body (Def.Type) and the instance attributes
// that methods assign through self (self.x = T(...), self.x: T = v); and
// the variables of the module the same way (current: Engine = proxy(),
// caches = CacheHandler(): Def.Type of each definition of the name). An
// instance attribute without a class-body definition is recorded as a local
// named "self.x" in the class's scope, which no reference binds: it carries
// the type the linker gives self.x.m. Anything but one class agreed on by
// all assignments leaves the attribute untyped.
func attributes(v *lang.View, f *lang.Facts) {
	ev := map[attrKey]*attrEvidence{}
	var order []attrKey
	get := func(k attrKey, p lang.Pos) *attrEvidence {
		e := ev[k]
		if e == nil {
			e = &attrEvidence{pos: p}
			ev[k] = e
			order = append(order, k)
		}
		return e
	}
	covered := map[lang.Pos]bool{} // the attribute names of the assignments read here
	for n := 0; n < v.Len(); n++ {
		if v.Kind(n) != "assignment" {
			continue
		}
		left := v.Child(n, "left")
		if left < 0 {
			continue
		}
		switch v.Kind(left) {
		case "identifier":
			// a field in a class body: assignment < expression_statement < block < class_definition
			st := v.Parent(n)
			if st < 0 || v.Kind(st) != "expression_statement" {
				continue
			}
			blk := v.Parent(st)
			p := v.Start(left)
			if v.Kind(blk) == "module" {
				for _, d := range f.Defs {
					if d.NameSpan.Start == p && d.Kind == lang.KindVariable && d.Parent < 0 {
						covered[p] = true
						assignment(v, f, n, get(attrKey{-1, d.Name}, p), -1)
						break
					}
				}
				continue
			}
			if blk < 0 || v.Kind(blk) != "block" || v.Parent(blk) < 0 || v.Kind(v.Parent(blk)) != "class_definition" {
				continue
			}
			cls := int32(-1)
			for _, d := range f.Defs {
				if d.NameSpan.Start == p && d.Kind == lang.KindField {
					cls = d.Parent
					break
				}
			}
			if cls < 0 {
				continue
			}
			covered[p] = true
			assignment(v, f, n, get(attrKey{cls, v.Text(left)}, p), -1)
		case "attribute":
			obj, attr := v.Child(left, "object"), v.Child(left, "attribute")
			if obj < 0 || attr < 0 || v.Kind(obj) != "identifier" || v.Text(obj) != "self" {
				continue
			}
			m := langutil.Enclosing(f, v.Start(n))
			if m < 0 || f.Defs[m].Kind != lang.KindMethod || f.Defs[m].Parent < 0 {
				continue
			}
			cls := f.Defs[m].Parent
			if f.Defs[cls].Kind != lang.KindClass {
				continue
			}
			covered[v.Start(attr)] = true
			assignment(v, f, n, get(attrKey{cls, v.Text(attr)}, v.Start(obj)), langutil.InnermostScope(f, v.Start(n)))
		}
	}
	// Other bindings (x += 1, a, b = ..., for self.x in ...) say nothing of the type.
	for _, r := range f.Refs {
		if r.Role != lang.RoleWrite || covered[r.Pos] {
			continue
		}
		if r.Shape == lang.QualSelf && f.Names[r.Qualifier] == "self" {
			if m := langutil.Enclosing(f, r.Pos); m >= 0 && f.Defs[m].Kind == lang.KindMethod && f.Defs[m].Parent >= 0 {
				get(attrKey{f.Defs[m].Parent, f.Names[r.Name]}, r.Pos).unknown = true
			}
		}
	}
	for _, d := range f.Defs {
		if d.Kind == lang.KindField && d.Parent >= 0 && !covered[d.NameSpan.Start] {
			get(attrKey{d.Parent, d.Name}, d.NameSpan.Start).unknown = true
		}
		if d.Kind == lang.KindVariable && d.Parent < 0 && !covered[d.NameSpan.Start] {
			get(attrKey{-1, d.Name}, d.NameSpan.Start).unknown = true // a, b = ..., in an if block
		}
	}
	for _, k := range order {
		t := ev[k].typ()
		if t == "" {
			continue
		}
		if k.class < 0 {
			for i, d := range f.Defs {
				if d.Kind == lang.KindVariable && d.Parent < 0 && d.Name == k.name {
					f.Defs[i].Type = t
				}
			}
			continue
		}
		field := -1
		for i, d := range f.Defs {
			if d.Parent == k.class && d.Name == k.name {
				field = i
				break
			}
		}
		if field >= 0 {
			if f.Defs[field].Kind == lang.KindField {
				f.Defs[field].Type = t
			}
			continue // a method or nested class of that name: no attribute
		}
		scope := int32(-1)
		for s := range f.Scopes {
			if f.Scopes[s].Span == f.Defs[k.class].Span {
				scope = int32(s)
				break
			}
		}
		if scope < 0 {
			continue
		}
		f.Locals = append(f.Locals, lang.Local{Name: langutil.Name(f, "self."+k.name), Pos: ev[k].pos, Scope: scope, Type: t})
	}
}

// assignment adds what assignment node n says of an attribute's type. scope,
// for an assignment in a method, is where a name on the right resolves.
func assignment(v *lang.View, f *lang.Facts, n int, e *attrEvidence, scope int32) {
	if t := v.Child(n, "type"); t >= 0 {
		e.declared = append(e.declared, classType(v, t))
		return
	}
	r := v.Child(n, "right")
	if r < 0 {
		e.unknown = true
		return
	}
	switch v.Kind(r) {
	case "none":
	case "call":
		if fn := v.Child(r, "function"); fn >= 0 && (v.Kind(fn) == "identifier" || v.Kind(fn) == "attribute") {
			if t := lang.TypeName(v.Text(fn)); t != "" {
				e.inferred = append(e.inferred, t)
				return
			}
		}
		e.unknown = true
	case "identifier":
		// self.x = x, where x is a parameter or local with a type
		if scope >= 0 {
			name := v.Text(r)
			for s := scope; s >= 0; s = f.Scopes[s].Parent {
				for _, lo := range f.Locals {
					if lo.Scope == s && f.Names[lo.Name] == name {
						if lo.Type != "" {
							e.inferred = append(e.inferred, lo.Type)
						} else {
							e.unknown = true
						}
						return
					}
				}
			}
		}
		e.unknown = true
	default:
		e.unknown = true
	}
}

// classType is the class an annotation (a type node) names, or "".
func classType(v *lang.View, t int) string {
	for _, c := range v.Children(t) {
		switch v.Kind(c) {
		case "identifier", "attribute":
			return lang.TypeName(v.Text(c))
		}
	}
	return ""
}
