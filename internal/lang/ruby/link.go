package ruby

import (
	"context"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
	"github.com/cairnhq/cairn/internal/lang/surface"
)

// Ruby linking (DESIGN §5 tiers): require_relative "x" (imported as "./x")
// resolves to x.rb beside the file; require/load "x" and autoload :X, "x"
// resolve to lib/x.rb or x.rb in the nearest ancestor directory that has it.
// A constant (Foo, Foo::Bar, Foo.bar) resolves through the lexical nesting of
// the reference (innermost first, then the top level) in the file itself
// (proven), then in the files it requires (strong), then in the file the
// loading convention of autoload and Zeitwerk names for it (Rack::Utils in
// rack/utils.rb, found as a require of "rack/utils" is) when that file
// defines it (strong). Foo.new is a call of Foo#initialize when Foo does
// not define self.new. A bare method call or an instance variable that
// the class does not define is its nearest ancestor's that does: the
// modules it includes, last first, then its superclass and theirs, each
// found the same way (inherited, ancestry.go).

var linker = &lang.Linker{NewBatch: newBatch}

// batch links the Ruby files of one batch.
type batch struct {
	link.Batch
	// byConvention memoises conventional: by the referencing file's
	// directory and the lexical path, the symbol (0 for none); requires,
	// by the directory and a require path, the file it finds ("" for none).
	byConvention map[[2]string]int64
	requires     map[[2]string]string
	// ancestry memoises ancestors by file and lexical path.
	ancestry map[[2]string]ancestry
}

func newBatch(r lang.Resolver) lang.BatchLinker {
	return &batch{Batch: link.NewBatch(r), byConvention: map[[2]string]int64{}, requires: map[[2]string]string{},
		ancestry: map[[2]string]ancestry{}}
}

// Link resolves the references of a Ruby file.
func (l *batch) Link(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) []lang.Link {
	lf := link.NewFile(f, facts, own)
	targets, resolved := link.Imports(ctx, l, f, facts)
	s := &rubyFile{l: l, file: f, facts: facts, own: lf.ByPath,
		required: link.Required(f, facts, targets, resolved, func(lang.Import) bool { return true })}
	decl := link.NewDeclTypes(f.Path, facts, true, false)
	return lf.Link(ctx, l.Tops, link.Rules{
		// Foo::Bar where this file opens Foo but Bar is defined in another
		// file: Ruby's modules and classes are open.
		Typed: func(ri int, r lang.Ref, name string) (int64, bool) {
			if r.Shape == lang.QualCall {
				// Foo.new.name, Foo.new(x).name
				id := s.classMember(ctx, r.Enclosing, newOf(facts.Names[r.Qualifier]), name)
				return id, id != 0
			}
			if r.Shape != lang.QualIdent || !r.QualBound {
				return 0, false
			}
			if id := s.constructedMember(ctx, decl, r, name); id != 0 {
				return id, true // x = Foo.new; x.name
			}
			tier, id := s.resolve(ctx, r, name)
			return id, id != 0 && (tier == lang.TierStrong || name == "new") // Foo.new: Foo#initialize, which this file's Foo.new is not
		},
		// self.m where the class does not define m
		Base: func(cls int32, name string) int64 { return s.ancestral(ctx, cls, name) },
		Other: func(ri int, r lang.Ref, name string) {
			if tier, id := s.resolve(ctx, r, name); id != 0 {
				lf.Add(ri, tier, id)
			}
		},
	})
}

// constructedMember is the method name of the class that the local
// qualifying r was constructed from (x = Foo.new), declared by the class or
// one of its ancestors; 0 when the local has no such class.
func (s *rubyFile) constructedMember(ctx context.Context, decl *link.DeclTypes, r lang.Ref, name string) int64 {
	return s.classMember(ctx, r.Enclosing, decl.Of(r), name)
}

// newOf is the constant path a call Foo.new or Foo.new(args) constructs;
// "" for any other call.
func newOf(call string) string {
	if i := strings.IndexByte(call, '('); i >= 0 && strings.HasSuffix(call, ")") {
		call = call[:i]
	}
	class, ok := strings.CutSuffix(call, ".new")
	if !ok || !isRubyConstant(strings.ReplaceAll(strings.TrimPrefix(class, "::"), "::", ".")) {
		return ""
	}
	return class
}

