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

// arity is what an overload's parameter list takes (lang.Arity).
type arity struct {
	min, max int
	ok       bool
}

// byArity moves each call linked to the first of several overloads to the
// only one that takes its number of arguments.
func (fs *fileScope) byArity(ctx context.Context) {
	for i := range fs.links {
		l := &fs.links[i]
		r := fs.facts.Refs[l.Ref]
		if r.Role != lang.RoleCall || r.Args == 0 {
			continue
		}
		group := fs.overloadsOf(l.Target)
		if len(group) < 2 {
			continue
		}
		n, pick := int(r.Args)-1, int64(0)
		for _, id := range group {
			if a := fs.arityOf(ctx, id); a.ok && lang.Accepts(a.min, a.max, n) {
				if pick != 0 {
					pick = 0
					break
				}
				pick = id
			}
		}
		if pick != 0 {
			l.Target = pick
		}
	}
}

// overloadsOf lists the overloads of which id is the first (id included),
// in this file or another; nil when id has none.
func (fs *fileScope) overloadsOf(id int64) []int64 {
	if fs.ownOverloads == nil {
		fs.ownOverloads = map[int64][]int64{}
		first := map[string]int64{}
		for i, d := range fs.facts.Defs {
			own := link.DefID(fs.own, int32(i))
			if own == 0 {
				continue
			}
			if f, ok := first[d.Path]; ok {
				if len(fs.ownOverloads[f]) == 0 {
					fs.ownOverloads[f] = []int64{f}
				}
				fs.ownOverloads[f] = append(fs.ownOverloads[f], own)
			} else {
				first[d.Path] = own
			}
		}
	}
	if g, ok := fs.ownOverloads[id]; ok {
		return g
	}
	var out []int64
	for _, s := range fs.p.overloads[id] {
		out = append(out, s.id)
	}
	return out
}

// arityOf reads an overload's arity from its signature, in this file or
// the one declaring it.
func (fs *fileScope) arityOf(ctx context.Context, id int64) arity {
	if a, ok := fs.p.arities[id]; ok {
		return a
	}
	var d *lang.Def
	for i := range fs.facts.Defs {
		if link.DefID(fs.own, int32(i)) == id {
			d = &fs.facts.Defs[i]
			break
		}
	}
	if d == nil {
		d = fs.p.defOf(ctx, id)
	}
	var a arity
	if d != nil {
		a.min, a.max, a.ok = lang.Arity(d.Signature, d.Name)
	}
	fs.p.arities[id] = a
	return a
}

// defOf finds the definition of an overload of another file.
func (p *pkgLinker) defOf(ctx context.Context, id int64) *lang.Def {
	s, ok := p.overloadSyms[id]
	if !ok {
		return nil
	}
	_, facts := link.FactsAt(ctx, p.r, s.file)
	if facts == nil || s.defIdx >= len(facts.Defs) {
		return nil
	}
	return &facts.Defs[s.defIdx]
}
