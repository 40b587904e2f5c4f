package cfamily

import (
	"context"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/classlang"
	"github.com/cairnhq/cairn/internal/lang/link"
	"github.com/cairnhq/cairn/internal/lang/native"
)

// Linking of C and C++ (DESIGN §5 tiers): a reference bound in its own file
// is proven; one reached through an explicit include chain is strong.
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

// Linker links C and C++ files: they include each other's headers, and
// share one batch.
var Linker = &lang.Linker{NewBatch: newBatch}

// batch links the C and C++ files of one batch.
type batch struct {
	r         lang.Resolver
	syms      *native.Symbols
	includes  map[string][]string // repo path -> transitive includes
	incDirect map[string][]string // repo path -> files its own #includes name
	suffixes  map[string][]string // base name -> C/C++ files
}

func newBatch(r lang.Resolver) lang.BatchLinker {
	return &batch{r: r, syms: native.NewSymbols(r), includes: map[string][]string{}, incDirect: map[string][]string{}}
}

// Import resolves nothing for import edges: Link follows #includes itself.
func (l *batch) Import(context.Context, lang.File, lang.Import) (lang.Target, bool) {
	return lang.Target{}, false
}

// exists reports whether the worktree has the path (any file).
func (l *batch) exists(p string) bool {
	_, ok := l.r.File(p)
	return ok
}

// maxIncludes bounds the transitive include walk of one file.
const maxIncludes = 256

