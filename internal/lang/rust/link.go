package rust

import (
	"context"
	"path"
	"strings"
	"unicode"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
	"github.com/cairnhq/cairn/internal/lang/link"
	"github.com/cairnhq/cairn/internal/lang/native"
)

// Rust linking (DESIGN §5 tiers): a reference bound in its own file is
// proven; one reached through an explicit use chain is strong.
//
// Files form a module tree. The crate root is lib.rs or main.rs (the
// nearest one up the directories, not above the package's Cargo.toml; a file
// with neither is its own root); mod x; in a module resolves to x.rs or
// x/mod.rs in the module's directory (the directory of lib.rs, main.rs and
// mod.rs files, else dir/stem); inline mod x { } blocks are modules of their
// file. use paths start at crate::, self::, super:: or (Rust 2018) a child
// of the current module, falling back to a child of the crate root (2015);
// any other first segment is an external crate and stays unresolved. A name
// a use binds links to the item of that name in the target module's file;
// a::b::c links through the module (or type) a binds; glob imports (use x::*)
// supply the names nothing else binds.

var linker = &lang.Linker{NewBatch: newBatch}

// batch links the Rust files of one batch.
type batch struct {
	r          lang.Resolver
	syms       *native.Symbols
	crateRoots map[string]string // Rust file -> its crate root
	rustBinds  map[string][]rustBinding
	rustImps   map[string][]lang.Import
	rustRex    map[string][2]string           // file + path -> where a re-exported path is defined
	macros     map[string]map[string]rustPath // module file -> the macro_rules! its modules see (macrosOf)
	pathMods   map[string]map[string]string   // file -> inline path of a mod with #[path] -> its file
}

func newBatch(r lang.Resolver) lang.BatchLinker {
	return &batch{r: r, syms: native.NewSymbols(r), crateRoots: map[string]string{},
		rustBinds: map[string][]rustBinding{}, rustImps: map[string][]lang.Import{}, rustRex: map[string][2]string{},
		macros: map[string]map[string]rustPath{}, pathMods: map[string]map[string]string{}}
}

// Import resolves nothing for import edges: Link follows use paths itself.
func (l *batch) Import(context.Context, lang.File, lang.Import) (lang.Target, bool) {
	return lang.Target{}, false
}

// rustMod is a Rust module: a file and, for inline modules, the lexical path
// of the mod block in it.
type rustMod struct {
	file, inline string
}

// fileExists reports whether the worktree has the path (any file, code or not).
func (l *batch) fileExists(p string) bool {
	_, ok := l.r.File(p)
	return ok
}

// rustCrateRoot finds the crate root of a file.
func (l *batch) rustCrateRoot(file string) string {
	if r, ok := l.crateRoots[file]; ok {
		return r
	}
	root := file
	for d := lang.DirOf(file); ; d = lang.DirOf(d) {
		found := false
		for _, p := range crateRootFiles(d) {
			if l.fileExists(p) {
				root, found = p, true
				break
			}
		}
		if !found && targetDirs[path.Base(lang.DirOf(d))] {
			// tests/x/y.rs is a module of the test crate tests/x.rs
			if p := d + ".rs"; l.fileExists(p) {
				root, found = p, true
			}
		}
		if found || l.fileExists(path.Join(d, "Cargo.toml")) || d == "" {
			break
		}
	}
	if r := path.Base(file); r == "lib.rs" || r == "main.rs" || r == "build.rs" {
		root = file
	}
	l.crateRoots[file] = root
	return root
}

// targetDirs are the directories of a Cargo package whose files are each a
// crate of their own (tests/x.rs), with their modules in a directory of
// the same name (tests/x/).
var targetDirs = map[string]bool{"tests": true, "examples": true, "benches": true}

// rustPackageLib is the library crate root of the Cargo package holding file
// when crate is that package's name (dashes read as underscores), else "".
func (l *batch) rustPackageLib(file, crate string) string {
	m := l.r.ModuleOf(file, "rust")
	if m.Kind != "rust" || strings.ReplaceAll(m.Name, "-", "_") != crate {
		return ""
	}
	if lib := path.Join(m.Root, "src/lib.rs"); l.fileExists(lib) {
		return lib
	}
	return ""
}

// rustModDir is the directory of a module file's child module files.
func (l *batch) rustModDir(file string) string {
	switch path.Base(file) {
	case "mod.rs", "lib.rs", "main.rs":
		return lang.DirOf(file)
	}
	if l.rustCrateRoot(file) == file {
		return lang.DirOf(file)
	}
	return path.Join(lang.DirOf(file), strings.TrimSuffix(path.Base(file), ".rs"))
}

