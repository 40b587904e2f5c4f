package classlang

import (
	"context"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Overloads share a lexical path, so a name finds the first of them (the
// one that stands for them). A call then passes to the one overload that
// takes as many arguments as it passes (put(1) to put(int), put(1, 2) to
// put(int, int)); when several take that many, or none does, syntax cannot
// tell, and the call stays with the first.

// byArity moves each call linked to the first of several overloads to the
// only one that takes its number of arguments; likewise a documentation
// link that lists parameters ({@link #put(K, V)}).
func (fs *fileScope) byArity(ctx context.Context) {
	for i := range fs.links {
		l := &fs.links[i]
		r := fs.facts.Refs[l.Ref]
		if r.Role != lang.RoleCall && r.Role != lang.RoleDoc || r.Args == 0 {
			continue
		}
		group := fs.overloadsOf(l.Target)
		if len(group) < 2 {
			continue
		}
		n, pick := int(r.Args)-1, int64(0)
		for _, s := range group {
			if fs.arityOf(ctx, s).Takes(n) {
				if pick != 0 {
					pick = 0
					break
				}
				pick = s.id
			}
		}
		if pick != 0 {
			l.Target = pick
		}
	}
}

// overloadsOf lists the overloads of which id is the first (id included),
// in this file or another: id alone, or nil, when it has none.
func (fs *fileScope) overloadsOf(id int64) []pkgSym {
	if fs.ownOverloads == nil {
		fs.ownOverloads = map[int64][]pkgSym{}
		first := map[string]int64{}
		for i, d := range fs.facts.Defs {
			s := pkgSym{id: link.DefID(fs.own, int32(i)), name: d.Name, file: fs.f.Path, defIdx: i}
			if s.id == 0 {
				continue
			}
			if f, ok := first[d.Path]; !ok {
				first[d.Path] = s.id
				fs.ownOverloads[s.id] = []pkgSym{s}
			} else {
				fs.ownOverloads[f] = append(fs.ownOverloads[f], s)
			}
		}
	}
	if g := fs.ownOverloads[id]; len(g) > 0 {
		return g
	}
	return fs.p.overloads[id]
}

// arityOf reads an overload's arity from its signature, in this file or
// the one declaring it.
func (fs *fileScope) arityOf(ctx context.Context, s pkgSym) lang.Arity {
	if a, ok := fs.p.arities[s.id]; ok {
		return a
	}
	facts := fs.facts
	if s.file != fs.f.Path {
		_, facts = link.FactsAt(ctx, fs.p.r, s.file)
	}
	var a lang.Arity
	if facts != nil && s.defIdx < len(facts.Defs) {
		d := facts.Defs[s.defIdx]
		a = lang.ArityOf(d.Signature, d.Name)
	}
	fs.p.arities[s.id] = a
	return a
}
