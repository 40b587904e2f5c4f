package classlang

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Members through declared types of other files: in f().m and a.f().m the
// extractor says which reference is f (Ref.Via), and m is looked up in the
// type f's declaration says it returns (Def.Type); in x.f.m, through the
// declared types of x and of each field f, wherever they are declared. Each
// type resolves as the file declaring the method or field writes it.

// add links reference ri to s and remembers s for the calls chained on ri.
func (fs *fileScope) add(ri int, tier lang.Tier, s pkgSym) {
	if !fs.links.Add(ri, tier, s.id) {
		return
	}
	if r := fs.facts.Refs[ri]; fs.javaMember(s, lang.KindMethod) && r.Role != lang.RoleCall && s.name != fs.facts.Names[r.Name] {
		fs.links[len(fs.links)-1].Runs = true // b.foo runs getFoo(); Host::getName names it
	}
	if fs.called == nil {
		fs.called = map[int]pkgSym{}
	}
	fs.called[ri] = s
}

// ownSym is the symbol of the file's definition i.
func (fs *fileScope) ownSym(i int32) pkgSym {
	d := fs.facts.Defs[i]
	return pkgSym{id: link.DefID(fs.own, i), kind: d.Kind, name: d.Name, file: fs.f.Path, defIdx: int(i), module: fs.from}
}

// chained links m in f().m to member m of the type f (a method, or a
// Kotlin function) is declared to return, or to an extension of it.
func (fs *fileScope) chained(ctx context.Context, ri int, r lang.Ref, name string) {
	if t, typ, ok := fs.resultOf(ctx, r.Via); ok {
		fs.memberOrExtension(ctx, ri, r, name, t.t)
	} else if typ != "" {
		fs.extension(ctx, ri, r, name, typ, nil) // of a type outside the repository: Label().Shout()
	}
}

// resultOf is the type that the callee of reference via-1 (a method or a
// function this file's links reached) is declared to return, or that the
// member or property it reads is declared to hold; typ is that type as
// written, also when the repository does not declare it.
func (fs *fileScope) resultOf(ctx context.Context, via int32) (t pkgBase, typ string, ok bool) {
	f, reached := fs.called[int(via)-1]
	if via <= 0 || !reached {
		return pkgBase{}, "", false
	}
	switch f.kind {
	case lang.KindMethod, lang.KindFunction, lang.KindProperty, lang.KindField, lang.KindVariable, lang.KindConstant:
		return fs.memberType(ctx, f)
	}
	return pkgBase{}, "", false
}

// initialised links m in x.m, where x is a local without a declared type
// that a call initialises (var x = f(); val x = a.f()), to member m of the
// type f is declared to return.
func (fs *fileScope) initialised(ctx context.Context, ri int, r lang.Ref, name string) {
	if r.Shape != lang.QualIdent || !r.QualBound {
		return
	}
	ls, found := fs.decl.Local(r.Qualifier, r.Scope, r.Pos)
	if !found || len(ls) != 1 {
		return
	}
	if lo := fs.facts.Locals[ls[0]]; lo.Type == "" {
		if t, _, ok := fs.resultOf(ctx, lo.Via); ok {
			fs.memberOrExtension(ctx, ri, r, name, t.t)
		}
	}
}

// pathMember links m in x.f.m and f.m, where x is this, a local whose type
// the source declares or a field of the type around the reference
// (declared or inherited), and each f a field whose declaring file declares
// its type.
func (fs *fileScope) pathMember(ctx context.Context, ri int, r lang.Ref, name string) {
	parts := strings.Split(fs.facts.Names[r.Qualifier], ".")
	cur, ok := fs.headType(ctx, r, parts[0])
	for _, p := range parts[1:] {
		if !ok {
			return
		}
		f, found := fs.memberNamed(ctx, cur, lang.Ref{Role: lang.RoleRead}, p)
		if !found || !fs.holdsValue(f) {
			return
		}
		cur, ok = fs.typeOfMember(ctx, f)
	}
	if ok {
		fs.memberOrExtension(ctx, ri, r, name, cur.t)
	}
}

// headType is the type of the first name x of a qualifier: this, a local
// whose type the source declares, or a field of the types around the
// reference (selfTypes).
func (fs *fileScope) headType(ctx context.Context, r lang.Ref, x string) (pkgBase, bool) {
	selves := fs.selfTypes(ctx, r)
	if len(selves) == 0 {
		return pkgBase{}, false
	}
	if x == "this" {
		return selves[0].pkgBase, true
	}
	if fs.decl != nil {
		if ls, found := fs.local(x, r); found {
			typ := lang.TypeName(fs.facts.Locals[ls[0]].Type)
			for _, j := range ls[1:] {
				if lang.TypeName(fs.facts.Locals[j].Type) != typ {
					return pkgBase{}, false
				}
			}
			if typ == "" || r.Enclosing < 0 {
				return pkgBase{}, false
			}
			at := typeRef{fs.f.Pkg, fs.facts.Defs[r.Enclosing].Path}
			return fs.p.typeNamed(ctx, fs.family, fs.f, fs.facts, at, typ, fs.from)
		}
	}
	for _, t := range selves {
		if f, ok := fs.memberNamed(ctx, t.pkgBase, lang.Ref{Role: lang.RoleRead}, x); ok {
			if !fs.holdsValue(f) {
				return pkgBase{}, false
			}
			return fs.typeOfMember(ctx, f)
		}
	}
	return pkgBase{}, false
}

// typeOfMember is the type a method's declaration says it returns, or a
// field's says it holds (Def.Type), resolved as the declaring file writes
// it, from the member's path so that the types nested in its class resolve;
// a type parameter (<T> T get()) resolves to nothing.
func (fs *fileScope) typeOfMember(ctx context.Context, m pkgSym) (pkgBase, bool) {
	t, _, ok := fs.memberType(ctx, m)
	return t, ok
}

// memberType is typeOfMember with the type as written (typ), which is set
// also when the repository does not declare the type.
func (fs *fileScope) memberType(ctx context.Context, m pkgSym) (t pkgBase, typ string, ok bool) {
	fi, facts, d, ok := fs.declOf(ctx, m)
	if !ok {
		return pkgBase{}, "", false
	}
	if typ = lang.TypeName(d.Type); typ == "" {
		return pkgBase{}, "", false
	}
	t, ok = fs.p.typeNamed(ctx, fs.family, fi, facts, typeRef{fi.Pkg, d.Path}, typ, fs.from)
	return t, typ, ok
}

// local finds the locals named x that reference r sees.
func (fs *fileScope) local(x string, r lang.Ref) ([]int32, bool) {
	id, ok := fs.decl.Names[x]
	if !ok {
		return nil, false
	}
	return fs.decl.Local(id, r.Scope, r.Pos)
}

// holdsValue reports whether x.f reads a value from member f: a field or
// property, or the Java getter a Kotlin property read runs.
func (fs *fileScope) holdsValue(f pkgSym) bool {
	return f.kind == lang.KindField || f.kind == lang.KindProperty ||
		fs.javaMember(f, lang.KindMethod)
}
