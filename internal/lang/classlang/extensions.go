package classlang

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Kotlin's extension functions and properties (fun Box.twice(), val
// Box.area) and C#'s extension methods (static int Twice(this Box b)) are
// used like members (b.twice(), b.area, b.Twice()) but declared elsewhere:
// at top level or in another type, where an import or the package makes
// them visible. A member of the name wins over an extension, so a use is
// linked to one only after the receiver's type (and its bases) turned out to
// have no such member: to the one extension of the name that extends that
// type or a base of it, among the closest the file sees (Kotlin: imported
// by name, then in its package, then imported whole; C#: in the static
// classes of its namespaces, then of those it uses). Inside a Kotlin
// extension's body, this and bare names denote the extended type's members.

// extension links x.name, x of declared type typ (as written) that has no
// member name, to the extension function it calls, and reports whether it
// found the one. t is typ resolved in the repository, when it is.
func (fs *fileScope) extension(ctx context.Context, ri int, r lang.Ref, name, typ string, t *pkgBase) bool {
	if !extensionLangs[fs.f.Lang] {
		return false
	}
	want := map[int64]bool{}
	if t != nil {
		for b := range fs.p.typeAndBases(ctx, fs.family, *t, fs.from) {
			want[b.s.id] = true
		}
	}
	outside := lastName(StripTypeArgs(typ)) // a type the repository does not declare: String
	for _, tier := range fs.visibleFunctions(ctx, name) {
		var hit pkgSym
		n := 0
		for _, s := range tier {
			if fs.p.extendsOf(ctx, s) == "" {
				continue // most functions of a name extend nothing: their facts stay undecoded
			}
			fi, facts, d, ok := fs.declOf(ctx, s)
			if !ok {
				continue
			}
			if a, _ := lang.MemberCallArity(d.Signature, d.Name); r.Role == lang.RoleCall && r.Args > 0 && !a.Takes(int(r.Args)-1) {
				continue
			}
			ext, resolved := fs.p.typeNamed(ctx, fs.family, fi, facts, typeRef{fi.Pkg, ""}, d.Extends, fs.from)
			if resolved && want[ext.s.id] || !resolved && t == nil && lastName(d.Extends) == outside {
				if s.id != hit.id {
					hit, n = s, n+1
				}
			}
		}
		if n == 1 {
			fs.add(ri, lang.TierStrong, hit)
			return true
		}
		if n > 1 {
			return false
		}
	}
	return false
}

// memberOrExtension links x.name, x of repository type t, to t's member
// name (declared or inherited), else to the extension of t that it uses.
func (fs *fileScope) memberOrExtension(ctx context.Context, ri int, r lang.Ref, name string, t typeRef) {
	if b, ok := fs.member(ctx, ri, r, t, name); !ok && b != nil {
		fs.extension(ctx, ri, r, name, t.path, b)
	}
}

// thisExtension links this.name, which the types around it do not
// declare, to the extension of the innermost one that it uses (C#'s
// this.M()).
func (fs *fileScope) thisExtension(ctx context.Context, ri int, r lang.Ref, name string) {
	for _, t := range fs.selfTypes(ctx, r) {
		if !t.anonymous {
			fs.extension(ctx, ri, r, name, t.t.path, &t.pkgBase)
			return
		}
	}
}

// receiverFirst links a bare name or this.name inside a Kotlin lambda
// with a receiver (x.apply { m() }, with(x) { m() }) to the receiver type's
// member, else to an extension of it: they win over the enclosing class's
// members and the top-level functions, though not over a local function.
func (fs *fileScope) receiverFirst(ctx context.Context, ri int, r lang.Ref, name string) bool {
	if r.BindDef >= 0 && fs.localFunction(r.BindDef) {
		return false
	}
	t, ok := fs.lambdaReceiver(ctx, r)
	if !ok {
		return false
	}
	if m, ok := fs.memberNamed(ctx, t, r, name); ok {
		fs.add(ri, lang.TierStrong, m)
		return true
	}
	return fs.extension(ctx, ri, r, name, t.t.path, &t)
}

