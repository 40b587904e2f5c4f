package graph

import (
	"context"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// maxOverrideFamily bounds the methods OverrideFamily follows.
const maxOverrideFamily = 64

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
}

// OverrideFamily finds, from syntax, the methods tied to a method by
// overriding or implementation in a language that dispatches through type
// hierarchies and does not count them among its references (Java, Kotlin,
// C#, C++, PHP, Ruby, Rust's traits): transitively, the base and interface
// methods it overrides or implements, the methods overriding or
// implementing it (in subtypes and in the bodies of enum constants), and
// theirs. A call through any of them may run any other, so they are
// renamed together or not at all.
func OverrideFamily(ctx context.Context, e *query.Engine, r *query.Resolved) (Family, error) {
	l := lang.Of(r.File.Lang)
	if lang.DefKind(r.Row.Kind) != lang.KindMethod || l.Dispatch != lang.DispatchHierarchy || l.RelatedRefs != lang.RelatedNone {
		return Family{}, nil
	}
	w, err := newWalker(ctx, e, query.LayerSyntactic)
	if err != nil {
		return Family{}, err
	}
	fw := &familyWalk{w: w, seen: map[int64]bool{r.Row.ID: true}, queue: []store.SymbolRow{r.Row}}
	for len(fw.queue) > 0 && !fw.f.More {
		m := fw.queue[0]
		fw.queue = fw.queue[1:]
		if err := fw.step(ctx, m, m.ID == r.Row.ID); err != nil {
			return fw.f, err
		}
	}
	if fw.f.SelfAnonymous || fw.f.More {
		return fw.f, nil
	}
	return fw.f, fw.anonymous(ctx, r)
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
		if err := fw.sameIn(ctx, enum, m); err != nil {
			return err
		}
		owner = enum
	case !k.IsTypeLike():
		if self {
			fw.f.SelfAnonymous = true // an anonymous class's: its base is unknown
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
			if err := fw.sameIn(ctx, c, m); err != nil {
				return err
			}
		}
	}
	return nil
}

// sameIn visits the methods of t named as m and taking as many arguments.
func (fw *familyWalk) sameIn(ctx context.Context, t, m store.SymbolRow) error {
	rows, err := fw.w.e.SymbolsByParent(ctx, t.ID, 1000)
	if err != nil {
		return err
	}
	for _, o := range rows {
		if o.ID == m.ID || o.Name != m.Name || lang.DefKind(o.Kind) != lang.KindMethod {
			continue
		}
		if same, err := fw.w.sameArity(ctx, m, o); err != nil {
			return err
		} else if same {
			if err := fw.visit(o); err != nil {
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

// anonymous lists the methods of r's name and arity, in its language,
// declared in anonymous class bodies: inside a method or a field's
// initializer rather than a type or an enum constant.
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
		if same, err := w.sameArity(ctx, r.Row, o); err != nil {
			return err
		} else if same {
			fw.f.Anonymous = append(fw.f.Anonymous, o)
		}
	}
	return nil
}
