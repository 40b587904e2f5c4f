package classlang

import (
	"context"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Java, Kotlin and C# name their symbols <package or namespace>.<Type>.<member>
// and import types by that name, so their references resolve through packages:
// the package -> files map comes from the files' Facts.Package (lang.File.Pkg).
//
//   - a bare name bound to a same-file definition is proven;
//   - this.name is the member of the enclosing type (proven);
//   - the imported name of a named import (import a.b.C; using X = A.B.C) and
//     the references to it are strong when a.b holds a top-level C; a static
//     import (a.b.C.m) or a nested type (a.b.C.D) resolves through the type;
//   - a bare name that no import brings in resolves to a top-level symbol of the
//     file's own package (for C#, of its namespace and the enclosing ones), then
//     of the packages imported whole (import a.b.*; using A.B; java.lang for
//     Java), when exactly one of them declares it;
//   - Q.name where Q is a type (same file, imported, same package or written
//     in full, a.b.C.name) is the member name of that type; a.b.C where a.b is
//     a package is the type C;
//   - x.name and this.x.name, where the source declares the type of x (a
//     field, property, parameter or local; not Kotlin), is the member name of
//     that type or of one of its base types (link_bases.go).
//
// Java and Kotlin share one package namespace (they import each other's
// types); C# namespaces are separate. When several files of a package declare
// the same name, the one in the referencing file's module wins; if that does
// not decide, the reference stays unresolved.

// pkgQualified reports whether a language's symbols are named by package.
func pkgQualified(language string) bool {
	switch language {
	case "java", "kotlin", "csharp":
		return true
	}
	return false
}

// pkgFamily is the package namespace a language's packages live in.
func pkgFamily(language string) string {
	if language == "csharp" {
		return "csharp"
	}
	return "jvm"
}

// pkgSym is one symbol of a package, by its lexical path.
type pkgSym struct {
	id     int64
	kind   lang.DefKind
	file   string // repo path
	module int64
	defIdx int
}

// pkgLinker resolves names through packages; one per batch.
type pkgLinker struct {
	r     lang.Resolver
	files map[string]map[string][]string // family -> package -> files
	units map[string]map[string][]pkgSym // family + "\x00" + package -> lexical path -> symbols
	// baseCache: symbol id of a type -> its resolved base types (link_bases.go)
	baseCache map[int64][]pkgBase
}

// Linker links Java, Kotlin and C# files. Java and Kotlin share one
// package namespace; C# namespaces are separate, but one batch serves the
// three languages.
var Linker = &lang.Linker{NewBatch: newBatch}

func newBatch(r lang.Resolver) lang.BatchLinker {
	return &pkgLinker{r: r, units: map[string]map[string][]pkgSym{}}
}

// Import resolves nothing to a file: Java, Kotlin and C# imports name
// packages and types, which Link resolves.
func (p *pkgLinker) Import(context.Context, lang.File, lang.Import) (lang.Target, bool) {
	return lang.Target{}, false
}

// packages maps the packages of a family to their files.
func (p *pkgLinker) packages(family string) map[string][]string {
	if p.files == nil {
		p.files = map[string]map[string][]string{}
		for f := range p.r.Files() {
			if f.Pkg == "" || !pkgQualified(f.Lang) {
				continue
			}
			fam := pkgFamily(f.Lang)
			if p.files[fam] == nil {
				p.files[fam] = map[string][]string{}
			}
			p.files[fam][f.Pkg] = append(p.files[fam][f.Pkg], f.Path)
		}
		for _, byPkg := range p.files {
			for _, files := range byPkg {
				sort.Strings(files)
			}
		}
	}
	return p.files[family]
}

// isPackage reports whether some file of the family declares the package.
func (p *pkgLinker) isPackage(family, pkg string) bool {
	_, ok := p.packages(family)[pkg]
	return ok
}

// unit maps the lexical paths of a package's symbols to the symbols.
func (p *pkgLinker) unit(ctx context.Context, family, pkg string) map[string][]pkgSym {
	key := family + "\x00" + pkg
	if m, ok := p.units[key]; ok {
		return m
	}
	m := map[string][]pkgSym{}
	p.units[key] = m
	files := p.packages(family)[pkg]
	if len(files) == 0 {
		return m
	}
	rows := p.r.Symbols(ctx, files...)
	prefix := pkg + "."
	for _, r := range rows {
		path, ok := strings.CutPrefix(r.QName, prefix)
		if !ok {
			continue
		}
		s := pkgSym{id: r.ID, kind: r.Kind, file: r.File, module: r.Module, defIdx: r.DefIdx}
		syms := m[path]
		dup := false
		for i := range syms {
			if syms[i].file == s.file { // overloads: the first definition stands for them
				if s.defIdx < syms[i].defIdx {
					syms[i] = s
				}
				dup = true
			}
		}
		if !dup {
			m[path] = append(syms, s)
		}
	}
	return m
}

// lookup finds the symbol with a lexical path in a package; from is the
// referencing file's module, which decides between files that both declare it.
func (p *pkgLinker) lookup(ctx context.Context, family, pkg, path string, from int64) (pkgSym, bool) {
	syms := p.unit(ctx, family, pkg)[path]
	switch len(syms) {
	case 0:
		return pkgSym{}, false
	case 1:
		return syms[0], true
	}
	var hit pkgSym
	n := 0
	for _, s := range syms {
		if s.module == from {
			hit = s
			n++
		}
	}
	return hit, n == 1
}

// typeRef is a type declared in some file of the family.
type typeRef struct {
	pkg, path string
}

// resolveType finds the type a dotted name denotes when written in full
// (a.b.C, a.b.C.D): the longest package prefix that declares the rest as a type.
func (p *pkgLinker) resolveType(ctx context.Context, family, name string, from int64) (typeRef, pkgSym, bool) {
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		pkg, path := name[:i], name[i+1:]
		if s, ok := p.lookup(ctx, family, pkg, path, from); ok && s.kind.IsTypeLike() {
			return typeRef{pkg, path}, s, true
		}
	}
	return typeRef{}, pkgSym{}, false
}

