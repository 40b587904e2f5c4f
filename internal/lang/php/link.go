package php

import (
	"context"
	"path"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/link"
)

// PHP linking (DESIGN §5 tiers): use A\B\C resolves to the file whose
// namespace (lang.File.Pkg, Facts.Package) is A\B and that declares C;
// require/include "x.php" resolves to x.php relative to the file, else to the
// repository root. A name resolves by PHP's rules: an imported alias, a
// qualified A\B\C (fully or relative to the file's namespace or an imported
// namespace alias), or a name of the file's own namespace; and then in the
// files it requires. Class members (C::m(), C::CONST, C::$p) resolve in the
// class's file.

var linker = &lang.Linker{NewBatch: newBatch}

// batch links the PHP files of one batch.
type batch struct {
	link.Batch
	phpNS map[string][]string // namespace -> files declaring it, built on first use
}

func newBatch(r lang.Resolver) lang.BatchLinker { return &batch{Batch: link.NewBatch(r)} }

// Link resolves the references of a PHP file.
func (l *batch) Link(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) []lang.Link {
	lf := link.NewFile(f, facts, own)
	targets, resolved := link.Imports(ctx, l, f, facts)
	s := &phpFile{l: l, f: f, facts: facts, targets: targets, resolved: resolved, own: lf.ByPath,
		required: link.Required(f, facts, targets, resolved, func(im lang.Import) bool { return im.Kind == lang.ImportModule })}
	return lf.Link(ctx, l.Tops, link.Rules{Other: func(ri int, r lang.Ref, name string) { s.link(ctx, ri, r, name, lf.Add) }})
}

// phpFile resolves the names of one PHP file.
type phpFile struct {
	l        *batch
	f        lang.File
	facts    *lang.Facts
	targets  []lang.Target
	resolved []bool
	own      map[string]int64 // this file's symbols by lexical path
	required []string         // files brought in by require/include
}

// Import finds the file a use declaration or a require/include names.
func (l *batch) Import(ctx context.Context, f lang.File, im lang.Import) (lang.Target, bool) {
	switch im.Kind {
	case lang.ImportNamed:
		for _, p := range l.phpFiles(im.Source) {
			if l.Paths.Of(ctx, p)[im.Name] != 0 {
				return lang.Target{File: p}, true
			}
		}
	case lang.ImportModule:
		src := im.Source
		if strings.HasPrefix(src, "/") || strings.Contains(src, "://") {
			return lang.Target{}, false
		}
		for _, p := range []string{path.Join(lang.DirOf(f.Path), src), path.Clean(src)} {
			if l.Exists(p) && strings.HasSuffix(p, ".php") {
				return lang.Target{File: p}, true
			}
		}
	}
	return lang.Target{}, false
}

// phpFiles lists the PHP files that declare a namespace ("" is the global one).
func (l *batch) phpFiles(ns string) []string {
	if l.phpNS == nil {
		l.phpNS = map[string][]string{}
		for f := range l.R.Files() {
			if f.Lang == "php" {
				l.phpNS[f.Pkg] = append(l.phpNS[f.Pkg], f.Path)
			}
		}
		for _, ps := range l.phpNS {
			sort.Strings(ps)
		}
	}
	return l.phpNS[ns]
}

// link resolves a name by PHP's rules, and Class::member in the class's file.
func (s *phpFile) link(ctx context.Context, ri int, r lang.Ref, name string, add func(int, lang.Tier, int64)) {
	if strings.HasPrefix(name, "$") {
		return
	}
	q := ""
	if r.Shape != lang.QualNone {
		q = s.facts.Names[r.Qualifier]
	}
	switch r.Shape {
	case lang.QualNone:
		if tier, id := s.phpName(ctx, name, r.BindImp); id != 0 {
			add(ri, tier, id)
		}
	case lang.QualPath: // ns\Name
		if tier, id := s.inNamespace(ctx, s.phpNamespace(q, r.BindImp), name); id != 0 {
			add(ri, tier, id)
		}
	case lang.QualIdent, lang.QualExpr: // Class::member, \ns\Class::member
		if !isPHPName(q) {
			return
		}
		file, class := s.phpClass(ctx, q, r.BindImp)
		if file == "" {
			return
		}
		tier := lang.TierStrong
		if file == s.f.Path {
			tier = lang.TierProven
		}
		add(ri, tier, s.l.Paths.Of(ctx, file)[class+"."+name])
	}
}

