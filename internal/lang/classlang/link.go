package classlang

import (
	"cmp"
	"context"
	"slices"
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
//     that type or of one of its base types (link_bases.go), else the
//     Kotlin extension function or C# extension method that extends one of
//     them (extensions.go).
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
	name   string
	file   string // repo path
	module int64
	defIdx int
}

// pkgLinker resolves names through packages; one per batch.
type pkgLinker struct {
	r     lang.Resolver
	files map[string]map[string][]string // family -> package -> files
	units map[string]map[string][]pkgSym // family + "\x00" + package -> lexical path -> symbols
	// overloads: the first overload's id -> every overload of its file, in
	// order (overloads.go)
	overloads map[int64][]pkgSym
	arities   map[int64]lang.Arity
	// baseCache: symbol id of a type -> its resolved base types (link_bases.go)
	baseCache map[int64][]pkgBase
	// extensionsByName: family, package and name -> the extension methods
	// of that name that the package's types declare; extends: symbol id ->
	// the type it extends, "" for none (extensions.go)
	extensionsByName map[string][]pkgSym
	extends          map[int64]string
}

// Linker links Java, Kotlin and C# files. Java and Kotlin share one
// package namespace; C# namespaces are separate, but one batch serves the
// three languages.
var Linker = &lang.Linker{NewBatch: newBatch}

func newBatch(r lang.Resolver) lang.BatchLinker {
	return &pkgLinker{r: r, units: map[string]map[string][]pkgSym{}, overloads: map[int64][]pkgSym{}, arities: map[int64]lang.Arity{},
		extensionsByName: map[string][]pkgSym{}, extends: map[int64]string{}}
}

// Import resolves an import to the file declaring what it names: a type or
// nested type (import a.b.C), the type of a static member (import static
// a.b.C.m), a top-level declaration (Kotlin's import a.b.f), the type whose
// static members an import brings in (import static a.b.C.*, C#'s using
// static). A whole package (import a.b.*, C#'s using) names no one file:
// the file depends on each of the package's (the languages'
// NamespaceImports).
func (p *pkgLinker) Import(ctx context.Context, f lang.File, im lang.Import) (lang.Target, bool) {
	if im.Source == "" || !pkgQualified(f.Lang) {
		return lang.Target{}, false
	}
	family, from := pkgFamily(f.Lang), p.r.ModuleOf(f.Path, f.Lang).ID
	switch im.Kind {
	case lang.ImportNamed:
		return p.importNamed(ctx, family, im, from)
	case lang.ImportAll:
		if p.isPackage(family, im.Source) {
			return lang.Target{}, false
		}
		if _, s, ok := p.resolveType(ctx, family, im.Source, from); ok {
			return lang.Target{File: s.file, Source: im.Source}, true
		}
	}
	return lang.Target{}, false
}

