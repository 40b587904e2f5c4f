package ruby

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// Ruby looks a method up in the ancestors of the receiver's class, nearest
// first: the modules the class includes (and prepends), the last included
// first, each followed by the modules it includes, then the superclass and
// its own ancestors. extend adds a module's methods to the class object,
// not its instances, so it is no ancestor here. A class without a
// superclass extends Object, whose methods are built-ins.

// maxAncestors bounds one class's ancestors (a deeper chain is cut, and
// what follows is unknown).
const maxAncestors = 32

// ancestor is a class or module of the repository: the file declaring it
// (the one whose facts hold its definition) and its lexical path.
type ancestor struct{ file, path string }

// ancestry is a class's or module's ancestors after itself, as far as the
// repository declares them: open when the code names one that it does not
// (a gem's module, a class of the standard library), so that a name none
// of list defines may still be that one's.
type ancestry struct {
	list []ancestor
	open bool
}

// ancestors lists the ancestors of definition d of sc's file, memoised by
// file and lexical path (a cycle, A including B including A, ends open).
// The constants of d's relations are resolved from sc, where they are
// written.
func (l *batch) ancestors(ctx context.Context, sc *rubyFile, d int32) ancestry {
	key := [2]string{sc.file.Path, sc.facts.Defs[d].Path}
	if a, ok := l.ancestry[key]; ok {
		return a
	}
	l.ancestry[key] = ancestry{open: true}
	a := l.linearize(ctx, sc, d)
	l.ancestry[key] = a
	return a
}

// linearize walks d's mixins, last first, and then its superclass, each
// followed by its own ancestors.
func (l *batch) linearize(ctx context.Context, sc *rubyFile, d int32) ancestry {
	var a ancestry
	var mixins []string
	super := ""
	for _, rel := range sc.facts.TypeRels {
		switch {
		case rel.Def != d:
		case rel.Kind == lang.RelExtends:
			super = rel.Target
		case mixinCall(sc.facts, rel.Pos) != "extend":
			mixins = append(mixins, rel.Target)
		}
	}
	add := func(target string) bool {
		next, i, ok := l.declaration(ctx, sc, d, target)
		if !ok || len(a.list) == maxAncestors {
			a.open = true
			return false
		}
		a.list = append(a.list, ancestor{next.file.Path, next.facts.Defs[i].Path})
		more := l.ancestors(ctx, next, i)
		a.list = append(a.list, more.list...)
		if more.open || len(a.list) > maxAncestors {
			a.open = true
			return false
		}
		return true
	}
	for i := len(mixins) - 1; i >= 0; i-- {
		if !add(mixins[i]) {
			return a
		}
	}
	if super != "" {
		add(super)
	}
	return a
}

// declaration finds the class or module a relation of definition d names
// (Base, Rack::Auth::AbstractHandler, ::Foo), as Ruby resolves a constant
// from d's nesting (where): it returns the file that declares it, seen as
// the constants of its own relations are, and the definition's index in
// its facts.
func (l *batch) declaration(ctx context.Context, sc *rubyFile, d int32, target string) (*rubyFile, int32, bool) {
	return l.declarationFrom(ctx, sc, sc.facts.Defs[d].Parent, target)
}

// declarationFrom finds the class or module a constant path names as Ruby
// resolves it from the nesting of definition from of sc's file (see
// declaration).
func (l *batch) declarationFrom(ctx context.Context, sc *rubyFile, from int32, target string) (*rubyFile, int32, bool) {
	name := strings.ReplaceAll(strings.TrimPrefix(target, "::"), "::", ".")
	if !isRubyConstant(name) {
		return nil, 0, false
	}
	for _, prefix := range nesting(sc.facts, from) {
		p := join(prefix, name)
		file, ok := sc.where(ctx, p)
		if !ok {
			continue
		}
		next := sc
		if file != sc.file.Path {
			f, found := l.R.File(file)
			facts := l.R.Facts(ctx, file)
			if !found || facts == nil {
				return nil, 0, false
			}
			next = &rubyFile{l: l, file: f, facts: facts, own: l.Paths.Of(ctx, file)}
		}
		for i, def := range next.facts.Defs {
			if def.Path == p && isNamespace(def.Kind) {
				return next, int32(i), true
			}
		}
		return nil, 0, false
	}
	return nil, 0, false
}

// mixinCall is the method of the mixin relation at pos: the include,
// extend or prepend call nearest before it.
func mixinCall(facts *lang.Facts, pos lang.Pos) string {
	call, at := "", lang.Pos{}
	for _, r := range facts.Refs {
		if pos.Before(r.Pos) || r.Pos.Before(at) {
			continue
		}
		switch n := facts.Names[r.Name]; n {
		case "include", "extend", "prepend":
			call, at = n, r.Pos
		}
	}
	return call
}