// classMember is the method name of class typ (a constant path as written)
// resolved from the nesting of definition from, declared by the class or
// one of its ancestors; 0 for none.
func (s *rubyFile) classMember(ctx context.Context, from int32, typ, name string) int64 {
	if typ == "" {
		return 0
	}
	sc, d, ok := s.l.declarationFrom(ctx, s, from, typ)
	if !ok {
		return 0
	}
	if id := s.l.Paths.Of(ctx, sc.file.Path)[sc.facts.Defs[d].Path+"."+name]; id != 0 {
		return id
	}
	for _, a := range s.l.ancestors(ctx, sc, d).list {
		if id := s.l.Paths.Of(ctx, a.file)[a.path+"."+name]; id != 0 {
			return id
		}
	}
	return 0
}

// rubyFile resolves the constants of one Ruby file.
type rubyFile struct {
	l        *batch
	file     lang.File
	facts    *lang.Facts
	own      map[string]int64 // this file's symbols by lexical path
	required []string         // files brought in by require (and autoload)
}

// Import finds the file a require, require_relative, load or autoload names.
func (l *batch) Import(ctx context.Context, f lang.File, im lang.Import) (lang.Target, bool) {
	src := im.Source
	if path.Ext(src) != ".rb" {
		src += ".rb"
	}
	if strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../") {
		if p := path.Join(lang.DirOf(f.Path), src); l.Exists(p) {
			return lang.Target{File: p}, true
		}
		return lang.Target{}, false
	}
	if strings.HasPrefix(src, "/") {
		return lang.Target{}, false
	}
	for dir := lang.DirOf(f.Path); ; dir = lang.DirOf(dir) {
		for _, p := range []string{path.Join(dir, "lib", src), path.Join(dir, src)} {
			if l.Exists(p) {
				return lang.Target{File: p}, true
			}
		}
		if dir == "" {
			return lang.Target{}, false
		}
	}
}

// lookup finds a lexical path in this file (proven) or a required one (strong).
func (s *rubyFile) lookup(ctx context.Context, p string) (lang.Tier, int64) {
	if id := s.own[p]; id != 0 {
		return lang.TierProven, id
	}
	for _, file := range s.required {
		if id := s.l.Paths.Of(ctx, file)[p]; id != 0 {
			return lang.TierStrong, id
		}
	}
	if id := s.l.conventional(ctx, s.file, p); id != 0 {
		return lang.TierStrong, id
	}
	return lang.TierUnknown, 0
}

// inherited finds a method or an instance variable (@x) that the class or
// module around r does not define in the nearest of its ancestors that
// does, in Ruby's lookup order (ancestry.go): strong. Nothing when an
// ancestor before it is not declared in the repository (a gem's module
// may define the name).
func (s *rubyFile) inherited(ctx context.Context, r lang.Ref, name string) (lang.Tier, int64) {
	f := s.facts
	cls := r.Enclosing
	for cls >= 0 && !isNamespace(f.Defs[cls].Kind) {
		cls = f.Defs[cls].Parent
	}
	if cls < 0 {
		return lang.TierUnknown, 0
	}
	if id := s.ancestral(ctx, cls, name); id != 0 {
		return lang.TierStrong, id
	}
	return lang.TierUnknown, 0
}

// ancestral is member name of the nearest ancestor of class or module cls
// that defines it, or 0.
func (s *rubyFile) ancestral(ctx context.Context, cls int32, name string) int64 {
	for _, a := range s.l.ancestors(ctx, s, cls).list {
		if id := s.l.Paths.Of(ctx, a.file)[a.path+"."+name]; id != 0 {
			return id
		}
	}
	return 0
}

// where is the file that defines lexical path p, as lookup finds it: this
// file, one it requires, or the one the loading convention names.
func (s *rubyFile) where(ctx context.Context, p string) (string, bool) {
	if s.own[p] != 0 {
		return s.file.Path, true
	}
	for _, file := range s.required {
		if s.l.Paths.Of(ctx, file)[p] != 0 {
			return file, true
		}
	}
	file := s.l.conventionalFile(ctx, s.file, p)
	return file, file != ""
}

