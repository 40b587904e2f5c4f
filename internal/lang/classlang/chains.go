package classlang

import (
	"context"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Java call chains: in f().m and a.f().m the extractor says which reference
// is f (Ref.Via); m is looked up in the type f's declaration says it returns
// (Def.Type), resolved as the file declaring f writes it.

// add links reference ri to s and remembers s for the calls chained on ri.
func (fs *fileScope) add(ri int, tier lang.Tier, s pkgSym) {
	if !fs.links.Add(ri, tier, s.id) {
		return
	}
	if fs.called == nil {
		fs.called = map[int]pkgSym{}
	}
	fs.called[ri] = s
}

// ownSym is the symbol of the file's definition i.
func (fs *fileScope) ownSym(i int32) pkgSym {
	return pkgSym{id: link.DefID(fs.own, i), kind: fs.facts.Defs[i].Kind, file: fs.f.Path, defIdx: int(i), module: fs.from}
}

// chained links m in f().m to member m of the type f is declared to return.
func (fs *fileScope) chained(ctx context.Context, ri int, r lang.Ref, name string) {
	f, ok := fs.called[int(r.Via)-1]
	if r.Via <= 0 || !ok {
		return
	}
	fi, facts := fs.f, fs.facts
	if f.file != fs.f.Path {
		fi, facts = link.FactsAt(ctx, fs.p.r, f.file)
	}
	if facts == nil || f.defIdx < 0 || f.defIdx >= len(facts.Defs) {
		return
	}
	d := facts.Defs[f.defIdx]
	typ := lang.TypeName(d.Type)
	if d.Kind != lang.KindMethod || typ == "" || fi.Pkg == "" {
		return
	}
	// at the method's path, so that the types nested in its class resolve;
	// a type parameter (<T> T get()) resolves to nothing
	t, ok := fs.p.typeNamed(ctx, fs.family, fi, facts, typeRef{fi.Pkg, d.Path}, typ, fs.from)
	if !ok {
		return
	}
	if m, ok := fs.p.memberOf(ctx, fs.family, t.t, t.s, name, fs.from); ok {
		fs.add(ri, lang.TierStrong, m)
	}
}