// lambdaReceiver is the type of this that the innermost Kotlin lambda with
// a receiver around r declares, resolved in the repository.
func (fs *fileScope) lambdaReceiver(ctx context.Context, r lang.Ref) (pkgBase, bool) {
	if fs.f.Lang != "kotlin" || fs.decl == nil {
		return pkgBase{}, false
	}
	this, ok := fs.decl.Names["this"]
	if !ok {
		return pkgBase{}, false
	}
	ls, found := fs.decl.Local(this, r.Scope, r.Pos)
	if !found {
		return pkgBase{}, false
	}
	lo := fs.facts.Locals[ls[0]]
	if lo.Type == "" {
		t, _, ok := fs.resultOf(ctx, lo.Via) // f().apply { }
		return t, ok
	}
	at := typeRef{fs.f.Pkg, ""}
	if t := fs.enclosingType(r.Enclosing); t >= 0 {
		at.path = fs.facts.Defs[t].Path
	}
	return fs.p.typeNamed(ctx, fs.family, fs.f, fs.facts, at, lo.Type, fs.from)
}

// localFunction reports whether definition d is declared inside a function.
func (fs *fileScope) localFunction(d int32) bool {
	p := fs.facts.Defs[d].Parent
	return p >= 0 && !fs.facts.Defs[p].Kind.IsTypeLike()
}

// linked reports whether reference ri has a link.
func (fs *fileScope) linked(ri int) bool {
	_, ok := fs.called[ri]
	return ok
}

// extends reports whether top-level Kotlin function s, or an overload of
// it, is an extension function, which a bare name calls on the implicit
// receiver.
func (fs *fileScope) extends(ctx context.Context, s pkgSym) bool {
	if fs.f.Lang != "kotlin" || !extensible(s.kind) {
		return false
	}
	for _, o := range fs.p.withOverloads(s) {
		if fs.p.extendsOf(ctx, o) != "" {
			return true
		}
	}
	return false
}

// extendsOf is the type symbol s extends (Def.Extends), read from its
// file's facts once per batch: the linker keeps few files decoded, and
// whether a function is an extension is asked at each call of its name.
func (p *pkgLinker) extendsOf(ctx context.Context, s pkgSym) string {
	if ext, ok := p.extends[s.id]; ok {
		return ext
	}
	ext := ""
	if _, facts := link.FactsAt(ctx, p.r, s.file); facts != nil && s.defIdx >= 0 && s.defIdx < len(facts.Defs) {
		ext = facts.Defs[s.defIdx].Extends
	}
	p.extends[s.id] = ext
	return ext
}

// implicitExtension links a bare name that the file's extension functions
// declare at top level to what it denotes through the implicit receiver (the
// type the extension function around it extends, else the class around
// it): the receiver's member of the name, else the one extension that
// extends the receiver.
func (fs *fileScope) implicitExtension(ctx context.Context, ri int, r lang.Ref, name string) {
	for _, t := range fs.selfTypes(ctx, r) {
		if t.anonymous {
			continue
		}
		if m, ok := fs.p.memberOf(ctx, fs.family, t.t, t.s, name, fs.from); ok {
			fs.add(ri, lang.TierStrong, m)
			return
		}
		if fs.extension(ctx, ri, r, name, t.t.path, &t.pkgBase) {
			return
		}
	}
}

// visibleFunctions are the functions named name that the file sees, each
// overload apart, by Kotlin's precedence: those it imports by name (under
// that name: top-level functions, members of objects), the top-level ones
// of its own package, those of the packages it imports whole.
func (fs *fileScope) visibleFunctions(ctx context.Context, name string) [][]pkgSym {
	if fs.f.Lang == "csharp" {
		return fs.visibleExtensionMethods(ctx, name)
	}
	type place struct{ pkg, path string }
	var named, own, wild []place
	for i, im := range fs.facts.Imports {
		if im.Kind == lang.ImportNamed && im.LocalName() == name && fs.imps[i].named {
			// a top-level function, or a member of an object (import a.Util.f)
			if fi, _, d, ok := fs.declOf(ctx, fs.imps[i].sym); ok {
				named = append(named, place{fi.Pkg, d.Path})
			}
		}
	}
	for _, pkg := range fs.visible {
		own = append(own, place{pkg, name})
	}
	for _, pkg := range fs.wildPkgs {
		wild = append(wild, place{pkg, name})
	}
	seen := map[int64]bool{}
	var out [][]pkgSym
	for _, places := range [][]place{named, own, wild} {
		var tier []pkgSym
		for _, pl := range places {
			for _, first := range fs.p.unit(ctx, fs.family, pl.pkg)[pl.path] {
				for _, s := range fs.p.withOverloads(first) {
					if !seen[s.id] && extensible(s.kind) {
						seen[s.id] = true
						tier = append(tier, s)
					}
				}
			}
		}
		out = append(out, tier)
	}
	return out
}