// isPHPName reports whether a qualifier is a written class name (Foo, \A\Foo).
func isPHPName(q string) bool {
	if q == "" || q == `\` {
		return false
	}
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c == '\\' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 {
			continue
		}
		return false
	}
	return true
}

// phpNamespace resolves the namespace part of a qualified name: \A\B is
// absolute; A\B starts with an imported alias or is relative to the file's
// namespace.
func (s *phpFile) phpNamespace(q string, imp int32) string {
	if q == `\` {
		return ""
	}
	if strings.HasPrefix(q, `\`) {
		return q[1:]
	}
	first, rest, _ := strings.Cut(q, `\`)
	if imp >= 0 {
		im := s.facts.Imports[imp]
		if im.LocalName() == first {
			full := im.Name
			if im.Source != "" {
				full = im.Source + `\` + im.Name
			}
			if rest != "" {
				full += `\` + rest
			}
			return full
		}
	}
	if s.f.Pkg == "" {
		return q
	}
	return s.f.Pkg + `\` + q
}

// inNamespace finds a top-level name declared in a namespace: in this file
// (proven) or another file of the namespace (strong).
func (s *phpFile) inNamespace(ctx context.Context, ns, name string) (lang.Tier, int64) {
	if ns == s.f.Pkg {
		if id := s.own[name]; id != 0 {
			return lang.TierProven, id
		}
	}
	for _, p := range s.l.phpFiles(ns) {
		if p == s.f.Path {
			continue
		}
		if id := s.l.Paths.Of(ctx, p)[name]; id != 0 {
			return lang.TierStrong, id
		}
	}
	return lang.TierUnknown, 0
}

// phpName resolves an unqualified name: an import, the file's namespace, the
// files it requires.
func (s *phpFile) phpName(ctx context.Context, name string, imp int32) (lang.Tier, int64) {
	if imp >= 0 {
		im := s.facts.Imports[imp]
		if im.Kind == lang.ImportNamed && im.LocalName() == name {
			if s.resolved[imp] {
				return lang.TierStrong, s.l.Paths.Of(ctx, s.targets[imp].File)[im.Name]
			}
			return lang.TierUnknown, 0
		}
	}
	if tier, id := s.inNamespace(ctx, s.f.Pkg, name); id != 0 {
		return tier, id
	}
	for _, file := range s.required {
		if id := s.l.Paths.Of(ctx, file)[name]; id != 0 {
			return lang.TierStrong, id
		}
	}
	return lang.TierUnknown, 0
}

// phpClass finds the file and lexical path of the class a qualifier names.
func (s *phpFile) phpClass(ctx context.Context, q string, imp int32) (file, class string) {
	if i := strings.LastIndexByte(q, '\\'); i >= 0 {
		ns, name := s.phpNamespace(q[:i], imp), q[i+1:]
		if q[:i] == "" {
			ns = ""
		}
		for _, p := range s.l.phpFiles(ns) {
			if s.l.Paths.Of(ctx, p)[name] != 0 {
				return p, name
			}
		}
		return "", ""
	}
	if imp >= 0 {
		im := s.facts.Imports[imp]
		if im.Kind == lang.ImportNamed && im.LocalName() == q {
			if s.resolved[imp] {
				return s.targets[imp].File, im.Name
			}
			return "", ""
		}
	}
	if s.own[q] != 0 {
		return s.f.Path, q
	}
	for _, p := range s.l.phpFiles(s.f.Pkg) {
		if s.l.Paths.Of(ctx, p)[q] != 0 {
			return p, q
		}
	}
	for _, p := range s.required {
		if s.l.Paths.Of(ctx, p)[q] != 0 {
			return p, q
		}
	}
	return "", ""
}