// pkgImport is what one import of a file resolves to.
type pkgImport struct {
	sym     pkgSym  // a named import's symbol
	named   bool    // sym is set
	typ     typeRef // the type a named import brings in, or the type whose static members an import-all brings in
	isType  bool
	pkg     string // a package imported whole, or the package a namespace alias names
	isAlias bool   // C# using X = A.B, an alias of a namespace
}

func (p *pkgLinker) resolveImports(ctx context.Context, family string, facts *lang.Facts, from int64) []pkgImport {
	out := make([]pkgImport, len(facts.Imports))
	for i, im := range facts.Imports {
		r := &out[i]
		switch im.Kind {
		case lang.ImportNamed:
			full := im.Name
			if im.Source != "" {
				full = im.Source + "." + im.Name
			}
			if t, s, ok := p.resolveType(ctx, family, full, from); ok {
				r.sym, r.named, r.typ, r.isType = s, true, t, true
			} else if t, ok := p.resolveTypeOf(ctx, family, im.Source, from); ok {
				// a static member: import static a.b.C.m
				if s, ok := p.lookup(ctx, family, t.pkg, t.path+"."+im.Name, from); ok {
					r.sym, r.named = s, true
				}
			} else if p.isPackage(family, full) {
				r.pkg, r.isAlias = full, true
			}
		case lang.ImportAll:
			if p.isPackage(family, im.Source) {
				r.pkg = im.Source
			} else if t, ok := p.resolveTypeOf(ctx, family, im.Source, from); ok {
				r.typ, r.isType = t, true
			}
		}
	}
	return out
}

func (p *pkgLinker) resolveTypeOf(ctx context.Context, family, name string, from int64) (typeRef, bool) {
	t, _, ok := p.resolveType(ctx, family, name, from)
	return t, ok
}

