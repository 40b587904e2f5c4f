package query

import (
	"context"
	"regexp"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// maxOverloads bounds the candidates whose signatures are read to choose
// an overload by the parameter list a name is written with.
const maxOverloads = 64

// typeOverItsConstructors settles a name shared by one class, struct or
// enum and constructors of that very type (Java, C#, Kotlin, C++ spell a
// constructor with its type's name): the type is what the name means; its
// constructors are Type.Type, or chosen with a parameter list.
func typeOverItsConstructors(rows []store.SymbolRow) (store.SymbolRow, bool) {
	var typ store.SymbolRow
	types := 0
	for _, r := range rows {
		if lang.DefKind(r.Kind) != lang.KindConstructor {
			typ = r
			types++
		}
	}
	if types != 1 || !lang.DefKind(typ.Kind).IsTypeLike() {
		return store.SymbolRow{}, false
	}
	for _, r := range rows {
		if r.ID != typ.ID && !constructs(r, typ) {
			return store.SymbolRow{}, false
		}
	}
	return typ, true
}

// constructorsOfTypes replaces each type of rows that has constructors by
// them: a name written with a parameter list (Box(int)) calls something.
func (e *Engine) constructorsOfTypes(ctx context.Context, rows []store.SymbolRow) ([]store.SymbolRow, error) {
	var out []store.SymbolRow
	seen := map[int64]bool{}
	add := func(r store.SymbolRow) {
		if !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, r)
		}
	}
	for _, r := range rows {
		if !lang.DefKind(r.Kind).IsTypeLike() {
			add(r)
			continue
		}
		own, err := e.Constructors(ctx, r)
		if err != nil {
			return nil, err
		}
		for _, c := range own {
			add(c)
		}
		if len(own) == 0 {
			add(r) // no constructor of its own: the type stands
		}
	}
	return out, nil
}

// Constructors are the constructors of the type t: those it encloses and
// those defined out of it under its name (C++'s A::A() {}), in the
// request's view.
func (e *Engine) Constructors(ctx context.Context, t store.SymbolRow) ([]store.SymbolRow, error) {
	named, err := e.Store().SymbolsByName(ctx, t.Name)
	if err == nil {
		named, err = e.ovCandidates(ctx, t.Name, named)
	}
	if err != nil {
		return nil, err
	}
	var out []store.SymbolRow
	for _, c := range named {
		if lang.DefKind(c.Kind) == lang.KindConstructor && constructs(c, t) {
			out = append(out, c)
		}
	}
	return out, nil
}

// TypeOfConstructor is the type a constructor builds: the type enclosing
// it, or for one defined out of its class, the one type of its qualified
// name. ok is false for any other symbol.
func (e *Engine) TypeOfConstructor(ctx context.Context, c store.SymbolRow) (store.SymbolRow, bool, error) {
	if lang.DefKind(c.Kind) != lang.KindConstructor {
		return store.SymbolRow{}, false, nil
	}
	if c.Parent != 0 {
		t, ok, err := e.symbolByID(ctx, c.Parent)
		return t, ok && constructs(c, t), err
	}
	local := localQName(c.QName)
	dot := strings.LastIndexByte(local, '.')
	if dot < 0 {
		return store.SymbolRow{}, false, nil
	}
	rows, err := e.candidates(ctx, local[:dot])
	var types []store.SymbolRow
	for _, t := range rows {
		if lang.DefKind(t.Kind).IsTypeLike() && constructs(c, t) {
			types = append(types, t)
		}
	}
	if err != nil || len(types) != 1 {
		return store.SymbolRow{}, false, err
	}
	return types[0], true, nil
}

// constructs reports whether the constructor c belongs to the type t: t
// encloses it, or it is defined out of its class under t's qualified name
// (C++'s A::A() {} in a file other than A's header).
func constructs(c, t store.SymbolRow) bool {
	return c.Parent == t.ID || (c.Name == t.Name && localQName(c.QName) == localQName(t.QName)+"."+c.Name)
}

// localQName is a qualified name without its file: path#A.B is A.B.
func localQName(q string) string {
	if _, local, ok := strings.Cut(q, "#"); ok {
		return local
	}
	return q
}

