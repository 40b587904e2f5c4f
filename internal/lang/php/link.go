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
	phpNS   map[string][]string // namespace -> files declaring it, built on first use
	foreign map[string]*phpFile // other files whose classes a class extends, by path
}

func newBatch(r lang.Resolver) lang.BatchLinker {
	return &batch{Batch: link.NewBatch(r), foreign: map[string]*phpFile{}}
}

// Link resolves the references of a PHP file.
func (l *batch) Link(ctx context.Context, f lang.File, facts *lang.Facts, own []int64) []lang.Link {
	lf := link.NewFile(f, facts, own)
	s := l.newFile(ctx, f, facts, lf.ByPath)
	s.decl = link.NewDeclTypes(f.Path, facts, false, false)
	return lf.Link(ctx, l.Tops, link.Rules{
		Typed: func(ri int, r lang.Ref, name string) (int64, bool) {
			id := s.typed(ctx, lf, r, name)
			return id, id != 0
		},
		Base:  func(cls int32, name string) int64 { return s.inherited(ctx, cls, name, 0) },
		Other: func(ri int, r lang.Ref, name string) { s.link(ctx, ri, r, name, lf.Add) },
	})
}

// typed is the member name of the class the source declares for the
// qualifier of r: $x->name where $x is a parameter of a declared class or
// was assigned new C(), $this->p->name where property p declares its
// class, and f()->name where the function or method f declares the class
// it returns; 0 when it declares none or the class has no such member.
func (s *phpFile) typed(ctx context.Context, lf *link.File, r lang.Ref, name string) int64 {
	typ := ""
	cls := link.EnclosingClass(s.facts, r.Enclosing)
	switch r.Shape {
	case lang.QualCall:
		if r.Via > 0 {
			return s.returned(ctx, lf, int(r.Via-1), name)
		}
	case lang.QualIdent:
		if ls, ok := s.decl.Local(r.Qualifier, r.Scope, r.Pos); ok {
			lo := s.facts.Locals[ls[0]]
			for _, j := range ls[1:] {
				if other := s.facts.Locals[j]; other.Type != lo.Type || other.Via != lo.Via {
					return 0 // assignments that may disagree
				}
			}
			if typ = lo.Type; typ == "" && lo.Via > 0 {
				return s.returned(ctx, lf, int(lo.Via-1), name) // $x = f(): what f returns
			}
		}
	case lang.QualExpr:
		prop, ok := strings.CutPrefix(s.facts.Names[r.Qualifier], "$this->")
		if !ok || !lang.IsIdentifier(prop) {
			return 0
		}
		if cls >= 0 {
			if d, ok := s.decl.ByPath[s.facts.Defs[cls].Path+"."+prop]; ok && s.facts.Defs[d].Kind == lang.KindProperty {
				typ = s.facts.Defs[d].Type
			}
		}
	}
	return s.typeMember(ctx, typ, cls, name)
}

// returned is member name of the class that the function or method the
// file's reference callee links to declares it returns.
func (s *phpFile) returned(ctx context.Context, lf *link.File, callee int, name string) int64 {
	id := lf.Target(callee)
	if id == 0 {
		return 0
	}
	if d := lf.DefOf(id); d >= 0 {
		return s.typeMember(ctx, s.facts.Defs[d].Type, link.EnclosingClass(s.facts, d), name)
	}
	sym, ok := s.l.Symbol(id)
	if !ok {
		return 0
	}
	base := s.l.file(ctx, sym.File)
	if base == nil || sym.DefIdx >= len(base.facts.Defs) {
		return 0
	}
	return base.typeMember(ctx, base.facts.Defs[sym.DefIdx].Type, link.EnclosingClass(base.facts, int32(sym.DefIdx)), name)
}

// typeMember is member name of the class typ as this file writes it (self
// and static: class def cls of the file); 0 for none.
func (s *phpFile) typeMember(ctx context.Context, typ string, cls int32, name string) int64 {
	switch typ {
	case "":
		return 0
	case "self", "static":
		if cls < 0 {
			return 0
		}
		return s.memberOf(ctx, s.f.Path, s.facts.Defs[cls].Path, name, 0)
	}
	file, class := s.phpClass(ctx, typ, s.importNamed(typ))
	if file == "" {
		return 0
	}
	return s.memberOf(ctx, file, class, name, 0)
}