// Link resolves the references of a Java, Kotlin or C# file.
func (p *pkgLinker) Link(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) []lang.Link {
	family := pkgFamily(f.Lang)
	from := p.r.ModuleOf(f.Path, f.Lang).ID
	byPath := map[string]int32{}
	for i, d := range facts.Defs {
		if _, ok := byPath[d.Path]; !ok {
			byPath[d.Path] = int32(i)
		}
	}
	imps := p.resolveImports(ctx, family, facts, from)

	// the packages whose top-level names a bare name may denote, in order
	var visible []string
	if f.Pkg != "" {
		visible = append(visible, f.Pkg)
		if f.Lang == "csharp" { // enclosing namespaces
			for ns := f.Pkg; strings.Contains(ns, "."); {
				ns = ns[:strings.LastIndexByte(ns, '.')]
				visible = append(visible, ns)
			}
		}
	}
	var wildPkgs []string
	var wildTypes []typeRef
	if f.Lang == "java" && f.Pkg != "java.lang" && p.isPackage(family, "java.lang") {
		wildPkgs = append(wildPkgs, "java.lang") // imported implicitly
	}
	for _, r := range imps {
		switch {
		case r.pkg != "" && !r.isAlias:
			wildPkgs = append(wildPkgs, r.pkg)
		case r.isType && !r.named:
			wildTypes = append(wildTypes, r.typ)
		}
	}
	// bare resolves a name no local, definition or named import binds.
	bare := func(name string) (pkgSym, bool) {
		for _, pkg := range visible {
			if s, ok := p.lookup(ctx, family, pkg, name, from); ok {
				return s, true
			}
		}
		var hit pkgSym
		n := 0
		for _, pkg := range wildPkgs {
			if s, ok := p.lookup(ctx, family, pkg, name, from); ok && s.id != hit.id {
				hit, n = s, n+1
			}
		}
		for _, t := range wildTypes {
			if s, ok := p.lookup(ctx, family, t.pkg, t.path+"."+name, from); ok && s.id != hit.id {
				hit, n = s, n+1
			}
		}
		return hit, n == 1
	}
	// sameFileType finds the type a (dotted) name denotes from inside def enc.
	sameFileType := func(q string, enc int32) int32 {
		first, rest, _ := strings.Cut(q, ".")
		found := int32(-1)
		for d := enc; d >= 0 && found < 0; d = facts.Defs[d].Parent {
			if facts.Defs[d].Kind.IsTypeLike() {
				if i, ok := byPath[facts.Defs[d].Path+"."+first]; ok && facts.Defs[i].Kind.IsTypeLike() {
					found = i
				}
			}
		}
		if found < 0 {
			if i, ok := byPath[first]; ok && facts.Defs[i].Kind.IsTypeLike() {
				found = i
			}
		}
		if found < 0 || rest == "" {
			return found
		}
		if i, ok := byPath[facts.Defs[found].Path+"."+rest]; ok && facts.Defs[i].Kind.IsTypeLike() {
			return i
		}
		return -1
	}
	// otherFileType finds the type a (dotted) qualifier denotes in another file.
	otherFileType := func(bindImp int32, q string) (typeRef, bool) {
		first, rest, _ := strings.Cut(q, ".")
		var t typeRef
		found := false
		if bindImp >= 0 && facts.Imports[bindImp].LocalName() == first {
			im := imps[bindImp]
			switch {
			case im.named && im.isType:
				t, found = im.typ, true
			case im.isAlias: // using Alias = A.B; Alias.C.M()
				if rest == "" {
					return typeRef{}, false
				}
				first, rest, _ = strings.Cut(rest, ".")
				if s, ok := p.lookup(ctx, family, im.pkg, first, from); ok && s.kind.IsTypeLike() {
					t, found = typeRef{im.pkg, first}, true
				}
			}
		} else if s, ok := bare(first); ok && s.kind.IsTypeLike() {
			for _, pkg := range append(append([]string{}, visible...), wildPkgs...) {
				if s2, ok := p.lookup(ctx, family, pkg, first, from); ok && s2.id == s.id {
					t, found = typeRef{pkg, first}, true
					break
				}
			}
		}
		if !found {
			return p.resolveTypeOf(ctx, family, q, from) // written in full: a.b.C
		}
		if rest != "" {
			t.path += "." + rest
			if s, ok := p.lookup(ctx, family, t.pkg, t.path, from); !ok || !s.kind.IsTypeLike() {
				return typeRef{}, false
			}
		}
		return t, true
	}

	var links []lang.Link
	add := func(ref int, tier lang.Tier, target int64) {
		if target != 0 {
			links = append(links, lang.Link{Ref: ref, Tier: tier, Target: target})
		}
	}
	// typed links x.name and this.x.name where the source declares x's type
	// (link.DeclTypes, link_bases.go); Kotlin records no declared types
	var decl *link.DeclTypes
	if f.Lang != "kotlin" {
		decl = link.NewDeclTypes(f.Path, facts, f.Lang == "java", true)
	}
	typed := func(ri int, r lang.Ref, name string) {
		typ := decl.Of(r)
		if typ == "" {
			return
		}
		if t := sameFileType(typ, r.Enclosing); t >= 0 {
			if i := decl.Member(t, name, sameFileType); i >= 0 {
				add(ri, lang.TierStrong, link.DefID(own, i))
			} else if tr := (typeRef{f.Pkg, facts.Defs[t].Path}); f.Pkg != "" {
				// inherited from a base type of another file
				if s, ok := p.lookup(ctx, family, tr.pkg, tr.path, from); ok {
					if m, ok := p.memberOf(ctx, family, tr, s, name, from); ok {
						add(ri, lang.TierStrong, m.id)
					}
				}
			}
			return
		}
		bindImp := int32(-1)
		first, _, _ := strings.Cut(typ, ".")
		for i, im := range facts.Imports {
			if im.Kind == lang.ImportNamed && im.LocalName() == first {
				bindImp = int32(i)
				break
			}
		}
		if t, ok := otherFileType(bindImp, typ); ok {
			if s, ok := p.lookup(ctx, family, t.pkg, t.path, from); ok {
				if m, ok := p.memberOf(ctx, family, t, s, name, from); ok {
					add(ri, lang.TierStrong, m.id)
				}
			}
		}
	}
	for ri, r := range facts.Unbound() {
		name := facts.Names[r.Name]
		switch r.Shape {
		case lang.QualNone:
			switch {
			case r.BindDef >= 0:
				add(ri, lang.TierProven, link.DefID(own, r.BindDef))
			case r.BindImp >= 0:
				im := facts.Imports[r.BindImp]
				if imps[r.BindImp].named && (r.Role == lang.RoleImport || name == im.LocalName()) {
					add(ri, lang.TierStrong, imps[r.BindImp].sym.id)
				}
			default:
				if s, ok := bare(name); ok {
					add(ri, lang.TierStrong, s.id)
				}
			}
		case lang.QualSelf:
			for d := r.Enclosing; d >= 0; d = facts.Defs[d].Parent {
				if facts.Defs[d].Kind.IsTypeLike() {
					if i, ok := byPath[facts.Defs[d].Path+"."+name]; ok {
						add(ri, lang.TierProven, link.DefID(own, i))
					}
					break
				}
			}
		case lang.QualIdent, lang.QualPath:
			q := facts.Names[r.Qualifier]
			if r.QualBound {
				if t := sameFileType(q, r.Enclosing); t >= 0 {
					if i, ok := byPath[facts.Defs[t].Path+"."+name]; ok {
						add(ri, lang.TierProven, link.DefID(own, i))
					}
				} else if decl != nil {
					typed(ri, r, name)
				}
				continue // a local, a field or a type of this file
			}
			if decl != nil && strings.HasPrefix(q, "this.") {
				typed(ri, r, name)
				continue
			}
			if t, ok := otherFileType(r.BindImp, q); ok {
				if s, ok := p.lookup(ctx, family, t.pkg, t.path+"."+name, from); ok {
					add(ri, lang.TierStrong, s.id)
				}
			} else if p.isPackage(family, q) { // a.b.C: the type C of package a.b
				if s, ok := p.lookup(ctx, family, q, name, from); ok {
					add(ri, lang.TierStrong, s.id)
				}
			}
		}
	}
	return links
}

// JVMStdlib reports whether an import names a package of the Java or
// Kotlin standard library.
func JVMStdlib(im lang.Import) bool {
	s := im.Source
	return strings.HasPrefix(s, "java.") || strings.HasPrefix(s, "javax.") || strings.HasPrefix(s, "jdk.") || strings.HasPrefix(s, "kotlin.") || s == "java" || s == "kotlin"
}