// overloadExample is name written with the parameters of the first of
// rows, when rows are one qualified name defined several times (only a
// parameter list or an id tells them apart): ArrayList.add(E e).
func (e *Engine) overloadExample(ctx context.Context, name string, rows []store.SymbolRow) (string, bool) {
	for _, r := range rows[1:] {
		if r.QName != rows[0].QName {
			return "", false
		}
	}
	r, err := e.Load(ctx, rows[0])
	if err != nil || r == nil || r.Def == nil {
		return "", false
	}
	params, ok := lang.SignatureParameters(r.Def.Signature, rows[0].Name)
	if !ok {
		return "", false
	}
	if _, written := parameterList(name); written {
		name = name[:strings.IndexByte(name, '(')]
	}
	return name + "(" + strings.Join(params, ", ") + ")", true
}

// parameterList is what a name writes between the parentheses that end it,
// and whether it ends with some: put(K, V) gives "K, V"; save() gives "".
func parameterList(name string) (string, bool) {
	if !strings.HasSuffix(name, ")") {
		return "", false
	}
	open := strings.IndexByte(name, '(')
	if open <= 0 || strings.HasSuffix(name[:open], ".") {
		return "", false // (*T).M, pkg.(T).M: a method expression, not a parameter list
	}
	return name[open+1 : len(name)-1], true
}

// byParameters keeps the candidates whose signatures take the parameters
// written (as many, each naming the type or the name of its parameter:
// add(int, E), put(Object, Object), save()), preferring those whose type
// arguments match too when that leaves one (Func<T, TR> over Func<T, int,
// TR>). All of them are kept when none matches or there are too many to read.
func (e *Engine) byParameters(ctx context.Context, rows []store.SymbolRow, written string) ([]store.SymbolRow, error) {
	if len(rows) > maxOverloads {
		return rows, nil
	}
	want := lang.SplitParameters(written)
	var loose, strict []store.SymbolRow
	for _, row := range rows {
		r, err := e.Load(ctx, row)
		if err != nil {
			return nil, err
		}
		if r == nil || r.Def == nil {
			continue
		}
		have, ok := lang.SignatureParameters(r.Def.Signature, row.Name)
		if ok && parametersMatch(want, have, false) {
			loose = append(loose, row)
			if parametersMatch(want, have, true) {
				strict = append(strict, row)
			}
		}
	}
	switch {
	case len(strict) == 1:
		return strict, nil
	case len(loose) == 0:
		return rows, nil
	}
	return loose, nil
}

// parametersMatch reports whether the parameters written match a
// signature's: as many, and each written one names its parameter's type
// or name (java.util.List matches List<T> list; int matches int index);
// with typeArgs, the type arguments written must stand there too.
func parametersMatch(want, have []string, typeArgs bool) bool {
	if len(want) != len(have) {
		return false
	}
	for i, w := range want {
		if !namesParameter(w, have[i], typeArgs) {
			return false
		}
	}
	return true
}