// memberOf is member name of class path class in file, declared there or
// inherited (depth: the ancestors already followed); 0 for none.
func (s *phpFile) memberOf(ctx context.Context, file, class, name string, depth int) int64 {
	if id := s.l.Paths.Of(ctx, file)[class+"."+name]; id != 0 {
		return id
	}
	base := s
	if file != s.f.Path {
		if base = s.l.file(ctx, file); base == nil {
			return 0
		}
	}
	if d := base.classDef(class); d >= 0 {
		return base.inherited(ctx, d, name, depth)
	}
	return 0
}

// newFile prepares the names of one PHP file: own are its symbols by
// lexical path.
func (l *batch) newFile(ctx context.Context, f lang.File, facts *lang.Facts, own map[string]int64) *phpFile {
	targets, resolved := link.Imports(ctx, l, f, facts)
	return &phpFile{l: l, f: f, facts: facts, targets: targets, resolved: resolved, own: own,
		required: link.Required(f, facts, targets, resolved, func(im lang.Import) bool { return im.Kind == lang.ImportModule })}
}

// file is another PHP file, prepared once per batch (nil when it has no
// facts).
func (l *batch) file(ctx context.Context, p string) *phpFile {
	if s, ok := l.foreign[p]; ok {
		return s
	}
	var s *phpFile
	if f, ok := l.R.File(p); ok {
		if facts := l.R.Facts(ctx, p); facts != nil {
			s = l.newFile(ctx, f, facts, l.Paths.Of(ctx, p))
		}
	}
	l.foreign[p] = s
	return s
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
	decl     *link.DeclTypes  // the declared types of its bindings (the file being linked)
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
		if q == "parent" { // parent::m(): m of the class the enclosing class extends, or of its ancestors
			if cls := link.EnclosingClass(s.facts, r.Enclosing); cls >= 0 {
				add(ri, lang.TierStrong, s.inherited(ctx, cls, name, 0, lang.RelExtends))
			}
			return
		}
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

// maxAncestry bounds the classes and traits a member is looked up through.
const maxAncestry = 8

// ancestry is the order PHP looks a member up in a class's relations:
// the traits it uses (their methods override inherited ones), the class it
// extends, then the interfaces it implements (where an abstract class's
// method is declared only).
var ancestry = []lang.RelKind{lang.RelEmbeds, lang.RelExtends, lang.RelImplements}

// inherited is the symbol of member name that class def cls of this file
// does not declare but inherits ($this->m(), parent::m()): declared by a
// trait it uses, a class it extends or an interface it implements, or by
// their own ancestors, nearest first. kinds narrows the relations (none:
// ancestry); 0 when none declares it.
func (s *phpFile) inherited(ctx context.Context, cls int32, name string, depth int, kinds ...lang.RelKind) int64 {
	if depth >= maxAncestry {
		return 0
	}
	if kinds == nil {
		kinds = ancestry
	}
	for _, kind := range kinds {
		for _, rel := range s.facts.TypeRels {
			if rel.Def != cls || rel.Kind != kind {
				continue
			}
			file, class := s.phpClass(ctx, rel.Target, s.importNamed(rel.Target))
			if file == "" {
				continue
			}
			if id := s.memberOf(ctx, file, class, name, depth+1); id != 0 {
				return id
			}
		}
	}
	return 0
}

// importNamed is the named import that the first name of a written class
// name (Foo, Foo\Bar) is the alias of; -1 for none.
func (s *phpFile) importNamed(q string) int32 {
	first, _, _ := strings.Cut(strings.TrimPrefix(q, `\`), `\`)
	if strings.HasPrefix(q, `\`) {
		return -1
	}
	for i, im := range s.facts.Imports {
		if im.Kind == lang.ImportNamed && im.LocalName() == first {
			return int32(i)
		}
	}
	return -1
}

// classDef is the definition of the class, trait or interface of lexical
// path p in this file; -1 for none.
func (s *phpFile) classDef(p string) int32 {
	for i, d := range s.facts.Defs {
		if d.Path == p && d.Kind.IsTypeLike() {
			return int32(i)
		}
	}
	return -1
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