func (l *batch) rustChild(ctx context.Context, m rustMod, name string) (rustMod, bool) {
	inner := native.JoinDot(m.inline, name)
	if l.syms.Of(ctx, m.file).Kinds[inner] == lang.KindModule {
		return rustMod{m.file, inner}, true
	}
	if f := l.pathModsOf(ctx, m.file)[inner]; f != "" {
		return rustMod{file: f}, true
	}
	dir := path.Join(l.rustModDir(m.file), strings.ReplaceAll(m.inline, ".", "/"))
	for _, c := range childModuleFiles(dir, name) {
		if l.fileExists(c) {
			return rustMod{file: c}, true
		}
	}
	return rustMod{}, false
}

// pathModsOf is the files of the modules that file declares with
// #[path = "…"] mod name;, by their inline path, where the file exists. The
// path is relative to the file's directory, or, inside inline modules, to
// the directory their names make below the file's module directory.
func (l *batch) pathModsOf(ctx context.Context, file string) map[string]string {
	if ms, ok := l.pathMods[file]; ok {
		return ms
	}
	var ms map[string]string
	if facts := l.r.Facts(ctx, file); facts != nil {
		for _, im := range facts.Imports {
			if im.Kind != lang.ImportModule || !filePath(im.Source) {
				continue
			}
			cur := rustModuleAt(file, facts, im.Pos)
			dir := lang.DirOf(file)
			if cur.inline != "" {
				dir = path.Join(l.rustModDir(file), strings.ReplaceAll(cur.inline, ".", "/"))
			}
			if f := path.Join(dir, im.Source); l.fileExists(f) {
				if ms == nil {
					ms = map[string]string{}
				}
				ms[native.JoinDot(cur.inline, im.Name)] = f
			}
		}
	}
	l.pathMods[file] = ms
	return ms
}

func (l *batch) rustParent(m rustMod) (rustMod, bool) {
	if m.inline != "" {
		return rustMod{m.file, native.ParentPath(m.inline)}, true
	}
	if l.rustCrateRoot(m.file) == m.file {
		return rustMod{}, false
	}
	d := lang.DirOf(m.file)
	if path.Base(m.file) == "mod.rs" {
		d = lang.DirOf(d)
	}
	cands := []string{path.Join(d, "mod.rs"), path.Join(d, "lib.rs"), path.Join(d, "main.rs")}
	if d != "" {
		cands = append(cands, d+".rs")
	}
	for _, c := range cands {
		if l.fileExists(c) {
			return rustMod{file: c}, true
		}
	}
	return rustMod{}, false
}

// rustResolve follows a "::" path from module cur as far as modules go: the
// module reached and the segments left (items in it, or a type's members).
func (l *batch) rustResolve(ctx context.Context, cur rustMod, p string) (rustMod, []string, bool) {
	segs := strings.Split(p, "::")
	if len(segs) == 0 || segs[0] == "" {
		return rustMod{}, nil, false // ::extern_crate
	}
	m := cur
	switch segs[0] {
	case "crate":
		m, segs = rustMod{file: l.rustCrateRoot(cur.file)}, segs[1:]
	case "self":
		segs = segs[1:]
	case "super":
		for len(segs) > 0 && segs[0] == "super" {
			up, ok := l.rustParent(m)
			if !ok {
				return rustMod{}, nil, false
			}
			m, segs = up, segs[1:]
		}
	default:
		if c, ok := l.rustChild(ctx, cur, segs[0]); ok {
			m, segs = c, segs[1:]
		} else if c, ok := l.rustChild(ctx, rustMod{file: l.rustCrateRoot(cur.file)}, segs[0]); ok {
			m, segs = c, segs[1:]
		} else if lib := l.rustPackageLib(cur.file, segs[0]); lib != "" {
			m, segs = rustMod{file: lib}, segs[1:] // tests, examples and binaries use their package's library by name
		} else {
			return rustMod{}, nil, false
		}
	}
	for len(segs) > 0 {
		c, ok := l.rustChild(ctx, m, segs[0])
		if !ok {
			break
		}
		m, segs = c, segs[1:]
	}
	return m, segs, true
}

// rustBinding is what a use binds: a module, or an item (a file and a path in it).
type rustBinding struct {
	mod  rustMod
	item string // lexical path of an item in mod.file ("" for the module itself)
	ok   bool
}

func (l *batch) rustItemIn(m rustMod, rest []string) rustBinding {
	return rustBinding{mod: m, item: native.JoinDot(m.inline, strings.Join(rest, ".")), ok: true}
}