// conventional is the symbol of lexical path p in the file the loading
// convention names for it, seen from file f (conventionalFiles), 0 for
// none. A file's many references to the same constants, and its
// directory's other files, ask the same question: the answer is kept.
func (l *batch) conventional(ctx context.Context, f lang.File, p string) int64 {
	key := [2]string{lang.DirOf(f.Path), p}
	if id, ok := l.byConvention[key]; ok {
		return id
	}
	var id int64
	if file := l.conventionalFile(ctx, f, p); file != "" {
		id = l.Paths.Of(ctx, file)[p]
	}
	l.byConvention[key] = id
	return id
}

// conventionalFile is the file the loading convention names for lexical
// path p and that defines it, seen from file f; "" for none.
func (l *batch) conventionalFile(ctx context.Context, f lang.File, p string) string {
	for _, src := range conventionalFiles(p) {
		rk := [2]string{lang.DirOf(f.Path), src}
		file, ok := l.requires[rk]
		if !ok {
			if t, found := l.Import(ctx, f, lang.Import{Source: src}); found {
				file = t.File
			}
			l.requires[rk] = file
		}
		if file != "" && l.Paths.Of(ctx, file)[p] != 0 {
			return file
		}
	}
	return ""
}

// conventionalFiles are the require paths of the files that may define a
// lexical path by the loading convention, the innermost constant's first:
// Rack.Utils.escape is in "rack/utils" (Rack.CommonLogger in
// "rack/common_logger", HTTPClient in "http_client"), else in "rack", as
// a constant nested in its parent's file is.
func conventionalFiles(p string) []string {
	segs := strings.Split(p, ".")
	for len(segs) > 0 && !isRubyConstant(segs[len(segs)-1]) {
		segs = segs[:len(segs)-1] // a method or a variable: in its constant's file
	}
	files := make([]string, 0, len(segs))
	for i := range segs {
		segs[i] = surface.SnakeCase(segs[i])
	}
	for n := len(segs); n > 0; n-- {
		files = append(files, strings.Join(segs[:n], "/"))
	}
	return files
}

// nesting lists the lexical paths a Ruby constant is looked up in from a
// definition: the enclosing classes and modules, innermost first, then "".
func (s *rubyFile) nesting(d int32) []string { return nesting(s.facts, d) }

func nesting(facts *lang.Facts, d int32) []string {
	var out []string
	for ; d >= 0; d = facts.Defs[d].Parent {
		if isNamespace(facts.Defs[d].Kind) {
			out = append(out, facts.Defs[d].Path)
		}
	}
	return append(out, "")
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

func isRubyConstant(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

// resolve finds the constant a reference names: through the lexical
// nesting of the reference, in the file and then in the files it requires
// or the loading convention names.
func (s *rubyFile) resolve(ctx context.Context, r lang.Ref, name string) (lang.Tier, int64) {
	var base string // the constant path the name is a member of ("" for none)
	switch r.Shape {
	case lang.QualNone:
		if !isRubyConstant(name) {
			return s.inherited(ctx, r, name) // a method or an instance variable of self
		}
	case lang.QualIdent, lang.QualPath:
		base = s.facts.Names[r.Qualifier]
		if !isRubyConstant(base) {
			return lang.TierUnknown, 0 // a variable or a call: its type is unknown
		}
	default:
		return lang.TierUnknown, 0
	}
	for _, prefix := range s.nesting(r.Enclosing) {
		if base == "" {
			if tier, id := s.lookup(ctx, join(prefix, name)); id != 0 {
				return tier, id
			}
			continue
		}
		if _, id := s.lookup(ctx, join(prefix, base)); id != 0 {
			tier, id := s.lookup(ctx, join(prefix, base)+"."+name)
			if id == 0 && name == "new" { // Foo.new runs Foo#initialize unless Foo defines self.new
				return s.lookup(ctx, join(prefix, base)+".initialize")
			}
			return tier, id
		}
	}
	return lang.TierUnknown, 0
}
