package index

import (
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// Linking of Rust, C and C++ (DESIGN §5 tiers): a reference bound in its own
// file is proven; one reached through an explicit import chain is strong.
//
// Rust: files form a module tree. The crate root is lib.rs or main.rs (the
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
//
// C and C++: #include "x.h" resolves relative to the including file's
// directory, then the repository root, then to the only file whose path ends
// in /x.h; #include <x.h> from the repository root or that unique suffix.
// Includes are followed transitively (a bounded breadth-first walk). A name
// used in a file links to the definition of that path in the file itself
// (proven) or in the included files (strong), tried in each enclosing scope:
// the class of a method, its namespaces, the namespaces of using directives,
// then the global scope. An enumerator also answers to its enum's scope
// (C's enumerators are global names).

// maxIncludes bounds the transitive include walk of one file.
const maxIncludes = 256

// nativeFile is what linking needs of another file: its symbols by lexical path.
type nativeFile struct {
	paths map[string]int64
	kinds map[string]lang.DefKind
	names map[string]bool // the last segments of the paths
}

func (l *linker) nativeFile(p string) *nativeFile {
	if nf, ok := l.native[p]; ok {
		return nf
	}
	nf := &nativeFile{paths: map[string]int64{}, kinds: map[string]lang.DefKind{}, names: map[string]bool{}}
	l.native[p] = nf
	f := l.w.files[p]
	if f == nil {
		return nf
	}
	rows, err := l.symbolsOf([]int64{f.id})
	if err != nil {
		return nf
	}
	aliases := map[string]int64{}
	for _, r := range rows {
		lp := strings.TrimPrefix(r.QName, p+"#")
		if _, ok := nf.paths[lp]; ok {
			continue
		}
		nf.paths[lp] = r.ID
		nf.kinds[lp] = lang.DefKind(r.Kind)
		if lang.DefKind(r.Kind) == lang.KindEnumMember {
			if a := enumAlias(lp); a != "" {
				aliases[a] = r.ID
			}
		}
	}
	for a, id := range aliases {
		if _, ok := nf.paths[a]; !ok {
			nf.paths[a] = id
		}
	}
	for p := range nf.paths {
		nf.names[lastSegment(p)] = true
	}
	return nf
}

// enumAlias is the path an enumerator also answers to: e.RED is RED, ns.e.RED is ns.RED.
func enumAlias(p string) string {
	segs := strings.Split(p, ".")
	if len(segs) < 2 {
		return ""
	}
	return strings.Join(append(segs[:len(segs)-2:len(segs)-2], segs[len(segs)-1]), ".")
}

// ownIndex maps the lexical paths of a file's definitions to their ids, with
// enumerator aliases.
func ownIndex(facts *lang.Facts, own []store.SymbolRow) map[string]int64 {
	out := make(map[string]int64, len(facts.Defs))
	id := func(i int) int64 {
		if i < len(own) {
			return own[i].ID
		}
		return 0
	}
	for i, d := range facts.Defs {
		if _, ok := out[d.Path]; !ok {
			out[d.Path] = id(i)
		}
	}
	for i, d := range facts.Defs {
		if d.Kind == lang.KindEnumMember {
			if a := enumAlias(d.Path); a != "" {
				if _, ok := out[a]; !ok {
					out[a] = id(i)
				}
			}
		}
	}
	return out
}

// ---- C and C++

// resolveInclude finds the file an #include names.
func (l *linker) resolveInclude(from, src string) (string, bool) {
	angled := strings.HasPrefix(src, "<")
	src = strings.TrimSuffix(strings.TrimPrefix(src, "<"), ">")
	if src == "" {
		return "", false
	}
	if !angled {
		if p := path.Join(dirOf(from), src); l.w.files[p] != nil {
			return p, true
		}
	}
	if p := path.Clean(src); l.w.files[p] != nil && !strings.HasPrefix(p, "../") {
		return p, true
	}
	if l.suffixes == nil {
		l.suffixes = map[string][]string{}
		for p, f := range l.w.files {
			if f.lang == "c" || f.lang == "cpp" {
				b := path.Base(p)
				l.suffixes[b] = append(l.suffixes[b], p)
			}
		}
	}
	var hit string
	for _, p := range l.suffixes[path.Base(src)] {
		if strings.HasSuffix(p, "/"+src) {
			if hit != "" {
				return "", false // ambiguous
			}
			hit = p
		}
	}
	return hit, hit != ""
}

// directIncludes lists the files that a file's own #includes resolve to
// (cached: facts are decoded once per file and batch).
func (l *linker) directIncludes(p string, facts *lang.Facts) []string {
	if d, ok := l.incDirect[p]; ok {
		return d
	}
	if facts == nil {
		_, facts = l.factsAt(p)
	}
	var out []string
	if facts != nil {
		for _, im := range facts.Imports {
			if im.Kind != lang.ImportModule {
				continue
			}
			if q, ok := l.resolveInclude(p, im.Source); ok && q != p {
				out = append(out, q)
			}
		}
	}
	l.incDirect[p] = out
	return out
}

// includeClosure lists the files a file includes, directly or not, nearest first.
func (l *linker) includeClosure(f *fileInfo, facts *lang.Facts) []string {
	if c, ok := l.includes[f.path]; ok {
		return c
	}
	seen := map[string]bool{f.path: true}
	var out []string
	queue := []string{f.path}
	for len(queue) > 0 && len(out) < maxIncludes {
		p := queue[0]
		queue = queue[1:]
		var fx *lang.Facts
		if p == f.path {
			fx = facts
		}
		for _, q := range l.directIncludes(p, fx) {
			if !seen[q] && len(out) < maxIncludes {
				seen[q] = true
				out = append(out, q)
				queue = append(queue, q)
			}
		}
	}
	l.includes[f.path] = out
	return out
}

// cContexts lists the scopes a reference inside definition d looks names up
// in, innermost first, ending with the global scope "".
func cContexts(facts *lang.Facts, d int32) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for ; d >= 0; d = facts.Defs[d].Parent {
		def := facts.Defs[d]
		switch {
		case def.Receiver != "":
			for p := def.Receiver; p != ""; p = parentPath(p) {
				add(p)
			}
		case def.Kind == lang.KindClass || def.Kind == lang.KindStruct || def.Kind == lang.KindNamespace:
			add(def.Path)
		}
	}
	add("")
	for _, im := range facts.Imports {
		if im.Kind == lang.ImportAll && !strings.HasPrefix(im.Source, "<") {
			add(strings.ReplaceAll(im.Source, "::", "."))
		}
	}
	return out
}