// rustImport resolves one import of a file from the module that holds it.
func (l *batch) rustImport(ctx context.Context, cur rustMod, im lang.Import) rustBinding {
	switch im.Kind {
	case lang.ImportNamed:
		m, rest, ok := l.rustResolve(ctx, cur, im.Source)
		if !ok {
			return rustBinding{}
		}
		rest = append(rest, im.Name)
		if len(rest) == 1 {
			if c, ok := l.rustChild(ctx, m, im.Name); ok {
				return rustBinding{mod: c, ok: true}
			}
		}
		return l.rustItemIn(m, rest)
	case lang.ImportModule, lang.ImportAll:
		if im.Kind == lang.ImportModule && filePath(im.Source) {
			m, ok := l.rustChild(ctx, cur, im.Name) // #[path = "…"] mod name;
			return rustBinding{mod: m, ok: ok}
		}
		m, rest, ok := l.rustResolve(ctx, cur, im.Source)
		switch {
		case !ok:
			return rustBinding{}
		case len(rest) == 0:
			return rustBinding{mod: m, ok: true}
		case im.Kind == lang.ImportModule:
			return l.rustItemIn(m, rest) // use a::func: a lower-case item
		}
	}
	return rustBinding{}
}

// rustModuleAt is the module holding a position of a file: the innermost
// inline module around it, or the file's.
func rustModuleAt(file string, facts *lang.Facts, p lang.Pos) rustMod {
	m := rustMod{file: file}
	for _, d := range facts.Defs {
		if d.Kind == lang.KindModule && d.Span.Contains(p) {
			m.inline = d.Path // defs are in pre-order: the last one is the innermost
		}
	}
	return m
}

// rustModuleOf is the module holding definition d.
func rustModuleOf(file string, facts *lang.Facts, d int32) rustMod {
	for ; d >= 0; d = facts.Defs[d].Parent {
		if facts.Defs[d].Kind == lang.KindModule {
			return rustMod{file, facts.Defs[d].Path}
		}
	}
	return rustMod{file: file}
}

// Link resolves the references of a Rust file: it binds the file's use
// declarations once (newRustFile), then links each reference by the shape
// of its qualifier (linkRef).
func (l *batch) Link(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) []lang.Link {
	rf := l.newRustFile(ctx, f, facts, own)
	for ri, r := range facts.Unbound() {
		rf.linkRef(ctx, ri, r)
	}
	return rf.links
}

// rustFile is what one file's references resolve against: its own items by
// path, what its use declarations bind (by import, by local name, and the
// glob imports), and its locals; links collects the answers.
type rustFile struct {
	l      *batch
	f      lang.File
	facts  *lang.Facts
	own    []int64
	self   map[string]int64 // the file's own items by lexical path
	binds  []rustBinding    // by import
	globs  []rustBinding    // the glob imports (use a::*) that resolved
	byName map[string]int32 // import by the name it binds (the first)
	locals link.LatestIndex
	links  link.Links
	linked map[int]rustPath     // reference -> the path it is linked to
	defs   map[string]*fileDefs // files' facts and definitions by path, read once (defAt)
	paths  *native.FilePaths    // self with kinds and the methods sharing a field's path
	names  map[string]uint32
}

// rustPath is a symbol by its file and lexical path.
type rustPath struct{ file, path string }

func (l *batch) newRustFile(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) *rustFile {
	paths := native.OwnFilePaths(facts, own)
	rf := &rustFile{l: l, f: f, facts: facts, own: own, self: paths.Paths, paths: paths,
		binds: l.rustImports(ctx, f.Path, facts), locals: link.NewLatestIndex(facts), byName: facts.ImportByName(), linked: map[int]rustPath{}}
	for i, im := range facts.Imports {
		if im.Kind == lang.ImportAll && rf.binds[i].ok {
			rf.globs = append(rf.globs, rf.binds[i])
		}
	}
	return rf
}

