package ruby

import (
	"context"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// Ruby linking (DESIGN §5 tiers): require_relative "x" (imported as "./x")
// resolves to x.rb beside the file; require/load "x" and autoload :X, "x"
// resolve to lib/x.rb or x.rb in the nearest ancestor directory that has it.
// A constant (Foo, Foo::Bar, Foo.bar) resolves through the lexical nesting of
// the reference (innermost first, then the top level) in the file itself
// (proven) and then in the files it requires (strong).

var linker = &lang.Linker{NewBatch: newBatch}

// batch links the Ruby files of one batch.
type batch struct{ link.Batch }

func newBatch(r lang.Resolver) lang.BatchLinker { return &batch{link.NewBatch(r)} }

// Link resolves the references of a Ruby file.
func (l *batch) Link(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) []lang.Link {
	lf := link.NewFile(f, facts, own)
	targets, resolved := link.Imports(ctx, l, f, facts)
	s := &rubyFile{l: l, facts: facts, own: lf.ByPath,
		required: link.Required(f, facts, targets, resolved, func(lang.Import) bool { return true })}
	return lf.Link(ctx, l.Tops, link.Rules{Other: func(ri int, r lang.Ref, name string) { s.link(ctx, ri, r, name, lf.Add) }})
}

// rubyFile resolves the constants of one Ruby file.
type rubyFile struct {
	l        *batch
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
	return lang.TierUnknown, 0
}

// nesting lists the lexical paths a Ruby constant is looked up in from a
// definition: the enclosing classes and modules, innermost first, then "".
func (s *rubyFile) nesting(d int32) []string {
	var out []string
	for ; d >= 0; d = s.facts.Defs[d].Parent {
		if k := s.facts.Defs[d].Kind; k == lang.KindClass || k == lang.KindModule {
			out = append(out, s.facts.Defs[d].Path)
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

// link resolves a constant: through the lexical nesting of the reference,
// in the file and then in the files it requires.
func (s *rubyFile) link(ctx context.Context, ri int, r lang.Ref, name string, add func(int, lang.Tier, int64)) {
	var base string // the constant path the name is a member of ("" for none)
	switch r.Shape {
	case lang.QualNone:
		if !isRubyConstant(name) {
			return // a method of self
		}
	case lang.QualIdent, lang.QualPath:
		base = s.facts.Names[r.Qualifier]
		if !isRubyConstant(base) {
			return // a variable or a call: its type is unknown
		}
	default:
		return
	}
	for _, prefix := range s.nesting(r.Enclosing) {
		if base == "" {
			if tier, id := s.lookup(ctx, join(prefix, name)); id != 0 {
				add(ri, tier, id)
				return
			}
			continue
		}
		if _, id := s.lookup(ctx, join(prefix, base)); id != 0 {
			if tier, id := s.lookup(ctx, join(prefix, base)+"."+name); id != 0 {
				add(ri, tier, id)
			}
			return
		}
	}
}