func parentPath(p string) string {
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[:i]
	}
	return ""
}

func joinDot(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "." + b
}

// linkCFamily resolves the references of a C or C++ file.
func (l *linker) linkCFamily(f *fileInfo, facts *lang.Facts, own []store.SymbolRow) []Link {
	self := ownIndex(facts, own)
	var closure []string
	closureDone := false
	var links []Link
	lookup := func(ri int, keys []string) {
		for _, k := range keys {
			if id := self[k]; id != 0 {
				links = append(links, Link{Ref: ri, Tier: TierProven, Target: id})
				return
			}
		}
		if !closureDone {
			closure, closureDone = l.includeClosure(f, facts), true
		}
		name := lastSegment(keys[0])
		for _, k := range keys {
			for _, p := range closure {
				nf := l.nativeFile(p)
				if !nf.names[name] {
					continue
				}
				if id := nf.paths[k]; id != 0 {
					links = append(links, Link{Ref: ri, Tier: TierStrong, Target: id})
					return
				}
			}
		}
	}
	ctxCache := map[int32][]string{}
	contexts := func(d int32) []string {
		c, ok := ctxCache[d]
		if !ok {
			c = cContexts(facts, d)
			ctxCache[d] = c
		}
		return c
	}
	for ri, r := range facts.Refs {
		if r.BindLocal >= 0 {
			continue
		}
		name := facts.Names[r.Name]
		switch r.Shape {
		case lang.QualNone:
			if r.BindDef >= 0 && int(r.BindDef) < len(own) {
				links = append(links, Link{Ref: ri, Tier: TierProven, Target: own[r.BindDef].ID})
				continue
			}
			var keys []string
			for _, c := range contexts(r.Enclosing) {
				keys = append(keys, joinDot(c, name))
			}
			lookup(ri, keys)
		case lang.QualSelf:
			if c := contexts(r.Enclosing); len(c) > 1 {
				lookup(ri, []string{joinDot(c[0], name)})
			}
		case lang.QualIdent, lang.QualPath:
			q := facts.Names[r.Qualifier]
			if !strings.Contains(q, "::") && (r.Shape != lang.QualIdent || !isScopeQualifier(facts, q)) {
				continue // a member access x.y, p->y
			}
			q = strings.ReplaceAll(q, "::", ".")
			if strings.HasPrefix(q, "std.") || q == "std" {
				continue
			}
			var keys []string
			for _, c := range contexts(r.Enclosing) {
				keys = append(keys, joinDot(joinDot(c, q), name))
			}
			lookup(ri, keys)
		}
	}
	return links
}