// linkRef links reference ri by the shape of its qualifier.
func (rf *rustFile) linkRef(ctx context.Context, ri int, r lang.Ref) {
	facts := rf.facts
	name := facts.Names[r.Name]
	switch r.Shape {
	case lang.QualNone:
		switch {
		case r.BindDef >= 0:
			rf.linkTo(ri, lang.TierProven, rf.f.Path, facts.Defs[r.BindDef].Path, link.DefID(rf.own, r.BindDef))
		case r.BindImp >= 0:
			im := facts.Imports[r.BindImp]
			if b := rf.binds[r.BindImp]; b.ok && b.item != "" && (name == im.LocalName() || r.Role == lang.RoleImport && name == im.Name) {
				rf.target(ctx, ri, b.mod.file, b.item)
			}
		case name == "Self":
			// in an impl of a type another file declares: that type
			if recv := rustReceiver(facts, r.Enclosing); recv != "" {
				rf.imported(ctx, ri, native.LastSegment(recv))
			}
		default:
			if rf.globbed(ctx, ri, name) {
				return
			}
			if r.Role == lang.RoleCall {
				rf.macroInScope(ctx, ri, name)
			}
		}
	case lang.QualSelf:
		recv := rustReceiver(facts, r.Enclosing)
		if recv == "" {
			return
		}
		if rf.target(ctx, ri, rf.f.Path, recv+"."+name) {
			return
		}
		if rf.imported(ctx, ri, native.LastSegment(recv), name) {
			return
		}
		rf.traitDefault(ctx, ri, recv, name)
	case lang.QualIdent, lang.QualPath:
		rf.linkPath(ctx, ri, r, name)
	case lang.QualCall:
		if r.Via > 0 {
			rf.returned(ctx, ri, int(r.Via-1), name) // f().name: a member of what f returns
		}
	}
}

// linkPath links a::b::name (or x.name on a local, which is no path).
func (rf *rustFile) linkPath(ctx context.Context, ri int, r lang.Ref, name string) {
	facts := rf.facts
	q := facts.Names[r.Qualifier]
	if r.Shape == lang.QualPath && lang.IsDottedPath(q) {
		rf.fieldPath(ctx, ri, r, q, name)
		return
	}
	if strings.ContainsAny(q, ".()&*[] ") || q == "?" {
		return // a field access, or not a path
	}
	segs := strings.Split(q, "::")
	cur := rustModuleOf(rf.f.Path, facts, r.Enclosing)
	local := int32(-1)
	if r.QualBound && !strings.Contains(q, "::") {
		local = rf.locals.Binding(facts, r.Qualifier, r.Scope, r.Pos)
	}
	switch {
	case local >= 0:
		// x.name on a local x: a field or method of the type x is declared
		// with, or of the type the call initialising it returns; not a path
		if lo := facts.Locals[local]; lo.Type != "" {
			if p, place, ok := variantPlace(lo.Type); ok {
				rf.variantMember(ctx, ri, r, cur, p, place, name)
			} else if lo.Type == "Self" { // other: &Self
				if recv := rustReceiver(facts, r.Enclosing); recv != "" {
					rf.typed(ctx, ri, cur, recv, name)
				}
			} else {
				rf.typed(ctx, ri, cur, lo.Type, name)
			}
		} else if lo.Via > 0 {
			rf.returned(ctx, ri, int(lo.Via-1), name)
		}
	case r.QualBound:
		// an item of this file: a type (T::f, E::Variant) or an inline module
		p := native.JoinDot(cur.inline, strings.Join(segs, ".")) + "." + name
		if !rf.target(ctx, ri, rf.f.Path, p) {
			rf.target(ctx, ri, rf.f.Path, strings.Join(segs, ".")+"."+name)
		}
	case r.BindImp >= 0:
		rf.member(ctx, ri, rf.binds[r.BindImp], append(segs[1:len(segs):len(segs)], name))
	default:
		m, rest, ok := rf.l.rustResolve(ctx, cur, q)
		if ok {
			rf.member(ctx, ri, rustBinding{mod: m, ok: true}, append(rest, name))
			return
		}
		rf.globbed(ctx, ri, append(segs, name)...) // T { name: … }, T::name with T from use a::*
	}
}

// traitDefault links self.name, in an impl of type recv that declares no
// name, to the provided method of a trait this file implements for recv
// (impl Trait for Recv {} takes the trait's default body): the trait's
// own in this file, else the one the file imports.
func (rf *rustFile) traitDefault(ctx context.Context, ri int, recv, name string) bool {
	facts := rf.facts
	for _, rel := range facts.TypeRels {
		if rel.Kind != lang.RelImplements || facts.Defs[rel.Def].Path != recv {
			continue
		}
		trait := native.LastSegment(strings.ReplaceAll(classlang.StripTypeArgs(rel.Target), "::", "."))
		if rf.target(ctx, ri, rf.f.Path, trait+"."+name) || rf.imported(ctx, ri, trait, name) {
			return true
		}
	}
	return false
}

// imported links the item t that the file imports, by name or through a
// glob import (use crate::*), or the member of it that rest names.
func (rf *rustFile) imported(ctx context.Context, ri int, t string, rest ...string) bool {
	if i, ok := rf.byName[t]; ok {
		if b := rf.binds[i]; b.item != "" || len(rest) > 0 {
			return rf.member(ctx, ri, b, rest)
		}
		return false
	}
	return rf.globbed(ctx, ri, append([]string{t}, rest...)...)
}

