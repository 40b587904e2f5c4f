package cfamily

import (
	"context"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
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
	self := native.OwnPaths(facts, own)
	var closure []string
	closureDone := false
	var links link.Links
	lookup := func(ri int, keys []string) {
		for _, k := range keys {
			if links.Add(ri, lang.TierProven, self[k]) {
				return
			}
		}
		if !closureDone {
			closure, closureDone = l.includeClosure(ctx, f, facts), true
		}
		name := native.LastSegment(keys[0])
		for _, k := range keys {
			for _, p := range closure {
				nf := l.syms.Of(ctx, p)
				if !nf.Names[name] {
					continue
				}
				if links.Add(ri, lang.TierStrong, nf.Paths[k]) {
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
	for ri, r := range facts.Unbound() {
		name := facts.Names[r.Name]
		switch r.Shape {
		case lang.QualNone:
			if r.BindDef >= 0 && int(r.BindDef) < len(own) {
				links = append(links, lang.Link{Ref: ri, Tier: lang.TierProven, Target: own[r.BindDef]})
				continue
			}
			var keys []string
			for _, c := range contexts(r.Enclosing) {
				keys = append(keys, native.JoinDot(c, name))
			}
			lookup(ri, keys)
		case lang.QualSelf:
			if c := contexts(r.Enclosing); len(c) > 1 {
				lookup(ri, []string{native.JoinDot(c[0], name)})
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
				keys = append(keys, native.JoinDot(native.JoinDot(c, q), name))
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

// Stdlib reports whether an #include names a system header (<stdio.h>).
func Stdlib(im lang.Import) bool { return strings.HasPrefix(im.Source, "<") }
