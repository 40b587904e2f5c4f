package graph

import (
	"context"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// maxOverrideFamily bounds the methods OverrideFamily follows.
const maxOverrideFamily = 512

// Family is the methods tied to one by overriding or implementation.
type Family struct {
	Methods []store.SymbolRow // the others, nearest first
	// Tops are the methods of the family, the one asked about included,
	// that override or implement no method of the repository: where one
	// of them says it overrides, what it overrides is declared outside.
	Tops []store.SymbolRow
	// Anonymous are the methods of the name declared in anonymous class
	// bodies (Java's new T() { ... }): syntax does not say which type
	// such a class extends, so each may override a method of the family.
	// SelfAnonymous is set when the method asked about is one of them.
	Anonymous     []store.SymbolRow
	SelfAnonymous bool
	More          bool // more than maxOverrideFamily: Methods is cut
	// Outside are the bases, as written, that the classes declaring Tops
	// extend and syntax did not resolve to a type of the repository: a
	// member of a top may override one of theirs.
	Outside []string
}

// OverrideFamily finds, from syntax, the methods tied to a method by
// overriding or implementation in a language whose classes inherit methods
// and that does not count them among its references (Java, Kotlin, C#,
// C++, PHP, Ruby, Python, Rust's traits): transitively, the base and
// interface methods it overrides or implements, the methods overriding or
// implementing it (in subtypes and in the bodies of enum constants), and
// theirs. A call through any of them may run any other, so they are
// renamed together or not at all. Where attributes are shared by name
// (lang.Language.SharedAttributes), a field's family is the fields of its
// name up and down its class's hierarchy, one attribute of every object.
func OverrideFamily(ctx context.Context, e *query.Engine, r *query.Resolved) (Family, error) {
	if !Overridable(r) {
		return Family{}, nil
	}
	w, err := newWalker(ctx, e, query.LayerSyntactic)
	if err != nil {
		return Family{}, err
	}
	fw := &familyWalk{w: w, seen: map[int64]bool{r.Row.ID: true}, queue: []store.SymbolRow{r.Row}}
	if err := fw.walk(ctx, r.Row.ID); err != nil || fw.f.SelfAnonymous || fw.f.More {
		return fw.f, err
	}
	// the methods of anonymous classes that extend a type of the family
	if err := fw.anonymous(ctx, r); err != nil {
		return fw.f, err
	}
	if err := fw.walk(ctx, r.Row.ID); err != nil {
		return fw.f, err
	}
	return fw.f, fw.outside(ctx)
}

// outside collects Family.Outside: the unresolved bases of the classes
// declaring the family's tops.
func (fw *familyWalk) outside(ctx context.Context) error {
	seen := map[string]bool{}
	for _, t := range fw.f.Tops {
		owner, ok, err := fw.w.row(ctx, t.Parent)
		if err != nil {
			return err
		}
		if !ok || !lang.DefKind(owner.Kind).IsTypeLike() {
			continue
		}
		_, unresolved, err := fw.w.supertypes(ctx, owner, true)
		if err != nil {
			return err
		}
		for _, u := range unresolved {
			if !seen[u] {
				seen[u] = true
				fw.f.Outside = append(fw.f.Outside, u)
			}
		}
	}
	return nil
}

// Overridable reports whether r is a member OverrideFamily follows: a
// method (not a static one's own) of a language whose calls may run an
// override and whose references leave overrides out, or a field of a
// language whose attributes are shared by name.
func Overridable(r *query.Resolved) bool {
	l := lang.Of(r.File.Lang)
	if l.RelatedRefs != lang.RelatedNone || l.Dispatch == lang.DispatchMethodSet {
		return false
	}
	switch lang.DefKind(r.Row.Kind) {
	case lang.KindMethod:
		return true
	case lang.KindField, lang.KindProperty:
		return l.SharedAttributes
	}
	return false
}

// SameMember reports whether o is a member of the kind m is, as overriding
// pairs them: a method with a method, a field or property with either.
func SameMember(m, o store.SymbolRow) bool {
	a, b := lang.DefKind(m.Kind), lang.DefKind(o.Kind)
	if a == lang.KindMethod || b == lang.KindMethod {
		return a == b
	}
	return isAttribute(a) && isAttribute(b)
}

// collides reports whether o, a member of a class above or below m's,
// would clash with m named as o: a method would override or be overridden
// by a method; where attributes are shared by name, any attribute or
// method of the name is the same slot.
func collides(l *lang.Language, m, o store.SymbolRow) bool {
	if l.SharedAttributes {
		k := lang.DefKind(o.Kind)
		return k == lang.KindMethod || isAttribute(k)
	}
	return lang.DefKind(m.Kind) == lang.KindMethod && lang.DefKind(o.Kind) == lang.KindMethod
}

func isAttribute(k lang.DefKind) bool { return k == lang.KindField || k == lang.KindProperty }

// walk steps from each method queued until the family is whole.
func (fw *familyWalk) walk(ctx context.Context, self int64) error {
	for len(fw.queue) > 0 && !fw.f.More {
		m := fw.queue[0]
		fw.queue = fw.queue[1:]
		if err := fw.step(ctx, m, m.ID == self); err != nil {
			return err
		}
	}
	return nil
}

// familyWalk is one OverrideFamily walk.
type familyWalk struct {
	w     *walker
	f     Family
	seen  map[int64]bool
	queue []store.SymbolRow
	based bool // the method being stepped from overrides one of the repository
}

func (fw *familyWalk) visit(m store.SymbolRow) error {
	fw.based = true
	switch {
	case fw.seen[m.ID]:
	case len(fw.f.Methods) == maxOverrideFamily:
		fw.f.More = true
	default:
		fw.seen[m.ID] = true
		fw.f.Methods = append(fw.f.Methods, m)
		fw.queue = append(fw.queue, m)
	}
	return nil
}

// step visits the methods m overrides or implements and those overriding
// or implementing it.
func (fw *familyWalk) step(ctx context.Context, m store.SymbolRow, self bool) error {
	w := fw.w
	owner, ok, err := w.row(ctx, m.Parent)
	if err != nil || !ok {
		return err
	}
	fw.based = false
	switch k := lang.DefKind(owner.Kind); {
	case k == lang.KindEnumMember:
		// the body of an enum constant: it overrides its enum's methods
		enum, ok, err := w.row(ctx, owner.Parent)
		if err != nil || !ok {
			return err
		}
		if err := fw.sameIn(ctx, enum, m, fw.visit); err != nil {
			return err
		}
		owner = enum
	case !k.IsTypeLike():
		base, _, ok, err := fw.anonymousBase(ctx, m)
		if err != nil {
			return err
		}
		if !ok {
			if self {
				fw.f.SelfAnonymous = true // an anonymous class's whose base is unknown
			}
			return nil
		}
		// an anonymous class's: it overrides its base type's methods
		if err := fw.sameIn(ctx, base, m, fw.visit); err != nil {
			return err
		}
		if err := w.relatedMethods(ctx, base, m, fw.supers(ctx), fw.visit); err != nil {
			return err
		}
		if !fw.based {
			fw.f.Tops = append(fw.f.Tops, m)
		}
		return nil
	}
	if err := w.relatedMethods(ctx, owner, m, fw.supers(ctx), fw.visit); err != nil {
		return err
	}
	if !fw.based {
		fw.f.Tops = append(fw.f.Tops, m)
	}
	if err := w.relatedMethods(ctx, owner, m, fw.subs(ctx), fw.visit); err != nil {
		return err
	}
	if lang.DefKind(owner.Kind) != lang.KindEnum {
		return nil
	}
	constants, err := w.e.SymbolsByParent(ctx, owner.ID, 1000)
	if err != nil {
		return err
	}
	for _, c := range constants {
		if lang.DefKind(c.Kind) == lang.KindEnumMember {
			if err := fw.sameIn(ctx, c, m, fw.visit); err != nil {
				return err
			}
		}
	}
	return nil
}

// sameIn calls each for the methods of t named as m and taking as many
// arguments.
func (fw *familyWalk) sameIn(ctx context.Context, t, m store.SymbolRow, each func(store.SymbolRow) error) error {
	rows, err := fw.w.e.SymbolsByParent(ctx, t.ID, 1000)
	if err != nil {
		return err
	}
	for _, o := range rows {
		if o.ID == m.ID || o.Name != m.Name || !SameMember(m, o) {
			continue
		}
		if same, err := fw.w.sameArity(ctx, m, o); err != nil {
			return err
		} else if same {
			if err := each(o); err != nil {
				return err
			}
		}
	}
	return nil
}

func (fw *familyWalk) supers(ctx context.Context) func(typeStep) ([]typeEdge, error) {
	return func(it typeStep) ([]typeEdge, error) {
		s, _, err := fw.w.supertypes(ctx, it.row, true)
		return s, err
	}
}

func (fw *familyWalk) subs(ctx context.Context) func(typeStep) ([]typeEdge, error) {
	return func(it typeStep) ([]typeEdge, error) { return fw.w.subtypes(ctx, it.row) }
}

// anonymousBase is the type the anonymous class declaring m extends or
// implements, as the reference in new T() { ... } is linked. known is false
// when m is declared in no anonymous class the facts know of; ok is false
// also when T is not a type of the repository.
func (fw *familyWalk) anonymousBase(ctx context.Context, m store.SymbolRow) (base store.SymbolRow, known, ok bool, err error) {
	w := fw.w
	mr, err := w.resolved(ctx, m)
	if err != nil || mr == nil || mr.Facts == nil || mr.Def == nil {
		return base, false, false, err
	}
	i := mr.Facts.AnonymousAt(mr.Def.NameSpan.Start)
	if i < 0 {
		return base, false, false, nil
	}
	links, err := w.fileLinks(ctx, m.FileID)
	if err != nil {
		return base, true, false, err
	}
	l, found := links[int(mr.Facts.Anonymous[i].Base)]
	if !found || l.Target == 0 {
		return base, true, false, nil
	}
	t, found, err := w.row(ctx, l.Target)
	if err == nil && found && lang.DefKind(t.Kind) == lang.KindConstructor {
		t, found, err = w.row(ctx, t.Parent) // new T() linked to T's constructor
	}
	if err != nil || !found || !lang.DefKind(t.Kind).IsTypeLike() {
		return base, true, false, err
	}
	return t, true, true, nil
}

// anonymous visits the methods of r's name and arity, in its language,
// declared in anonymous class bodies (inside a method or a field's
// initializer rather than a type or an enum constant) that override a
// method of the family; those whose base syntax does not resolve are
// Family.Anonymous, candidates.
func (fw *familyWalk) anonymous(ctx context.Context, r *query.Resolved) error {
	w := fw.w
	rows, err := w.e.SymbolsByName(ctx, r.Row.Name)
	if err != nil {
		return err
	}
	for _, o := range rows {
		if fw.seen[o.ID] || o.Parent == 0 || lang.DefKind(o.Kind) != lang.KindMethod {
			continue
		}
		parent, ok, err := w.row(ctx, o.Parent)
		if err != nil {
			return err
		}
		if !ok || lang.DefKind(parent.Kind).IsTypeLike() || lang.DefKind(parent.Kind) == lang.KindEnumMember {
			continue
		}
		f, err := w.file(ctx, o.FileID)
		if err != nil {
			return err
		}
		if f == nil || query.LangFamily(f.Lang) != query.LangFamily(r.File.Lang) {
			continue
		}
		same, err := w.sameArity(ctx, r.Row, o)
		if err != nil {
			return err
		}
		if !same {
			continue
		}
		tied, known, err := fw.overridesFamily(ctx, o)
		switch {
		case err != nil:
			return err
		case tied:
			if err := fw.visit(o); err != nil {
				return err
			}
		case !known:
			fw.f.Anonymous = append(fw.f.Anonymous, o)
		}
	}
	return nil
}

// overridesFamily reports whether anonymous method o overrides a method of
// the family found so far; known is false when syntax does not say what
// o's class extends.
func (fw *familyWalk) overridesFamily(ctx context.Context, o store.SymbolRow) (tied, known bool, err error) {
	base, known, ok, err := fw.anonymousBase(ctx, o)
	if err != nil || !ok {
		return false, known, err // a base outside the repository overrides nothing of it
	}
	check := func(m store.SymbolRow) error {
		tied = tied || fw.seen[m.ID]
		return nil
	}
	if err := fw.sameIn(ctx, base, o, check); err != nil {
		return false, true, err
	}
	err = fw.w.relatedMethods(ctx, base, o, fw.supers(ctx), check)
	return tied, true, err
}

// InHierarchy lists the methods named name that take as many arguments as
// each of ms, declared in the supertypes and subtypes of the types declaring
// ms (ms themselves left out): renamed to name, a method of ms would start
// overriding one of them or being overridden by it. Where attributes are
// shared by name, it lists the fields of the name too, and for a field
// the methods and fields: either would become the same slot.
func InHierarchy(ctx context.Context, e *query.Engine, ms []store.SymbolRow, name string) ([]store.SymbolRow, error) {
	w, err := newWalker(ctx, e, query.LayerSyntactic)
	if err != nil {
		return nil, err
	}
	fw := &familyWalk{w: w}
	skip := map[int64]bool{}
	for _, m := range ms {
		skip[m.ID] = true
	}
	var out []store.SymbolRow
	found := map[int64]bool{}
	for _, m := range ms {
		owner, ok, err := w.row(ctx, m.Parent)
		if err != nil {
			return nil, err
		}
		if !ok || !lang.DefKind(owner.Kind).IsTypeLike() {
			continue
		}
		arity, err := w.arity(ctx, m)
		if err != nil {
			return nil, err
		}
		f, err := w.file(ctx, m.FileID)
		if err != nil || f == nil {
			return nil, err
		}
		l := lang.Of(f.Lang)
		for _, next := range []func(typeStep) ([]typeEdge, error){fw.supers(ctx), fw.subs(ctx)} {
			err := w.walkRelations(owner, map[int64]bool{owner.ID: true}, next, func(_ typeStep, s typeEdge) (bool, error) {
				own, err := w.directMembers(ctx, s.row)
				if err != nil {
					return false, err
				}
				for _, o := range own {
					if o.Name != name || !collides(l, m, o) || skip[o.ID] || found[o.ID] {
						continue
					}
					a, err := w.arity(ctx, o)
					if err != nil {
						return false, err
					}
					if !arity.Known || !a.Known || a.SameParameters(arity) {
						found[o.ID] = true
						out = append(out, o)
					}
				}
				return true, nil
			})
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