// globbed links the path segs through the file's glob imports, the first
// that has it.
func (rf *rustFile) globbed(ctx context.Context, ri int, segs ...string) bool {
	for _, g := range rf.globs {
		if rf.member(ctx, ri, g, segs) {
			return true
		}
	}
	return false
}

// typed links x.name on a local x declared with type t (c: &Counter, let
// c = Counter { .. }, v: V with V: Visitor) to the member of t: the type as
// the file names it, an item of the file or one it imports.
func (rf *rustFile) typed(ctx context.Context, ri int, cur rustMod, t, name string) {
	if segs := strings.Split(t, "::"); len(segs) > 1 {
		// a path (a bound such as ast::Visitor): through the import of its
		// first segment, or from the module
		if i, ok := rf.byName[segs[0]]; ok {
			rf.member(ctx, ri, rf.binds[i], append(segs[1:], name))
		} else if m, rest, ok := rf.l.rustResolve(ctx, cur, t); ok {
			rf.member(ctx, ri, rustBinding{mod: m, ok: true}, append(rest, name))
		}
		return
	}
	for _, p := range []string{native.JoinDot(cur.inline, t), t} {
		if id := rf.pick(rf.paths, ri, p+"."+name); id != 0 {
			rf.linkTo(ri, lang.TierStrong, rf.f.Path, p+"."+name, id)
			return
		}
		if rf.self[p] != 0 {
			return // the file's own type, without that member
		}
	}
	rf.imported(ctx, ri, t, name)
}

// returned links x.name, where x is the result of the call (or a local it
// initialises) whose callee is reference call, to the member of the type
// the callee declares it returns: Self (its impl's type), a type of the
// callee's file, or any type as the callee's file names it (through its
// imports, a path).
func (rf *rustFile) returned(ctx context.Context, ri, call int, name string) {
	callee, ok := rf.linked[call]
	unwrap := false
	if !ok {
		inner, ok := rf.unwrapCall(call)
		if !ok {
			rf.constructed(ctx, ri, call, name)
			return
		}
		if callee, ok = rf.linked[inner]; !ok {
			return
		}
		unwrap = true
	}
	facts, d := rf.defAt(ctx, callee.file, callee.path, func(d *lang.Def) bool {
		return d.Type != "" && (d.Kind == lang.KindFunction || d.Kind == lang.KindMethod) // not a field of the same name
	})
	if d == nil {
		return
	}
	n := len(rf.links)
	if !unwrap {
		rf.resultMember(ctx, ri, callee, facts, *d, name)
	}
	// f().unwrap().name; and f()?.name or let x = f()?, where only what the
	// Option or Result holds can have a member of the repository's (the
	// methods of Option and Result are the standard library's)
	if len(rf.links) == n && (unwrap || !wrapperMethods[name]) {
		if t := wrappedResult(d.Signature); t != "" {
			held := *d
			held.Type = t
			rf.resultMember(ctx, ri, callee, facts, held, name)
		}
	}
}

// resultMember links name, a member of the result of callee, declared d in
// its file (facts), to the member of the type d declares.
func (rf *rustFile) resultMember(ctx context.Context, ri int, callee rustPath, facts *lang.Facts, d lang.Def, name string) {
	fp := rf.filePaths(ctx, callee.file)
	recv := "" // the impl's type of a method or associated function
	if i := strings.LastIndexByte(callee.path, '.'); i >= 0 {
		recv = callee.path[:i]
	}
	typ := ""
	switch {
	case d.Type == "Self" && recv != "":
		typ = recv
	case callee.file == rf.f.Path:
		// as this file names it: its own types, what it imports, paths
		rf.typed(ctx, ri, rustModuleOf(rf.f.Path, rf.facts, rf.facts.Refs[ri].Enclosing), d.Type, name)
		return
	case fp.Paths[d.Type] != 0:
		typ = d.Type
	default:
		n := len(rf.links)
		rf.importedType(ctx, ri, callee.file, facts, &d, name)
		rf.strongSince(n) // inferred, even where the type is this file's
		return
	}
	if typ != "" {
		rf.linkTo(ri, lang.TierStrong, callee.file, typ+"."+name, rf.pick(fp, ri, typ+"."+name))
	}
}