// namesParameter reports whether the written w names the parameter p: its
// last dotted segment stands in p as a whole word (a qualifier may precede
// it), without type arguments unless typeArgs.
func namesParameter(w, p string, typeArgs bool) bool {
	norm := func(s string) string {
		if !typeArgs {
			s = withoutTypeArgs(s)
		}
		return strings.NewReplacer(", ", ",", "< ", "<", " >", ">").Replace(normalParameter(s))
	}
	w, p = norm(w), norm(p)
	if i := strings.LastIndexByte(w, '.'); i >= 0 && i+1 < len(w) && isWordByte(w[i+1]) && !strings.ContainsAny(w[:i], "<[(") {
		w = w[i+1:]
	}
	if w == "" {
		return true // a blank item: add(, E) says nothing of the first
	}
	expr := regexp.QuoteMeta(w)
	if isWordByte(w[0]) {
		expr = `(^|[^\w])` + expr
	}
	if isWordByte(w[len(w)-1]) {
		expr += `($|[^\w])`
	}
	re, err := regexp.Compile(expr)
	return err == nil && re.MatchString(p)
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// RelationOverload marks a call that syntax linked to one of several
// overloads although another takes as many arguments (or the call passes a
// number none takes): a candidate, not a certain reference.
const RelationOverload = "overload"

// OverloadSet is the overloads of a name in one file of a language whose
// same-named members are overloads: one qualified name and kind. Syntax
// links a call to the only one that takes its number of arguments, else to
// First, which stands for them all.
type OverloadSet struct {
	First int64
	arity map[int64]lang.Arity
	// ext describes the overloads that are extensions (Kotlin's fun
	// Box.f(), C#'s static M(this Box b)): a call on a receiver chooses
	// among those extending one type.
	ext   map[int64]extensionOverload
	owner string // the type that declares them
}

// extensionOverload is what a member-style call (b.M(x)) sees of an
// extension overload.
type extensionOverload struct {
	extends string     // the type it extends
	member  lang.Arity // the arity of b.M(x)
	// static: it can be called as Owner.M(b, x) too (C#), which passes
	// the receiver as an argument, as arity counts
	static bool
	defIdx int
}

// For is the set a call of ref's shape chooses overload id among: for an
// extension called on a receiver (b.M(x), or a bare call of a Kotlin
// extension on the implicit one), the overloads that extend the same type,
// at the arity of that form (nil when id is the only one); otherwise the
// whole set.
func (o *OverloadSet) For(facts *lang.Facts, ref lang.Ref, id int64) *OverloadSet {
	if o == nil {
		return nil
	}
	e, ok := o.ext[id]
	if !ok {
		return o
	}
	if e.static {
		if q := facts.Names[ref.Qualifier]; ref.Shape == lang.QualNone || q == o.owner || strings.HasSuffix(q, "."+o.owner) {
			return o // M(b, x), Owner.M(b, x)
		}
	}
	set := &OverloadSet{arity: map[int64]lang.Arity{}}
	firstIdx := -1
	for other, oe := range o.ext {
		if oe.extends == e.extends {
			set.arity[other] = oe.member
			if firstIdx < 0 || oe.defIdx < firstIdx {
				set.First, firstIdx = other, oe.defIdx
			}
		}
	}
	if len(set.arity) < 2 {
		return nil
	}
	return set
}

// Overloads finds the overloads of r's name in r's file; nil when it has
// none, or one of them has no parameter list to read.
func (e *Engine) Overloads(ctx context.Context, r *Resolved) (*OverloadSet, error) {
	if !lang.Of(r.File.Lang).Overloads {
		return nil, nil
	}
	rows, err := e.Store().SymbolsByQName(ctx, r.Row.QName)
	if err != nil {
		return nil, err
	}
	set := &OverloadSet{arity: map[int64]lang.Arity{}}
	firstIdx := -1
	for _, row := range rows {
		if row.FileID != r.Row.FileID || row.Kind != r.Row.Kind {
			continue
		}
		o, err := e.Load(ctx, row)
		if err != nil || o == nil || o.Def == nil {
			return nil, err
		}
		a := lang.ArityOf(o.Def.Signature, row.Name)
		if !a.Known {
			return nil, nil
		}
		set.arity[row.ID] = a
		if o.Def.Extends != "" {
			set.addExtension(row, o)
		}
		if firstIdx < 0 || row.DefIdx < firstIdx {
			set.First, firstIdx = row.ID, row.DefIdx
		}
	}
	if len(set.arity) < 2 {
		return nil, nil
	}
	return set, nil
}

// addExtension records extension overload r: a C# one declares its
// receiver as its first parameter (this Box b), which a member-style call
// passes before the parentheses.
func (o *OverloadSet) addExtension(row store.SymbolRow, r *Resolved) {
	if o.ext == nil {
		o.ext = map[int64]extensionOverload{}
	}
	e := extensionOverload{extends: r.Def.Extends, defIdx: row.DefIdx}
	e.member, e.static = lang.MemberCallArity(r.Def.Signature, row.Name)
	if e.static && r.Def.Parent >= 0 {
		o.owner = r.Facts.Defs[r.Def.Parent].Name
	}
	o.ext[row.ID] = e
}

// Takes reports whether overload id takes a call's arguments (args is
// Ref.Args: 0 when unknown, which any overload may take).
func (o *OverloadSet) Takes(id int64, args uint16) bool {
	a, ok := o.arity[id]
	return ok && (args == 0 || a.Takes(int(args)-1))
}

// Only reports whether a call passing args can run overload id alone.
func (o *OverloadSet) Only(id int64, args uint16) bool {
	if args == 0 || !o.Takes(id, args) {
		return false
	}
	for other := range o.arity {
		if other != id && o.Takes(other, args) {
			return false
		}
	}
	return true
}

// Shared reports whether some number of arguments that overload id takes
// is taken by another overload too: then calls that syntax could not tell
// apart, linked to First, may run it.
func (o *OverloadSet) Shared(id int64) bool {
	for other, b := range o.arity {
		if other != id && o.arity[id].Meets(b) {
			return true
		}
	}
	return false
}