// importNamed resolves import a.b.C, import static a.b.C.m and Kotlin's
// import a.b.f.
func (p *pkgLinker) importNamed(ctx context.Context, family string, im lang.Import, from int64) (lang.Target, bool) {
	full := im.Source + "." + im.Name
	if _, s, ok := p.resolveType(ctx, family, full, from); ok {
		return lang.Target{File: s.file, Source: full}, true
	}
	if _, s, ok := p.resolveType(ctx, family, im.Source, from); ok {
		return lang.Target{File: s.file, Source: full}, true
	}
	if s, ok := p.lookup(ctx, family, im.Source, im.Name, from); ok {
		return lang.Target{File: s.file, Source: full}, true
	}
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
	type place struct{ path, file string }
	var order []place
	byPlace := map[place][]pkgSym{}
	for _, r := range rows {
		path, ok := strings.CutPrefix(r.QName, prefix)
		if !ok {
			continue
		}
		at := place{path, r.File}
		if _, ok := byPlace[at]; !ok {
			order = append(order, at)
		}
		byPlace[at] = append(byPlace[at], pkgSym{id: r.ID, kind: r.Kind, name: r.Name, file: r.File, module: r.Module, defIdx: r.DefIdx})
	}
	for _, at := range order {
		group := byPlace[at]
		slices.SortFunc(group, func(a, b pkgSym) int { return cmp.Compare(a.defIdx, b.defIdx) })
		m[at.path] = append(m[at.path], group[0]) // overloads: the first definition stands for them
		if len(group) > 1 {
			p.overloads[group[0].id] = group
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
// A Kotlin companion object's members are its class's (the kotlin
// package), so a.b.C.Companion, as imports and Java write it, is C.
func (p *pkgLinker) resolveType(ctx context.Context, family, name string, from int64) (typeRef, pkgSym, bool) {
	for i := strings.LastIndexByte(name, '.'); i > 0; i = strings.LastIndexByte(name[:i], '.') {
		pkg, path := name[:i], name[i+1:]
		if s, ok := p.lookup(ctx, family, pkg, path, from); ok && s.kind.IsTypeLike() {
			return typeRef{pkg, path}, s, true
		}
	}
	if family == "jvm" {
		if c := strings.Replace(name+".", companion, ".", 1); c != name+"." {
			return p.resolveType(ctx, family, strings.TrimSuffix(c, "."), from)
		}
	}
	return typeRef{}, pkgSym{}, false
}

// companion is how Kotlin's and Java's code name a companion object that
// has no name of its own.
const companion = ".Companion."

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
			} else if s, ok := p.lookup(ctx, family, im.Source, im.Name, from); ok {
				r.sym, r.named = s, true // a top-level function or property (Kotlin's import a.b.f)
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

// Link resolves the references of a Java, Kotlin or C# file: it works out
// the file's scope once (newFileScope), then links each reference by its
// qualifier's shape (linkRef).
func (p *pkgLinker) Link(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) []lang.Link {
	fs := p.newFileScope(ctx, f, facts, own)
	for ri, r := range facts.Unbound() {
		fs.linkRef(ctx, ri, r)
	}
	fs.byArity(ctx)
	return fs.links
}

// fileScope is what one file's references resolve against: its own
// definitions by path, its imports, the packages a bare name may come from,
// and the types its source declares; links collects the answers.
type fileScope struct {
	p      *pkgLinker
	f      lang.File
	facts  *lang.Facts
	own    []int64
	family string
	from   int64 // the file's module
	byPath map[string]int32
	imps   []pkgImport
	// the packages whose top-level names a bare name may denote, in order
	visible []string
	// the packages and types imported with a wildcard (java.lang implicitly)
	wildPkgs  []string
	wildTypes []typeRef
	// typed links x.name and this.x.name where the source declares x's type
	// (link.DeclTypes, link_bases.go)
	decl  *link.DeclTypes
	links link.Links
	// called: the symbol each call is linked to, for the calls chained
	// on it (f().m)
	called map[int]pkgSym
	// ownOverloads: the first of the file's definitions of each lexical
	// path -> all of them (overloads.go)
	ownOverloads map[int64][]pkgSym
}

func (p *pkgLinker) newFileScope(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) *fileScope {
	fs := &fileScope{p: p, f: f, facts: facts, own: own, family: pkgFamily(f.Lang), byPath: map[string]int32{}}
	fs.from = p.r.ModuleOf(f.Path, f.Lang).ID
	for i, d := range facts.Defs {
		if _, ok := fs.byPath[d.Path]; !ok {
			fs.byPath[d.Path] = int32(i)
		}
	}
	fs.imps = p.resolveImports(ctx, fs.family, facts, fs.from)
	if f.Pkg != "" {
		fs.visible = append(fs.visible, f.Pkg)
		if f.Lang == "csharp" { // enclosing namespaces
			for ns := f.Pkg; strings.Contains(ns, "."); {
				ns = ns[:strings.LastIndexByte(ns, '.')]
				fs.visible = append(fs.visible, ns)
			}
		}
	}
	if f.Lang == "java" && f.Pkg != "java.lang" && p.isPackage(fs.family, "java.lang") {
		fs.wildPkgs = append(fs.wildPkgs, "java.lang") // imported implicitly
	}
	for _, r := range fs.imps {
		switch {
		case r.pkg != "" && !r.isAlias:
			fs.wildPkgs = append(fs.wildPkgs, r.pkg)
		case r.isType && !r.named:
			fs.wildTypes = append(fs.wildTypes, r.typ)
		}
	}
	fs.decl = link.NewDeclTypes(f.Path, facts, f.Lang != "csharp", true)
	return fs
}

// lookup finds path in package pkg of the file's language family.
func (fs *fileScope) lookup(ctx context.Context, pkg, path string) (pkgSym, bool) {
	return fs.p.lookup(ctx, fs.family, pkg, path, fs.from)
}

// linkRef links reference ri by the shape of its qualifier.
func (fs *fileScope) linkRef(ctx context.Context, ri int, r lang.Ref) {
	facts := fs.facts
	name := facts.Names[r.Name]
	switch r.Shape {
	case lang.QualNone:
		if fs.receiverFirst(ctx, ri, r, name) {
			return
		}
		switch {
		case r.BindDef >= 0 && facts.Defs[r.BindDef].Extends != "" && fs.f.Lang == "kotlin":
			// the first of the file's extensions of the name: the implicit
			// receiver decides (a bare call in C# is a static call)
			fs.implicitExtension(ctx, ri, r, name)
		case r.BindDef >= 0:
			fs.add(ri, lang.TierProven, fs.ownSym(r.BindDef))
		case r.BindImp >= 0:
			im := facts.Imports[r.BindImp]
			if fs.imps[r.BindImp].named && (r.Role == lang.RoleImport || name == im.LocalName()) {
				fs.add(ri, lang.TierStrong, fs.imps[r.BindImp].sym)
			}
		default:
			if s, ok := fs.bare(ctx, name); ok && fs.extends(ctx, s) {
				fs.implicitExtension(ctx, ri, r, name)
			} else if ok {
				fs.add(ri, lang.TierStrong, s)
			} else if r.Role == lang.RoleCall || fs.inExtension(r.Enclosing) || fs.f.Lang == "kotlin" && r.Role != lang.RoleType {
				// a method of a base type called without this, a member of
				// the type an extension function extends
				fs.inherited(ctx, ri, r, name, false)
			}
		}
	case lang.QualSelf:
		if fs.receiverFirst(ctx, ri, r, name) {
			return
		}
		if t := fs.enclosingType(r.Enclosing); t >= 0 {
			if i, ok := fs.byPath[facts.Defs[t].Path+"."+name]; ok {
				fs.add(ri, lang.TierProven, fs.ownSym(i))
			} else if fs.inherited(ctx, ri, r, name, false); !fs.linked(ri) {
				fs.thisExtension(ctx, ri, r, name) // this.M() of an extension of the type
			}
		} else if fs.inExtension(r.Enclosing) {
			fs.inherited(ctx, ri, r, name, false)
		}
	case lang.QualIdent, lang.QualPath:
		if t := fs.qualifiedThis(r); t >= 0 {
			fs.outerMember(ctx, ri, t, name)
			return
		}
		fs.linkQualified(ctx, ri, r, name)
	case lang.QualCall:
		fs.chained(ctx, ri, r, name)
	case lang.QualExpr:
		if q := facts.Names[r.Qualifier]; q != "" && q == superName[fs.f.Lang] {
			fs.inherited(ctx, ri, r, name, true)
		} else if t := fs.qualifiedThis(r); t >= 0 {
			fs.outerMember(ctx, ri, t, name)
		} else if t := stringType[fs.f.Lang]; t != "" && strings.HasPrefix(q, `"`) {
			fs.extension(ctx, ri, r, name, t, nil) // "text".f()
		} else if fs.decl != nil && fs.decl.Of(r) != "" {
			fs.typed(ctx, ri, r, name) // ((Box) o).m(), (o as Box).m()
		}
	}
}

// qualifiedThis is the enclosing type that the qualifier of r names with a
// qualified this (Java's Outer.this.m, Kotlin's this@Outer.m in inner
// classes), or -1 (a Kotlin label of a lambda names no type).
func (fs *fileScope) qualifiedThis(r lang.Ref) int32 {
	q, outer, ok := fs.facts.Names[r.Qualifier], "", false
	switch fs.f.Lang {
	case "java":
		outer, ok = strings.CutSuffix(q, ".this")
	case "kotlin":
		outer, ok = strings.CutPrefix(q, "this@")
	}
	if !ok {
		return -1
	}
	for d := fs.enclosingType(r.Enclosing); d >= 0; d = fs.enclosingType(fs.facts.Defs[d].Parent) {
		if p := fs.facts.Defs[d].Path; p == outer || strings.HasSuffix(p, "."+outer) {
			return d
		}
	}
	return -1
}

// outerMember links ri to member name of enclosing type t: its own, else
// one it inherits.
func (fs *fileScope) outerMember(ctx context.Context, ri int, t int32, name string) {
	path := fs.facts.Defs[t].Path
	if i, ok := fs.byPath[path+"."+name]; ok {
		fs.add(ri, lang.TierProven, fs.ownSym(i))
		return
	}
	tr := typeRef{fs.f.Pkg, path}
	if s, ok := fs.lookup(ctx, tr.pkg, tr.path); ok {
		if m, ok := fs.memberNamed(ctx, pkgBase{tr, s}, fs.facts.Refs[ri], name); ok {
			fs.add(ri, lang.TierStrong, m)
		}
	}
}

// stringType names the type of a string literal, as an extension of it
// writes it.
var stringType = map[string]string{"kotlin": "String", "csharp": "string"}

// superName is the receiver that names the base class's members.
var superName = map[string]string{"java": "super", "kotlin": "super", "csharp": "base"}

// enclosingType is the innermost type declaration around def enc (-1 when
// there is none).
func (fs *fileScope) enclosingType(enc int32) int32 {
	for d := enc; d >= 0; d = fs.facts.Defs[d].Parent {
		if fs.facts.Defs[d].Kind.IsTypeLike() {
			return d
		}
	}
	return -1
}

// inherited links ri to member name as the base types of the type around
// the reference declare it: for super.name (onlyBases), and for this.name
// or a bare call the type itself does not declare. Inside an anonymous
// class body, that type is the anonymous class: its base type's members
// come first (selfTypes).
func (fs *fileScope) inherited(ctx context.Context, ri int, r lang.Ref, name string, onlyBases bool) {
	selves := fs.selfTypes(ctx, r)
	if len(selves) == 0 {
		return
	}
	if !onlyBases || selves[0].anonymous {
		for _, t := range selves {
			if m, ok := fs.memberNamed(ctx, t.pkgBase, r, name); ok {
				fs.add(ri, lang.TierStrong, m)
				return
			}
			if onlyBases {
				return // super in an anonymous class: its base's alone
			}
		}
		return
	}
	for _, b := range fs.p.bases(ctx, fs.family, selves[0].pkgBase, fs.from) {
		if m, ok := fs.memberNamed(ctx, b, r, name); ok {
			fs.add(ri, lang.TierStrong, m)
			return
		}
	}
}

// selfType is a type whose members a bare name or this can denote.
type selfType struct {
	pkgBase
	anonymous bool // the base of an anonymous class body, whose members it has
}

// selfTypes are the types whose members a bare name at r can denote,
// innermost first: the base type of the anonymous class body around r
// (new T() { ... }, as the reference to T is linked), the type the Kotlin
// extension function around it extends, then the type declaration around
// it.
func (fs *fileScope) selfTypes(ctx context.Context, r lang.Ref) []selfType {
	if fs.f.Pkg == "" {
		return nil
	}
	var out []selfType
	if i := fs.facts.AnonymousAt(r.Pos); i >= 0 {
		if s, ok := fs.called[int(fs.facts.Anonymous[i].Base)]; ok && s.kind.IsTypeLike() {
			if t, ok := fs.typeOfSym(ctx, s); ok {
				out = append(out, selfType{t, true})
			}
		}
	}
	if t, ok := fs.extendedType(ctx, r.Enclosing); ok {
		out = append(out, selfType{t, false}) // an extension's receiver comes before its class
	}
	if t := fs.enclosingType(r.Enclosing); t >= 0 {
		tr := typeRef{fs.f.Pkg, fs.facts.Defs[t].Path}
		if s, ok := fs.lookup(ctx, tr.pkg, tr.path); ok {
			out = append(out, selfType{pkgBase{tr, s}, false})
		}
	}
	return out
}

// typeOfSym is the type symbol s as memberOf takes it.
func (fs *fileScope) typeOfSym(ctx context.Context, s pkgSym) (pkgBase, bool) {
	fi, _, d, ok := fs.declOf(ctx, s)
	if !ok {
		return pkgBase{}, false
	}
	return pkgBase{typeRef{fi.Pkg, d.Path}, s}, true
}

// declOf is the file declaring s (in a package), its facts and s's
// definition there.
func (fs *fileScope) declOf(ctx context.Context, s pkgSym) (fi lang.File, facts *lang.Facts, d lang.Def, ok bool) {
	fi, facts = fs.f, fs.facts
	if s.file != fs.f.Path {
		fi, facts = link.FactsAt(ctx, fs.p.r, s.file)
	}
	if facts == nil || s.defIdx < 0 || s.defIdx >= len(facts.Defs) || fi.Pkg == "" {
		return fi, nil, d, false
	}
	return fi, facts, facts.Defs[s.defIdx], true
}

// linkQualified links q.name: through a local, field or type of this file
// when the qualifier is bound, through a declared type for this.x, else
// through a type of another file or a package written in full.
func (fs *fileScope) linkQualified(ctx context.Context, ri int, r lang.Ref, name string) {
	q := fs.facts.Names[r.Qualifier]
	if r.QualBound {
		if t := fs.sameFileType(q, r.Enclosing); t >= 0 {
			if i, ok := fs.byPath[fs.facts.Defs[t].Path+"."+name]; ok {
				fs.add(ri, lang.TierProven, fs.ownSym(i))
			}
		} else if fs.decl != nil {
			fs.typed(ctx, ri, r, name)
		}
		return
	}
	if fs.decl != nil && strings.HasPrefix(q, "this.") {
		fs.typed(ctx, ri, r, name)
		return
	}
	if t, ok := fs.otherFileType(ctx, r.BindImp, q); ok {
		if s, ok := fs.lookup(ctx, t.pkg, t.path+"."+name); ok {
			fs.add(ri, lang.TierStrong, s)
		}
	} else if fs.p.isPackage(fs.family, q) { // a.b.C: the type C of package a.b
		if s, ok := fs.lookup(ctx, q, name); ok {
			fs.add(ri, lang.TierStrong, s)
		}
	} else {
		fs.pathMember(ctx, ri, r, name) // f.m where a base class declares the field f
	}
}

// bare resolves a name no local, definition or named import binds: the
// first visible package that has it, else the one wildcard import that does.
func (fs *fileScope) bare(ctx context.Context, name string) (pkgSym, bool) {
	for _, pkg := range fs.visible {
		if s, ok := fs.lookup(ctx, pkg, name); ok {
			return s, true
		}
	}
	var hit pkgSym
	n := 0
	for _, pkg := range fs.wildPkgs {
		if s, ok := fs.lookup(ctx, pkg, name); ok && s.id != hit.id {
			hit, n = s, n+1
		}
	}
	for _, t := range fs.wildTypes {
		if s, ok := fs.lookup(ctx, t.pkg, t.path+"."+name); ok && s.id != hit.id {
			hit, n = s, n+1
		}
	}
	return hit, n == 1
}

// sameFileType finds the type a (dotted) name denotes from inside def enc.
func (fs *fileScope) sameFileType(q string, enc int32) int32 {
	defs := fs.facts.Defs
	first, rest, _ := strings.Cut(q, ".")
	found := int32(-1)
	for d := enc; d >= 0 && found < 0; d = defs[d].Parent {
		if defs[d].Kind.IsTypeLike() {
			if i, ok := fs.byPath[defs[d].Path+"."+first]; ok && defs[i].Kind.IsTypeLike() {
				found = i
			}
		}
	}
	if found < 0 {
		if i, ok := fs.byPath[first]; ok && defs[i].Kind.IsTypeLike() {
			found = i
		}
	}
	if found < 0 || rest == "" {
		return found
	}
	if i, ok := fs.byPath[defs[found].Path+"."+rest]; ok && defs[i].Kind.IsTypeLike() {
		return i
	}
	return -1
}

// otherFileType finds the type a (dotted) qualifier denotes in another file.
func (fs *fileScope) otherFileType(ctx context.Context, bindImp int32, q string) (typeRef, bool) {
	first, rest, _ := strings.Cut(q, ".")
	var t typeRef
	found := false
	if bindImp >= 0 && fs.facts.Imports[bindImp].LocalName() == first {
		im := fs.imps[bindImp]
		switch {
		case im.named && im.isType:
			t, found = im.typ, true
		case im.isAlias: // using Alias = A.B; Alias.C.M()
			if rest == "" {
				return typeRef{}, false
			}
			first, rest, _ = strings.Cut(rest, ".")
			if s, ok := fs.lookup(ctx, im.pkg, first); ok && s.kind.IsTypeLike() {
				t, found = typeRef{im.pkg, first}, true
			}
		}
	} else if s, ok := fs.bare(ctx, first); ok && s.kind.IsTypeLike() {
		for _, pkg := range append(append([]string{}, fs.visible...), fs.wildPkgs...) {
			if s2, ok := fs.lookup(ctx, pkg, first); ok && s2.id == s.id {
				t, found = typeRef{pkg, first}, true
				break
			}
		}
	}
	if !found {
		return fs.p.resolveTypeOf(ctx, fs.family, q, fs.from) // written in full: a.b.C
	}
	if fs.family == "jvm" { // C.Companion is C (resolveType)
		rest = strings.Trim(strings.Replace("."+rest+".", companion, ".", 1), ".")
	}
	if rest != "" {
		t.path += "." + rest
		if s, ok := fs.lookup(ctx, t.pkg, t.path); !ok || !s.kind.IsTypeLike() {
			return typeRef{}, false
		}
	}
	return t, true
}

// typed links x.name where the source declares x's type: a member of a type
// of this file (or one it inherits from another file's), or of a type of
// another file.
func (fs *fileScope) typed(ctx context.Context, ri int, r lang.Ref, name string) {
	typ := fs.decl.Of(r)
	if typ == "" {
		if r.Shape == lang.QualPath {
			fs.pathMember(ctx, ri, r, name) // x.f.m through another file's field types
		} else {
			fs.initialised(ctx, ri, r, name)
		}
		return
	}
	if t := fs.sameFileType(typ, r.Enclosing); t >= 0 {
		if i := fs.decl.Member(t, name, fs.sameFileType); i >= 0 {
			fs.add(ri, lang.TierStrong, fs.ownSym(i))
		} else if tr := (typeRef{fs.f.Pkg, fs.facts.Defs[t].Path}); fs.f.Pkg != "" {
			// inherited from a base type of another file
			fs.memberOrExtension(ctx, ri, r, name, tr)
		}
		return
	}
	bindImp := int32(-1)
	first, _, _ := strings.Cut(typ, ".")
	for i, im := range fs.facts.Imports {
		if im.Kind == lang.ImportNamed && im.LocalName() == first {
			bindImp = int32(i)
			break
		}
	}
	t, ok := fs.otherFileType(ctx, bindImp, typ)
	if !ok {
		fs.extension(ctx, ri, r, name, typ, nil)
		return
	}
	fs.memberOrExtension(ctx, ri, r, name, t)
}

// member links ri to member name of type t (declared or inherited) and
// reports whether it did; b is t's symbol, when the repository declares t.
func (fs *fileScope) member(ctx context.Context, ri int, r lang.Ref, t typeRef, name string) (b *pkgBase, ok bool) {
	s, found := fs.lookup(ctx, t.pkg, t.path)
	if !found {
		return nil, false
	}
	if m, ok := fs.memberNamed(ctx, pkgBase{t, s}, r, name); ok {
		fs.add(ri, lang.TierStrong, m)
		return &pkgBase{t, s}, true
	}
	return &pkgBase{t, s}, false
}

// JVMStdlib reports whether an import names a package of the Java or
// Kotlin standard library.
func JVMStdlib(im lang.Import) bool {
	s := im.Source
	return strings.HasPrefix(s, "java.") || strings.HasPrefix(s, "javax.") || strings.HasPrefix(s, "jdk.") || strings.HasPrefix(s, "kotlin.") || s == "java" || s == "kotlin"
}