// importedType links x.name, where x is the result of function d of
// another file declared to return a type that file names through a use
// (-> Span, or ast::Span, with use crate::ast::{self, Span} there), to the
// member of that type.
func (rf *rustFile) importedType(ctx context.Context, ri int, file string, facts *lang.Facts, d *lang.Def, name string) {
	segs := strings.Split(d.Type, "::")
	at := rustModuleAt(file, facts, d.Span.Start)
	for _, im := range facts.Imports {
		if im.LocalName() != segs[0] {
			continue
		}
		if b := rf.l.rustImport(ctx, at, im); b.ok {
			rf.member(ctx, ri, b, append(segs[1:len(segs):len(segs)], name))
		}
		return
	}
	if len(segs) > 1 { // a path from the crate or the module: crate::items::Item
		if m, rest, ok := rf.l.rustResolve(ctx, at, d.Type); ok {
			rf.member(ctx, ri, rustBinding{mod: m, ok: true}, append(rest, name))
		}
	}
}

// strongSince makes the links added since the n-th strong: target proves
// a name of this file, but a member reached through the type another file
// declares is inferred.
func (rf *rustFile) strongSince(n int) {
	for i := n; i < len(rf.links); i++ {
		if rf.links[i].Tier == lang.TierProven {
			rf.links[i].Tier = lang.TierStrong
		}
	}
}

// constructed links x.name, where x is the result of T::default() or
// T::from(v) and the callee is not an item the index knows (derived, or a
// std trait's impl), to the member of T: Default::default and From::from
// return Self.
func (rf *rustFile) constructed(ctx context.Context, ri, call int, name string) {
	c := rf.facts.Refs[call]
	if c.Role != lang.RoleCall || (rf.facts.Names[c.Name] != "default" && rf.facts.Names[c.Name] != "from") {
		return
	}
	t := rf.facts.Names[c.Qualifier]
	if t == "Self" {
		t = rustReceiver(rf.facts, c.Enclosing)
	}
	if seg := BaseType(t); seg == "" || !unicode.IsUpper(rune(seg[0])) {
		return // a function of a module (io::from), not a type's
	}
	rf.typed(ctx, ri, rustModuleOf(rf.f.Path, rf.facts, c.Enclosing), t, name)
}

// variantMember links x.name, where x is bound at a place of a pattern
// (Ast::Literal(ref x), Group { concat, .. }, Span { start: ref x, .. }),
// to the member of the type declared there: by the tuple variant p at its
// place, or by the field of struct or struct-like variant p; as the
// declaring file names it.
func (rf *rustFile) variantMember(ctx context.Context, ri int, r lang.Ref, cur rustMod, p string, place patternPlace, name string) {
	file, path, ok := rf.itemPath(ctx, r, cur, p)
	if !ok {
		return
	}
	var facts *lang.Facts
	var d *lang.Def
	t := ""
	if place.field != "" {
		facts, d = rf.defAt(ctx, file, path+"."+place.field, func(d *lang.Def) bool { return d.Kind == lang.KindField })
		if d != nil {
			t = d.Type
		}
	} else {
		facts, d = rf.defAt(ctx, file, path, func(d *lang.Def) bool { return d.Kind == lang.KindEnumMember })
		if d != nil {
			t = tupleFieldType(d.Signature, place.index)
		}
	}
	if t == "" {
		return
	}
	if file == rf.f.Path {
		rf.typed(ctx, ri, cur, t, name)
		return
	}
	if strings.Contains(t, "::") {
		return // a path as the declaring file writes it
	}
	fp := rf.filePaths(ctx, file)
	for _, tp := range []string{native.JoinDot(rustModuleAt(file, facts, d.Span.Start).inline, t), t} {
		if id := rf.pick(fp, ri, tp+"."+name); id != 0 {
			rf.linkTo(ri, lang.TierStrong, file, tp+"."+name, id)
			return
		}
	}
}

// itemPath finds the item a path names from this file (Self::V, E::V,
// ast::E::V), by its file and lexical path, without linking anything;
// false when it does not resolve to an item of the repository.
func (rf *rustFile) itemPath(ctx context.Context, r lang.Ref, cur rustMod, p string) (string, string, bool) {
	segs := strings.Split(p, "::")
	if segs[0] == "Self" {
		recv := rustReceiver(rf.facts, r.Enclosing)
		return rf.f.Path, native.JoinDot(recv, strings.Join(segs[1:], ".")), recv != ""
	}
	for _, lp := range []string{native.JoinDot(cur.inline, strings.Join(segs, ".")), strings.Join(segs, ".")} {
		if rf.self[lp] != 0 {
			return rf.f.Path, lp, true
		}
	}
	i, ok := rf.byName[segs[0]]
	if !ok || !rf.binds[i].ok {
		return "", "", false
	}
	b := rf.binds[i]
	if b.item != "" {
		return b.mod.file, native.JoinDot(b.item, strings.Join(segs[1:], ".")), true
	}
	m, rest := b.mod, segs[1:]
	for len(rest) > 1 {
		c, ok := rf.l.rustChild(ctx, m, rest[0])
		if !ok {
			break
		}
		m, rest = c, rest[1:]
	}
	return m.file, native.JoinDot(m.inline, strings.Join(rest, ".")), len(rest) > 0
}