// isScopeQualifier reports whether a one-segment qualifier is a scope (C++
// A::name) rather than a variable (x.name, p->name): both read "A" in the
// facts, so a name that no local of the file has is taken for a scope.
func isScopeQualifier(facts *lang.Facts, q string) bool {
	if facts.Lang != "cpp" {
		return false
	}
	for i := range facts.Locals {
		if facts.Names[facts.Locals[i].Name] == q {
			return false
		}
	}
	return true
}

// ---- Rust

// rustMod is a Rust module: a file and, for inline modules, the lexical path
// of the mod block in it.
type rustMod struct {
	file, inline string
}

// fileExists reports whether the worktree has the path (any file, code or not).
func (l *linker) fileExists(p string) bool { return l.w.files[p] != nil }

// rustCrateRoot finds the crate root of a file.
func (l *linker) rustCrateRoot(file string) string {
	if r, ok := l.crateRoots[file]; ok {
		return r
	}
	root := file
	for d := dirOf(file); ; d = dirOf(d) {
		found := false
		for _, n := range []string{"lib.rs", "main.rs"} {
			if p := path.Join(d, n); l.fileExists(p) {
				root, found = p, true
				break
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

// rustPackageLib is the library crate root of the Cargo package holding file
// when crate is that package's name (dashes read as underscores), else "".
func (l *linker) rustPackageLib(file, crate string) string {
	m := moduleOf(l.w.mods, file, "rust")
	if m == nil || m.Kind != "rust" || strings.ReplaceAll(m.Name, "-", "_") != crate {
		return ""
	}
	if lib := path.Join(m.Root, "src/lib.rs"); l.fileExists(lib) {
		return lib
	}
	return ""
}

// rustModDir is the directory of a module file's child module files.
func (l *linker) rustModDir(file string) string {
	switch path.Base(file) {
	case "mod.rs", "lib.rs", "main.rs":
		return dirOf(file)
	}
	if l.rustCrateRoot(file) == file {
		return dirOf(file)
	}
	return path.Join(dirOf(file), strings.TrimSuffix(path.Base(file), ".rs"))
}

func (l *linker) rustChild(m rustMod, name string) (rustMod, bool) {
	inner := joinDot(m.inline, name)
	if l.nativeFile(m.file).kinds[inner] == lang.KindModule {
		return rustMod{m.file, inner}, true
	}
	dir := path.Join(l.rustModDir(m.file), strings.ReplaceAll(m.inline, ".", "/"))
	for _, c := range []string{path.Join(dir, name+".rs"), path.Join(dir, name, "mod.rs")} {
		if l.fileExists(c) {
			return rustMod{file: c}, true
		}
	}
	return rustMod{}, false
}

func (l *linker) rustParent(m rustMod) (rustMod, bool) {
	if m.inline != "" {
		return rustMod{m.file, parentPath(m.inline)}, true
	}
	if l.rustCrateRoot(m.file) == m.file {
		return rustMod{}, false
	}
	d := dirOf(m.file)
	if path.Base(m.file) == "mod.rs" {
		d = dirOf(d)
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
func (l *linker) rustResolve(cur rustMod, p string) (rustMod, []string, bool) {
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
		if c, ok := l.rustChild(cur, segs[0]); ok {
			m, segs = c, segs[1:]
		} else if c, ok := l.rustChild(rustMod{file: l.rustCrateRoot(cur.file)}, segs[0]); ok {
			m, segs = c, segs[1:]
		} else if lib := l.rustPackageLib(cur.file, segs[0]); lib != "" {
			m, segs = rustMod{file: lib}, segs[1:] // tests, examples and binaries use their package's library by name
		} else {
			return rustMod{}, nil, false
		}
	}
	for len(segs) > 0 {
		c, ok := l.rustChild(m, segs[0])
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

func (l *linker) rustItemIn(m rustMod, rest []string) rustBinding {
	return rustBinding{mod: m, item: joinDot(m.inline, strings.Join(rest, ".")), ok: true}
}

// rustImport resolves one import of a file from the module that holds it.
func (l *linker) rustImport(cur rustMod, im lang.Import) rustBinding {
	switch im.Kind {
	case lang.ImportNamed:
		m, rest, ok := l.rustResolve(cur, im.Source)
		if !ok {
			return rustBinding{}
		}
		rest = append(rest, im.Name)
		if len(rest) == 1 {
			if c, ok := l.rustChild(m, im.Name); ok {
				return rustBinding{mod: c, ok: true}
			}
		}
		return l.rustItemIn(m, rest)
	case lang.ImportModule, lang.ImportAll:
		m, rest, ok := l.rustResolve(cur, im.Source)
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

// linkRust resolves the references of a Rust file.
func (l *linker) linkRust(f *fileInfo, facts *lang.Facts, own []store.SymbolRow) []Link {
	self := ownIndex(facts, own)
	binds := l.rustImports(f.path, facts)
	var globs []rustBinding
	for i, im := range facts.Imports {
		if im.Kind == lang.ImportAll && binds[i].ok {
			globs = append(globs, binds[i])
		}
	}
	locals := newLocalIndex(facts)
	byName := map[string]int{}
	for i, im := range facts.Imports {
		if n := im.LocalName(); n != "" {
			if _, ok := byName[n]; !ok {
				byName[n] = i
			}
		}
	}
	var links []Link
	// target links a path in a binding's file: proven in this file, else
	// strong; a path the file does not define may be re-exported there.
	target := func(ri int, file, p string) bool {
		var id int64
		if file == f.path {
			id = self[p]
		} else {
			id = l.nativeFile(file).paths[p]
		}
		tier := TierStrong
		if id == 0 {
			file, p = l.rustReexport(file, p, 0)
			if file == "" {
				return false
			}
			id = l.nativeFile(file).paths[p]
		}
		if id == 0 {
			return false
		}
		if file == f.path {
			tier = TierProven
		}
		links = append(links, Link{Ref: ri, Tier: tier, Target: id})
		return true
	}
	// member follows a binding and further segments to a path.
	member := func(ri int, b rustBinding, segs []string) bool {
		if !b.ok {
			return false
		}
		if b.item != "" {
			return target(ri, b.mod.file, joinDot(b.item, strings.Join(segs, ".")))
		}
		m := b.mod
		for len(segs) > 1 {
			c, ok := l.rustChild(m, segs[0])
			if !ok {
				break
			}
			m, segs = c, segs[1:]
		}
		return target(ri, m.file, joinDot(m.inline, strings.Join(segs, ".")))
	}
	for ri, r := range facts.Refs {
		if r.BindLocal >= 0 {
			continue
		}
		name := facts.Names[r.Name]
		switch r.Shape {
		case lang.QualNone:
			switch {
			case r.BindDef >= 0:
				if int(r.BindDef) < len(own) {
					links = append(links, Link{Ref: ri, Tier: TierProven, Target: own[r.BindDef].ID})
				}
			case r.BindImp >= 0:
				im := facts.Imports[r.BindImp]
				if b := binds[r.BindImp]; b.ok && b.item != "" && name == im.LocalName() {
					target(ri, b.mod.file, b.item)
				}
			default:
				for _, g := range globs {
					if member(ri, g, []string{name}) {
						break
					}
				}
			}
		case lang.QualSelf:
			recv := rustReceiver(facts, r.Enclosing)
			if recv == "" {
				continue
			}
			if target(ri, f.path, recv+"."+name) {
				continue
			}
			if i, ok := byName[lastSegment(recv)]; ok {
				member(ri, binds[i], []string{name})
			}
		case lang.QualIdent, lang.QualPath:
			q := facts.Names[r.Qualifier]
			if strings.ContainsAny(q, ".()&*[] ") || q == "?" {
				continue // a field access, or not a path
			}
			segs := strings.Split(q, "::")
			cur := rustModuleOf(f.path, facts, r.Enclosing)
			switch {
			case r.QualBound && !strings.Contains(q, "::") && locals.binding(facts, r.Qualifier, r.Scope) >= 0:
				// x.name on a local x: a field or method, not a path
			case r.QualBound:
				// an item of this file: a type (T::f, E::Variant) or an inline module
				p := joinDot(cur.inline, strings.Join(segs, ".")) + "." + name
				if !target(ri, f.path, p) {
					target(ri, f.path, strings.Join(segs, ".")+"."+name)
				}
			case r.BindImp >= 0:
				member(ri, binds[r.BindImp], append(segs[1:len(segs):len(segs)], name))
			default:
				m, rest, ok := l.rustResolve(cur, q)
				if ok {
					member(ri, rustBinding{mod: m, ok: true}, append(rest, name))
				}
			}
		}
	}
	return links
}

// maxReexports bounds how many pub use hops a path is followed through.
const maxReexports = 4

// rustImports resolves the imports of a Rust file (cached per batch).
func (l *linker) rustImports(file string, facts *lang.Facts) []rustBinding {
	if b, ok := l.rustBinds[file]; ok {
		return b
	}
	if facts == nil {
		_, facts = l.factsAt(file)
	}
	var binds []rustBinding
	if facts != nil {
		binds = make([]rustBinding, len(facts.Imports))
		l.rustBinds[file] = binds // an import cycle sees unresolved bindings
		for i, im := range facts.Imports {
			binds[i] = l.rustImport(rustModuleAt(file, facts, im.Pos), im)
		}
		l.rustImps[file] = facts.Imports
	}
	l.rustBinds[file] = binds
	return binds
}

// rustReexport follows a path that a file does not define through the file's
// own imports (pub use a::B; pub use a::*): the file and path that define it,
// or "" when none is found.
func (l *linker) rustReexport(file, p string, depth int) (string, string) {
	key := file + "\x00" + p
	if r, ok := l.rustRex[key]; ok {
		return r[0], r[1]
	}
	l.rustRex[key] = [2]string{} // cycles end here
	f, q := l.rustReexportOnce(file, p, depth)
	l.rustRex[key] = [2]string{f, q}
	return f, q
}

func (l *linker) rustReexportOnce(file, p string, depth int) (string, string) {
	if depth >= maxReexports {
		return "", ""
	}
	binds := l.rustImports(file, nil)
	imports := l.rustImps[file]
	first, rest, _ := strings.Cut(p, ".")
	resolve := func(b rustBinding, p string) (string, string) {
		if l.nativeFile(b.mod.file).paths[p] != 0 {
			return b.mod.file, p
		}
		return l.rustReexport(b.mod.file, p, depth+1)
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
			return resolve(b, joinDot(b.item, rest))
		}
		return resolve(b, joinDot(b.mod.inline, rest))
	}
	for i, im := range imports {
		if b := binds[i]; im.Kind == lang.ImportAll && b.ok && b.mod.file != file {
			if file, p := resolve(b, joinDot(b.mod.inline, p)); file != "" {
				return file, p
			}
		}
	}
	return "", ""
}

// rustReceiver is the receiver type of the impl member around definition d.
func rustReceiver(facts *lang.Facts, d int32) string {
	for ; d >= 0; d = facts.Defs[d].Parent {
		if r := facts.Defs[d].Receiver; r != "" {
			return r
		}
	}
	return ""
}

func lastSegment(p string) string {
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[i+1:]
	}
	return p
}