// resolveInclude finds the file an #include names.
func (l *batch) resolveInclude(from, src string) (string, bool) {
	angled := strings.HasPrefix(src, "<")
	src = strings.TrimSuffix(strings.TrimPrefix(src, "<"), ">")
	if src == "" {
		return "", false
	}
	if !angled {
		if p := path.Join(lang.DirOf(from), src); l.exists(p) {
			return p, true
		}
	}
	if p := path.Clean(src); l.exists(p) && !strings.HasPrefix(p, "../") {
		return p, true
	}
	if l.suffixes == nil {
		l.suffixes = map[string][]string{}
		for f := range l.r.Files() {
			if f.Lang == "c" || f.Lang == "cpp" {
				b := path.Base(f.Path)
				l.suffixes[b] = append(l.suffixes[b], f.Path)
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
func (l *batch) directIncludes(ctx context.Context, p string, facts *lang.Facts) []string {
	if d, ok := l.incDirect[p]; ok {
		return d
	}
	if facts == nil {
		facts = l.r.Facts(ctx, p)
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
func (l *batch) includeClosure(ctx context.Context, f lang.File, facts *lang.Facts) []string {
	if c, ok := l.includes[f.Path]; ok {
		return c
	}
	seen := map[string]bool{f.Path: true}
	var out []string
	queue := []string{f.Path}
	for len(queue) > 0 && len(out) < maxIncludes {
		p := queue[0]
		queue = queue[1:]
		var fx *lang.Facts
		if p == f.Path {
			fx = facts
		}
		for _, q := range l.directIncludes(ctx, p, fx) {
			if !seen[q] && len(out) < maxIncludes {
				seen[q] = true
				out = append(out, q)
				queue = append(queue, q)
			}
		}
	}
	l.includes[f.Path] = out
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
			for p := def.Receiver; p != ""; p = native.ParentPath(p) {
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

// Link resolves the references of a C or C++ file.
func (l *batch) Link(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) []lang.Link {
	cf := &cFile{l: l, f: f, facts: facts, own: own, self: native.OwnPaths(facts, own),
		linkedTo: map[int][2]string{}, ctxs: map[int32][]string{}}
	cf.h = &hierarchy{l: l, f: f, facts: facts, self: cf.self, includes: func() []string { return cf.includes(ctx) },
		bases: map[string][]string{}, found: map[string]string{}}
	for ri, r := range facts.Unbound() {
		name := facts.Names[r.Name]
		switch r.Shape {
		case lang.QualNone:
			cf.bare(ctx, ri, r, name)
		case lang.QualSelf:
			if c := cf.contexts(r.Enclosing); len(c) > 1 {
				keys := []string{native.JoinDot(c[0], name)}
				if cls := classOf(facts, r.Enclosing); cls == c[0] {
					keys = append(keys, inheritedKeys(ctx, cf.h, cls, name)...)
				}
				cf.lookup(ctx, ri, keys)
			}
		case lang.QualCall:
			// f().m, a->f()->m: m of the class f declares it returns
			if to, ok := cf.linkedTo[int(r.Via)-1]; ok && r.Via > 0 {
				cf.member(ctx, ri, cf.h.returnClass(ctx, to[0], to[1]), name)
			}
		case lang.QualExpr:
			// o->in.v, self->lexer.pos: v of the class the last field of
			// the chain declares
			cf.member(ctx, ri, cf.h.chainClass(ctx, cf.declTypes(), r, cf.contexts(r.Enclosing)), name)
		case lang.QualIdent, lang.QualPath:
			cf.qualified(ctx, ri, r, name)
		}
	}
	return cf.links
}

// cFile links the references of one C or C++ file.
type cFile struct {
	l     *batch
	f     lang.File
	facts *lang.Facts
	own   []int64
	self  map[string]int64 // the file's own symbols by lexical path
	h     *hierarchy
	links link.Links
	// linkedTo holds, per linked reference, the file and lexical path of
	// its target (a call's, for a member of its result).
	linkedTo map[int][2]string
	closure  []string // the files it includes, transitively; read on first use
	included bool
	decl     *link.DeclTypes // built on first use
	ctxs     map[int32][]string
}

// includes is the transitive include closure of the file.
func (cf *cFile) includes(ctx context.Context) []string {
	if !cf.included {
		cf.closure, cf.included = cf.l.includeClosure(ctx, cf.f, cf.facts), true
	}
	return cf.closure
}

// contexts are the scopes a name is looked up in from definition d.
func (cf *cFile) contexts(d int32) []string {
	c, ok := cf.ctxs[d]
	if !ok {
		c = cContexts(cf.facts, d)
		cf.ctxs[d] = c
	}
	return c
}

func (cf *cFile) declTypes() *link.DeclTypes {
	if cf.decl == nil {
		cf.decl = link.NewDeclTypes(cf.f.Path, cf.facts, true, true)
	}
	return cf.decl
}

// lookup links reference ri to the first of keys (lexical paths) that the
// file defines (proven), else that an included file does (strong).
func (cf *cFile) lookup(ctx context.Context, ri int, keys []string) {
	for _, k := range keys {
		if cf.links.Add(ri, lang.TierProven, cf.self[k]) {
			cf.linkedTo[ri] = [2]string{cf.f.Path, k}
			return
		}
	}
	name := native.LastSegment(keys[0])
	for _, k := range keys {
		for _, p := range cf.includes(ctx) {
			nf := cf.l.syms.Of(ctx, p)
			if !nf.Names[name] {
				continue
			}
			if cf.links.Add(ri, lang.TierStrong, nf.Paths[k]) {
				cf.linkedTo[ri] = [2]string{p, k}
				return
			}
		}
	}
}

// member links reference ri to member name of class cls or of a class it
// inherits from; nothing when cls is "".
func (cf *cFile) member(ctx context.Context, ri int, cls, name string) {
	if cls != "" {
		cf.lookup(ctx, ri, append([]string{native.JoinDot(cls, name)}, inheritedKeys(ctx, cf.h, cls, name)...))
	}
}

// bare links a name without qualifier: bound in the file, else looked up
// in the class scope, the classes it inherits from, then the enclosing
// namespaces.
func (cf *cFile) bare(ctx context.Context, ri int, r lang.Ref, name string) {
	if r.BindDef >= 0 && int(r.BindDef) < len(cf.own) {
		cf.links = append(cf.links, lang.Link{Ref: ri, Tier: lang.TierProven, Target: cf.own[r.BindDef]})
		return
	}
	var keys []string
	cls := classOf(cf.facts, r.Enclosing)
	for _, c := range cf.contexts(r.Enclosing) {
		keys = append(keys, native.JoinDot(c, name))
		if c == cls && cls != "" {
			keys = append(keys, inheritedKeys(ctx, cf.h, cls, name)...)
		}
	}
	cf.lookup(ctx, ri, keys)
}

// qualified links q::name (a scope) and x.name, p->name, a.b.name (a
// member of the class x, a field of the method's class, or the last field
// of a chain declares).
func (cf *cFile) qualified(ctx context.Context, ri int, r lang.Ref, name string) {
	facts := cf.facts
	q := facts.Names[r.Qualifier]
	field := "" // field_.m() in a method: the class field_ declares
	if r.Shape == lang.QualIdent && !r.QualBound && !strings.Contains(q, "::") {
		field = cf.h.fieldClass(ctx, classOf(facts, r.Enclosing), q)
	}
	if !strings.Contains(q, "::") && (r.Shape != lang.QualIdent || field != "" || !isScopeQualifier(facts, q)) {
		cls := field
		if typ := cf.declTypes().Of(r); typ != "" {
			cls = cf.h.classPath(ctx, typ, cf.contexts(r.Enclosing))
		} else if r.Shape == lang.QualPath { // a.b.name
			cls = cf.h.chainClass(ctx, cf.declTypes(), r, cf.contexts(r.Enclosing))
		}
		cf.member(ctx, ri, cls, name)
		return
	}
	q = strings.ReplaceAll(q, "::", ".")
	if strings.HasPrefix(q, "std.") || q == "std" {
		return
	}
	var keys []string
	for _, c := range cf.contexts(r.Enclosing) {
		keys = append(keys, native.JoinDot(native.JoinDot(c, q), name))
	}
	cf.lookup(ctx, ri, keys)
}

// classOf is the lexical path of the class a definition is in (a method
// defined in its class, or out of line as Class::m), "" outside classes.
func classOf(facts *lang.Facts, d int32) string {
	for ; d >= 0; d = facts.Defs[d].Parent {
		def := facts.Defs[d]
		switch {
		case def.Receiver != "":
			return def.Receiver
		case def.Kind == lang.KindClass || def.Kind == lang.KindStruct:
			return def.Path
		}
	}
	return ""
}

// maxBases bounds the depth of the base classes a member is looked up in.
const maxBases = 8

// hierarchy finds the base classes of the classes one file's methods
// belong to.
type hierarchy struct {
	l        *batch
	f        lang.File
	facts    *lang.Facts
	self     map[string]int64
	includes func() []string
	bases    map[string][]string // class path -> its base classes' paths, nearest first
	// found remembers the classes the file's references ask for again and
	// again: by type and scopes (classPath), field (fieldClass) and
	// function (returnClass).
	found map[string]string
}

// inheritedKeys are the paths a name takes in the base classes of class
// cls, nearest first (C++ looks a name up in the class, then its bases,
// before the enclosing namespaces).
func inheritedKeys(ctx context.Context, h *hierarchy, cls, name string) []string {
	var keys []string
	for _, b := range h.ancestors(ctx, cls) {
		keys = append(keys, native.JoinDot(b, name))
	}
	return keys
}

// ancestors are the lexical paths of the base classes of class cls and of
// theirs, breadth first, each once.
func (h *hierarchy) ancestors(ctx context.Context, cls string) []string {
	if a, ok := h.bases[cls]; ok {
		return a
	}
	h.bases[cls] = nil // a cycle ends here
	var out []string
	seen := map[string]bool{cls: true}
	level := []string{cls}
	for depth := 0; depth < maxBases && len(level) > 0; depth++ {
		var next []string
		for _, c := range level {
			for _, b := range h.direct(ctx, c) {
				if !seen[b] {
					seen[b] = true
					out = append(out, b)
					next = append(next, b)
				}
			}
		}
		level = next
	}
	h.bases[cls] = out
	return out
}

// direct are the paths of the classes class cls names as its bases, each
// looked up from the scope of the class's definition (this file's or an
// included file's).
func (h *hierarchy) direct(ctx context.Context, cls string) []string {
	facts, defines := h.definition(ctx, cls)
	if facts == nil {
		return nil
	}
	d := int32(-1)
	for i, def := range facts.Defs {
		if def.Path == cls && (def.Kind == lang.KindClass || def.Kind == lang.KindStruct) {
			d = int32(i)
			break
		}
	}
	if d < 0 {
		return nil
	}
	var out []string
	for _, rel := range facts.TypeRels {
		if rel.Def != d || rel.Kind != lang.RelExtends {
			continue
		}
		base := strings.TrimPrefix(strings.ReplaceAll(classlang.StripTypeArgs(rel.Target), "::", "."), ".")
		for _, c := range cContexts(facts, facts.Defs[d].Parent) {
			if p := native.JoinDot(c, base); h.exists(ctx, p, defines) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// remember is what find returns for key k, found once per file.
func (h *hierarchy) remember(k string, find func() string) string {
	if c, ok := h.found[k]; ok {
		return c
	}
	c := find()
	h.found[k] = c
	return c
}

// classPath is the lexical path of the class or struct a type name as
// written (Base, ns::Base, ::Base) names, looked up from the scopes of the
// reference (ctxs, innermost first); "" when none is defined in this file or
// an included one.
func (h *hierarchy) classPath(ctx context.Context, typ string, ctxs []string) string {
	return h.remember("t\x00"+typ+"\x00"+strings.Join(ctxs, "\x01"), func() string { return h.findClassPath(ctx, typ, ctxs) })
}

func (h *hierarchy) findClassPath(ctx context.Context, typ string, ctxs []string) string {
	if typ == "" {
		return ""
	}
	name := strings.ReplaceAll(typ, "::", ".")
	if strings.HasPrefix(name, ".") {
		ctxs, name = []string{""}, name[1:]
	}
	for _, c := range ctxs {
		if p := native.JoinDot(c, name); h.exists(ctx, p, h.f.Path) {
			return p
		}
	}
	return ""
}

// maxChain bounds the fields of a member chain that are followed.
const maxChain = 8

// chainClass is the class or struct the last field of a qualifier that is
// a chain of member accesses declares (o->in of o->in.v: the class of field
// in of o's class); "" when a link of it has none, or it is no such chain
// (a call, an index, a cast). ctxs are the scopes of the reference.
func (h *hierarchy) chainClass(ctx context.Context, decl *link.DeclTypes, r lang.Ref, ctxs []string) string {
	segs := memberChain(h.facts.Names[r.Qualifier])
	if len(segs) < 2 || len(segs) > maxChain {
		return ""
	}
	cls := ""
	if id, ok := decl.Names[segs[0]]; ok {
		if ls, found := decl.Local(id, r.Scope, r.Pos); found {
			cls = h.classPath(ctx, h.facts.Locals[ls[0]].Type, ctxs)
		}
	}
	if cls == "" {
		if own := classOf(h.facts, r.Enclosing); segs[0] == "this" {
			cls = own
		} else {
			cls = h.fieldClass(ctx, own, segs[0])
		}
	}
	for _, seg := range segs[1:] {
		if cls == "" {
			return ""
		}
		cls = h.fieldClass(ctx, cls, seg)
	}
	return cls
}

// memberChain splits a qualifier a->b.c into its names; nil when it is not
// names joined by -> and . alone.
func memberChain(q string) []string {
	segs := strings.FieldsFunc(strings.ReplaceAll(q, "->", "."), func(r rune) bool { return r == '.' })
	if strings.Count(strings.ReplaceAll(q, "->", "."), ".") != len(segs)-1 {
		return nil
	}
	for _, s := range segs {
		if !lang.IsIdentifier(s) {
			return nil
		}
	}
	return segs
}

// fieldClass is the class or struct that field name of class cls, or of
// a class it inherits from, declares, looked up from the scope of the
// class that declares the field (wherever it is defined); "" for none.
func (h *hierarchy) fieldClass(ctx context.Context, cls, name string) string {
	return h.remember("f\x00"+cls+"\x00"+name, func() string { return h.findFieldClass(ctx, cls, name) })
}

func (h *hierarchy) findFieldClass(ctx context.Context, cls, name string) string {
	if cls == "" {
		return ""
	}
	for _, c := range append([]string{cls}, h.ancestors(ctx, cls)...) {
		facts, _ := h.definition(ctx, c)
		if facts == nil {
			continue
		}
		for i, d := range facts.Defs {
			if d.Kind == lang.KindField && d.Path == c+"."+name {
				return h.classPath(ctx, d.Type, cContexts(facts, int32(i)))
			}
		}
	}
	return ""
}

// returnClass is the class or struct that the function or method of
// lexical path p in file declares it returns, looked up from its scope.
func (h *hierarchy) returnClass(ctx context.Context, file, p string) string {
	return h.remember("r\x00"+file+"\x00"+p, func() string { return h.findReturnClass(ctx, file, p) })
}

func (h *hierarchy) findReturnClass(ctx context.Context, file, p string) string {
	facts := h.facts
	if file != h.f.Path {
		if facts = h.l.r.Facts(ctx, file); facts == nil {
			return ""
		}
	}
	for i, d := range facts.Defs {
		if d.Path == p && d.Type != "" && (d.Kind == lang.KindFunction || d.Kind == lang.KindMethod) {
			return h.classPath(ctx, d.Type, cContexts(facts, int32(i)))
		}
	}
	return ""
}

// definition is the facts of the file that defines class path cls: this
// file, else the first included file that does (with its path).
func (h *hierarchy) definition(ctx context.Context, cls string) (*lang.Facts, string) {
	if h.self[cls] != 0 {
		return h.facts, h.f.Path
	}
	for _, p := range h.includes() {
		if h.l.syms.Of(ctx, p).Paths[cls] != 0 {
			return h.l.r.Facts(ctx, p), p
		}
	}
	return nil, ""
}

// exists reports whether a class path is defined in this file, in the file
// that names it as a base, or in an included file.
func (h *hierarchy) exists(ctx context.Context, p, from string) bool {
	if h.self[p] != 0 || from != h.f.Path && h.l.syms.Of(ctx, from).Paths[p] != 0 {
		return true
	}
	for _, f := range h.includes() {
		if h.l.syms.Of(ctx, f).Paths[p] != 0 {
			return true
		}
	}
	return false
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

// Stdlib reports whether an #include names a system header (<stdio.h>).
func Stdlib(im lang.Import) bool { return strings.HasPrefix(im.Source, "<") }