// maxFieldPath bounds the fields a qualifier goes through (self.a.b.c.m).
const maxFieldPath = 3

// fieldPath links x.f.name and self.f.name through the declared types of
// the fields, where the receiver's type (self's impl type, or x's declared
// type) and each field but the last are declared in this file; the last
// field's type is resolved as typed resolves a local's.
func (rf *rustFile) fieldPath(ctx context.Context, ri int, r lang.Ref, q, name string) {
	parts := strings.Split(q, ".")
	if len(parts) > maxFieldPath+1 {
		return
	}
	var t string
	if parts[0] == "self" {
		t = rustReceiver(rf.facts, r.Enclosing)
	} else if id, ok := rf.nameID(parts[0]); ok {
		if lo := rf.locals.Binding(rf.facts, id, r.Scope, r.Pos); lo >= 0 {
			t = rf.facts.Locals[lo].Type
		}
	}
	cur := rustModuleOf(rf.f.Path, rf.facts, r.Enclosing)
	for _, f := range parts[1:] {
		if t == "" || strings.Contains(t, "::") {
			return
		}
		_, d := rf.defAt(ctx, rf.f.Path, native.JoinDot(cur.inline, t)+"."+f, nil)
		if d == nil {
			_, d = rf.defAt(ctx, rf.f.Path, t+"."+f, nil)
		}
		if d == nil || d.Kind != lang.KindField {
			return
		}
		t = d.Type
	}
	if t != "" {
		rf.typed(ctx, ri, cur, t, name)
	}
}

// fileDefs is a file's facts and its definitions by lexical path.
type fileDefs struct {
	facts  *lang.Facts
	byPath map[string][]int32
}

// defAt is the first definition at lexical path p of a file (this one or
// another, whose facts are decoded once per linked file) that accept takes
// (any, when nil), with the file's facts; nil when there is none.
func (rf *rustFile) defAt(ctx context.Context, file, p string, accept func(*lang.Def) bool) (*lang.Facts, *lang.Def) {
	fd, ok := rf.defs[file]
	if !ok {
		fd = &fileDefs{facts: rf.facts}
		if file != rf.f.Path {
			fd.facts = rf.l.r.Facts(ctx, file)
		}
		if fd.facts != nil {
			fd.byPath = make(map[string][]int32, len(fd.facts.Defs))
			for i, d := range fd.facts.Defs {
				fd.byPath[d.Path] = append(fd.byPath[d.Path], int32(i))
			}
		}
		if rf.defs == nil {
			rf.defs = map[string]*fileDefs{}
		}
		rf.defs[file] = fd
	}
	for _, i := range fd.byPath[p] {
		if d := &fd.facts.Defs[i]; accept == nil || accept(d) {
			return fd.facts, d
		}
	}
	return fd.facts, nil
}

// nameID is the index of a name in the file's string table.
func (rf *rustFile) nameID(s string) (uint32, bool) {
	if rf.names == nil {
		rf.names = make(map[string]uint32, len(rf.facts.Names))
		for i, n := range rf.facts.Names {
			rf.names[n] = uint32(i)
		}
	}
	id, ok := rf.names[s]
	return id, ok
}

// filePaths is the symbols of a file by lexical path.
func (rf *rustFile) filePaths(ctx context.Context, file string) *native.FilePaths {
	if file == rf.f.Path {
		return rf.paths
	}
	return rf.l.syms.Of(ctx, file)
}

// pick is the symbol of path p in fp that reference ri names: where a
// field and a method share the path, the method for a call, else the field.
func (rf *rustFile) pick(fp *native.FilePaths, ri int, p string) int64 {
	id := fp.Paths[p]
	if other := fp.Other[p]; other != 0 && native.Called(fp.Kinds[p]) != (rf.facts.Refs[ri].Role == lang.RoleCall) {
		return other
	}
	return id
}

// target links a path in a binding's file: proven in this file, else
// strong; a path the file does not define may be re-exported there.
func (rf *rustFile) target(ctx context.Context, ri int, file, p string) bool {
	var id int64
	if file == rf.f.Path {
		id = rf.pick(rf.paths, ri, p)
	} else {
		id = rf.pick(rf.l.syms.Of(ctx, file), ri, p)
	}
	tier := lang.TierStrong
	if id == 0 {
		file, p = rf.l.rustReexport(ctx, file, p, 0)
		if file == "" {
			return false
		}
		id = rf.l.syms.Of(ctx, file).Paths[p]
	}
	if file == rf.f.Path {
		tier = lang.TierProven
	}
	return rf.linkTo(ri, tier, file, p, id)
}