// visibleExtensionMethods are the C# methods named name that the file
// sees as extension methods: those of the static classes of its namespace
// and the enclosing ones, then those of the namespaces it uses (using A.B)
// and of the types whose static members it imports (using static A.B.C).
func (fs *fileScope) visibleExtensionMethods(ctx context.Context, name string) [][]pkgSym {
	var own, used []pkgSym
	for _, pkg := range fs.visible {
		own = append(own, fs.p.extensionMethods(ctx, fs.family, pkg, name)...)
	}
	for _, pkg := range fs.wildPkgs {
		used = append(used, fs.p.extensionMethods(ctx, fs.family, pkg, name)...)
	}
	for _, t := range fs.wildTypes {
		for _, first := range fs.p.unit(ctx, fs.family, t.pkg)[t.path+"."+name] {
			used = append(used, fs.p.withOverloads(first)...)
		}
	}
	return [][]pkgSym{own, used}
}

// extensionMethods are the extension methods named name that a package's
// types declare, each overload apart, found once per package and name.
func (p *pkgLinker) extensionMethods(ctx context.Context, family, pkg, name string) []pkgSym {
	key := family + "\x00" + pkg + "\x00" + name
	out, ok := p.extensionsByName[key]
	if ok {
		return out
	}
	for path, firsts := range p.unit(ctx, family, pkg) {
		if !strings.HasSuffix(path, "."+name) {
			continue
		}
		for _, first := range firsts {
			if first.kind != lang.KindMethod {
				continue
			}
			for _, s := range p.withOverloads(first) {
				if p.extendsOf(ctx, s) != "" {
					out = append(out, s)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b pkgSym) int { return cmp.Compare(a.id, b.id) })
	p.extensionsByName[key] = out
	return out
}

// withOverloads is s and the other overloads it stands for.
func (p *pkgLinker) withOverloads(s pkgSym) []pkgSym {
	if group := p.overloads[s.id]; len(group) > 0 {
		return group
	}
	return []pkgSym{s}
}

// extensionLangs are the languages whose extensions the linker ties to
// member-style uses: Kotlin's extension functions and properties, C#'s
// extension methods.
var extensionLangs = map[string]bool{"kotlin": true, "csharp": true}

// extendedType is the type the extension function around def enc extends,
// as the file writes it and resolves it.
func (fs *fileScope) extendedType(ctx context.Context, enc int32) (pkgBase, bool) {
	if d := fs.extensionAround(enc); d >= 0 {
		return fs.p.typeNamed(ctx, fs.family, fs.f, fs.facts, typeRef{fs.f.Pkg, ""}, fs.facts.Defs[d].Extends, fs.from)
	}
	return pkgBase{}, false
}

// inExtension reports whether def enc is an extension function or lies in
// one.
func (fs *fileScope) inExtension(enc int32) bool { return fs.extensionAround(enc) >= 0 }

// extensionAround is def enc, or the definition around it, that is an
// extension function; -1 for none.
func (fs *fileScope) extensionAround(enc int32) int32 {
	for d := enc; d >= 0; d = fs.facts.Defs[d].Parent {
		if fs.facts.Defs[d].Extends != "" {
			return d
		}
	}
	return -1
}

// extensible reports whether a declaration of the kind may extend a type:
// functions and properties, top-level or members.
func extensible(k lang.DefKind) bool {
	switch k {
	case lang.KindFunction, lang.KindMethod, lang.KindVariable, lang.KindProperty:
		return true
	}
	return false
}

// lastName is the last dotted name of a type: Box of a.Box.
func lastName(typ string) string {
	return typ[strings.LastIndexByte(typ, '.')+1:]
}
