package classlang

import (
	"context"
	"iter"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Java and C#: a member a type does not declare is looked up in the types it
// extends or implements, resolved in the file that declares each type.

// pkgBase is a base type of a Java or C# type.
type pkgBase struct {
	t typeRef
	s pkgSym
}

// memberOf finds member name of type t (symbol s) or, when t does not
// declare it, of the types it extends or implements, breadth first, through
// the type relations of the files that declare them.
func (p *pkgLinker) memberOf(ctx context.Context, family string, t typeRef, s pkgSym, name string, from int64) (pkgSym, bool) {
	for b := range p.typeAndBases(ctx, family, pkgBase{t, s}, from) {
		if m, ok := p.lookup(ctx, family, b.t.pkg, b.t.path+"."+name, from); ok {
			return m, true
		}
	}
	return pkgSym{}, false
}

// typeAndBases yields type t, then the types it extends or implements,
// breadth first, each once, 16 at the most; a caller that stops early
// resolves no further base.
func (p *pkgLinker) typeAndBases(ctx context.Context, family string, t pkgBase, from int64) iter.Seq[pkgBase] {
	return func(yield func(pkgBase) bool) {
		queue := []pkgBase{t}
		seen := map[int64]bool{}
		for len(queue) > 0 && len(seen) < 16 {
			b := queue[0]
			queue = queue[1:]
			if seen[b.s.id] {
				continue
			}
			seen[b.s.id] = true
			if !yield(b) {
				return
			}
			queue = append(queue, p.bases(ctx, family, b, from)...)
		}
	}
}

// bases resolves the type relations of a type in the file that declares it
// (typeNamed).
func (p *pkgLinker) bases(ctx context.Context, family string, b pkgBase, from int64) []pkgBase {
	if p.baseCache == nil {
		p.baseCache = map[int64][]pkgBase{}
	}
	if out, ok := p.baseCache[b.s.id]; ok {
		return out
	}
	var out []pkgBase
	defer func() { p.baseCache[b.s.id] = out }()
	fi, facts := link.FactsAt(ctx, p.r, b.s.file)
	if facts == nil {
		return nil
	}
	for _, rel := range facts.TypeRels {
		if int(rel.Def) != b.s.defIdx || rel.Kind == lang.RelEmbeds {
			continue
		}
		if name := lang.TypeName(rel.Target); name != "" {
			if r, ok := p.typeNamed(ctx, family, fi, facts, b.t, name, from); ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// typeNamed resolves a type name as the file declaring type at writes it
// (facts are its facts): through the file's single-type imports, then the
// types enclosing at, its package (and, for C#, the enclosing namespaces),
// a name written in full, then the packages the file imports whole
// (java.lang for Java) when exactly one declares it.
func (p *pkgLinker) typeNamed(ctx context.Context, family string, fi lang.File, facts *lang.Facts, at typeRef, name string, from int64) (pkgBase, bool) {
	typeIn := func(pkg, path string) (pkgBase, bool) {
		if s, ok := p.lookup(ctx, family, pkg, path, from); ok && s.kind.IsTypeLike() {
			return pkgBase{typeRef{pkg, path}, s}, true
		}
		return pkgBase{}, false
	}
	first, rest, _ := strings.Cut(name, ".")
	for _, im := range facts.Imports {
		if im.Kind == lang.ImportNamed && im.LocalName() == first {
			full := im.Name
			if im.Source != "" {
				full = im.Source + "." + im.Name
			}
			if rest != "" {
				full += "." + rest
			}
			if t, s, ok := p.resolveType(ctx, family, full, from); ok {
				return pkgBase{t, s}, true
			}
			return pkgBase{}, false
		}
	}
	// nested in an enclosing type, then the package and enclosing namespaces
	for outer := at.path; strings.Contains(outer, "."); {
		outer = outer[:strings.LastIndexByte(outer, '.')]
		if r, ok := typeIn(at.pkg, outer+"."+name); ok {
			return r, true
		}
	}
	for ns := at.pkg; ns != ""; {
		if r, ok := typeIn(ns, name); ok {
			return r, true
		}
		if family != "csharp" || !strings.Contains(ns, ".") {
			break
		}
		ns = ns[:strings.LastIndexByte(ns, '.')]
	}
	if t, s, ok := p.resolveType(ctx, family, name, from); ok {
		return pkgBase{t, s}, true
	}
	var wild []string
	if fi.Lang == "java" {
		wild = append(wild, "java.lang")
	}
	for _, im := range facts.Imports {
		if im.Kind == lang.ImportAll {
			wild = append(wild, im.Source)
		}
	}
	var hit pkgBase
	n := 0
	for _, pkg := range wild {
		if r, ok := typeIn(pkg, name); ok && r.s.id != hit.s.id {
			hit, n = r, n+1
		}
	}
	return hit, n == 1
}