// linkTo links reference ri to id, path p of file, and records the path
// for the references that read the result of a call (f().m, let x = f()).
func (rf *rustFile) linkTo(ri int, tier lang.Tier, file, p string, id int64) bool {
	if id != 0 {
		rf.linked[ri] = rustPath{file, p}
	}
	return rf.links.Add(ri, tier, id)
}

// member follows a binding and further segments to a path.
func (rf *rustFile) member(ctx context.Context, ri int, b rustBinding, segs []string) bool {
	if !b.ok {
		return false
	}
	if b.item != "" {
		return rf.target(ctx, ri, b.mod.file, native.JoinDot(b.item, strings.Join(segs, ".")))
	}
	m := b.mod
	for len(segs) > 1 {
		c, ok := rf.l.rustChild(ctx, m, segs[0])
		if !ok {
			break
		}
		m, segs = c, segs[1:]
	}
	return rf.target(ctx, ri, m.file, native.JoinDot(m.inline, strings.Join(segs, ".")))
}

// maxReexports bounds how many pub use hops a path is followed through.
const maxReexports = 4

// rustImports resolves the imports of a Rust file (cached per batch).
func (l *batch) rustImports(ctx context.Context, file string, facts *lang.Facts) []rustBinding {
	if b, ok := l.rustBinds[file]; ok {
		return b
	}
	if facts == nil {
		facts = l.r.Facts(ctx, file)
	}
	var binds []rustBinding
	if facts != nil {
		binds = make([]rustBinding, len(facts.Imports))
		l.rustBinds[file] = binds // an import cycle sees unresolved bindings
		for i, im := range facts.Imports {
			binds[i] = l.rustImport(ctx, rustModuleAt(file, facts, im.Pos), im)
		}
		l.rustImps[file] = facts.Imports
	}
	l.rustBinds[file] = binds
	return binds
}

// rustReexport follows a path that a file does not define through the file's
// own imports (pub use a::B; pub use a::*): the file and path that define it,
// or "" when none is found.
func (l *batch) rustReexport(ctx context.Context, file, p string, depth int) (string, string) {
	key := file + "\x00" + p
	if r, ok := l.rustRex[key]; ok {
		return r[0], r[1]
	}
	l.rustRex[key] = [2]string{} // cycles end here
	f, q := l.rustReexportOnce(ctx, file, p, depth)
	l.rustRex[key] = [2]string{f, q}
	return f, q
}

func (l *batch) rustReexportOnce(ctx context.Context, file, p string, depth int) (string, string) {
	if depth >= maxReexports {
		return "", ""
	}
	binds := l.rustImports(ctx, file, nil)
	imports := l.rustImps[file]
	first, rest, _ := strings.Cut(p, ".")
	resolve := func(b rustBinding, p string) (string, string) {
		if l.syms.Of(ctx, b.mod.file).Paths[p] != 0 {
			return b.mod.file, p
		}
		return l.rustReexport(ctx, b.mod.file, p, depth+1)
	}
	for i, im := range imports {
		if im.Kind == lang.ImportAll || im.LocalName() != first {
			continue
		}
		b := binds[i]
		if !b.ok || b.mod.file == file && b.item == p {
			continue
		}
		if b.item != "" {
			return resolve(b, native.JoinDot(b.item, rest))
		}
		return resolve(b, native.JoinDot(b.mod.inline, rest))
	}
	for i, im := range imports {
		if b := binds[i]; im.Kind == lang.ImportAll && b.ok && b.mod.file != file {
			if file, p := resolve(b, native.JoinDot(b.mod.inline, p)); file != "" {
				return file, p
			}
		}
	}
	return "", ""
}

// rustReceiver is the receiver type of the impl member around definition d,
// or the trait around it: in a trait's default method, self and Self are
// what implements the trait, whose members are the trait's.
func rustReceiver(facts *lang.Facts, d int32) string {
	for ; d >= 0; d = facts.Defs[d].Parent {
		if r := facts.Defs[d].Receiver; r != "" {
			return r
		}
		if facts.Defs[d].Kind == lang.KindInterface {
			return facts.Defs[d].Path
		}
	}
	return ""
}

// stdlib reports whether a use path starts in a crate of Rust's standard
// distribution.
func stdlib(im lang.Import) bool {
	first := strings.SplitN(strings.TrimPrefix(im.Source, "::"), "::", 2)[0]
	return first == "std" || first == "core" || first == "alloc" || first == "proc_macro" || first == "test"
}
