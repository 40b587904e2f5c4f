package index

import (
	"path"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// Ruby and PHP: import resolution and cross-file references.
//
// Ruby: require_relative "x" (imported as "./x") resolves to x.rb beside the
// file; require/load "x" and autoload :X, "x" resolve to lib/x.rb or x.rb in
// the nearest ancestor directory that has it. A constant (Foo, Foo::Bar,
// Foo.bar) resolves through the lexical nesting of the reference (innermost
// first, then the top level) in the file itself (proven) and then in the files
// it requires (strong).
//
// PHP: use A\B\C resolves to the file whose namespace (the file row's pkg,
// Facts.Package) is A\B and that declares C; require/include "x.php" resolves
// to x.php relative to the file, else to the repository root. A name resolves
// by PHP's rules: an imported alias, a qualified A\B\C (fully or relative to
// the file's namespace or an imported namespace alias), or a name of the
// file's own namespace; and then in the files it requires. Class members
// (C::m(), C::CONST, C::$p) resolve in the class's file.

// scriptCache is what the linker keeps across files for Ruby and PHP.
type scriptCache struct {
	paths map[string]map[string]int64 // repo path -> lexical path -> symbol id
	phpNS map[string][]string         // PHP namespace -> files declaring it
}

func (l *linker) scripts() *scriptCache {
	if l.script == nil {
		l.script = &scriptCache{paths: map[string]map[string]int64{}}
	}
	return l.script
}

// filePaths indexes one file's symbols by lexical path (first wins).
func (l *linker) filePaths(p string) map[string]int64 {
	sc := l.scripts()
	if m, ok := sc.paths[p]; ok {
		return m
	}
	m := map[string]int64{}
	if f := l.w.files[p]; f != nil {
		if rows, err := l.symbolsOf([]int64{f.id}); err == nil {
			prefix := l.w.unitOf(f)
			pre := prefix.prefix + prefix.sep
			for _, r := range rows {
				lp := strings.TrimPrefix(r.QName, pre)
				if _, ok := m[lp]; !ok {
					m[lp] = r.ID
				}
			}
		}
	}
	sc.paths[p] = m
	return m
}

// phpFiles lists the PHP files that declare a namespace ("" is the global one).
func (l *linker) phpFiles(ns string) []string {
	sc := l.scripts()
	if sc.phpNS == nil {
		sc.phpNS = map[string][]string{}
		for p, f := range l.w.files {
			if f.lang == "php" {
				sc.phpNS[f.pkg] = append(sc.phpNS[f.pkg], p)
			}
		}
		for _, ps := range sc.phpNS {
			sort.Strings(ps)
		}
	}
	return sc.phpNS[ns]
}

func (l *linker) exists(p string) bool {
	f, ok := l.w.files[p]
	return ok && f.lang != ""
}

// resolveRuby finds the file a require, require_relative, load or autoload names.
func (l *linker) resolveRuby(f *fileInfo, im lang.Import) (importTarget, bool) {
	src := im.Source
	if path.Ext(src) != ".rb" {
		src += ".rb"
	}
	if strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../") {
		if p := path.Join(dirOf(f.path), src); l.exists(p) {
			return importTarget{file: p}, true
		}
		return importTarget{}, false
	}
	if strings.HasPrefix(src, "/") {
		return importTarget{}, false
	}
	for dir := dirOf(f.path); ; dir = dirOf(dir) {
		for _, p := range []string{path.Join(dir, "lib", src), path.Join(dir, src)} {
			if l.exists(p) {
				return importTarget{file: p}, true
			}
		}
		if dir == "" {
			return importTarget{}, false
		}
	}
}

// resolvePHP finds the file a use declaration or a require/include names.
func (l *linker) resolvePHP(f *fileInfo, im lang.Import) (importTarget, bool) {
	switch im.Kind {
	case lang.ImportNamed:
		for _, p := range l.phpFiles(im.Source) {
			if l.filePaths(p)[im.Name] != 0 {
				return importTarget{file: p}, true
			}
		}
	case lang.ImportModule:
		src := im.Source
		if strings.HasPrefix(src, "/") || strings.Contains(src, "://") {
			return importTarget{}, false
		}
		for _, p := range []string{path.Join(dirOf(f.path), src), path.Clean(src)} {
			if l.exists(p) && strings.HasSuffix(p, ".php") {
				return importTarget{file: p}, true
			}
		}
	}
	return importTarget{}, false
}

// scriptLinker resolves the references of one Ruby or PHP file.
type scriptLinker struct {
	l        *linker
	f        *fileInfo
	facts    *lang.Facts
	targets  []importTarget
	resolved []bool
	own      map[string]int64 // this file's symbols by lexical path
	required []string         // files brought in by require/include (and autoload)
}

func (l *linker) newScriptLinker(f *fileInfo, facts *lang.Facts, own []store.SymbolRow, targets []importTarget, resolved []bool) *scriptLinker {
	s := &scriptLinker{l: l, f: f, facts: facts, targets: targets, resolved: resolved, own: map[string]int64{}}
	for i, d := range facts.Defs {
		if i < len(own) {
			if _, ok := s.own[d.Path]; !ok {
				s.own[d.Path] = own[i].ID
			}
		}
	}
	seen := map[string]bool{f.path: true}
	for i, im := range facts.Imports {
		if !resolved[i] || seen[targets[i].file] {
			continue
		}
		if f.lang == "ruby" || im.Kind == lang.ImportModule {
			seen[targets[i].file] = true
			s.required = append(s.required, targets[i].file)
		}
	}
	return s
}

// lookup finds a lexical path in this file (proven) or a required one (strong).
func (s *scriptLinker) lookup(p string) (Tier, int64) {
	if id := s.own[p]; id != 0 {
		return TierProven, id
	}
	for _, file := range s.required {
		if id := s.l.filePaths(file)[p]; id != 0 {
			return TierStrong, id
		}
	}
	return TierUnknown, 0
}

func (s *scriptLinker) link(ri int, r lang.Ref, name string, add func(int, Tier, int64)) {
	switch s.f.lang {
	case "ruby":
		s.linkRuby(ri, r, name, add)
	case "php":
		s.linkPHP(ri, r, name, add)
	}
}

// nesting lists the lexical paths a Ruby constant is looked up in from a
// definition: the enclosing classes and modules, innermost first, then "".
func (s *scriptLinker) nesting(d int32) []string {
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

func (s *scriptLinker) linkRuby(ri int, r lang.Ref, name string, add func(int, Tier, int64)) {
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
			if tier, id := s.lookup(join(prefix, name)); id != 0 {
				add(ri, tier, id)
				return
			}
			continue
		}
		if _, id := s.lookup(join(prefix, base)); id != 0 {
			if tier, id := s.lookup(join(prefix, base) + "." + name); id != 0 {
				add(ri, tier, id)
			}
			return
		}
	}
}

func (s *scriptLinker) linkPHP(ri int, r lang.Ref, name string, add func(int, Tier, int64)) {
	if strings.HasPrefix(name, "$") {
		return
	}
	q := ""
	if r.Shape != lang.QualNone {
		q = s.facts.Names[r.Qualifier]
	}
	switch r.Shape {
	case lang.QualNone:
		if tier, id := s.phpName(name, r.BindImp); id != 0 {
			add(ri, tier, id)
		}
	case lang.QualPath: // ns\Name
		if tier, id := s.inNamespace(s.phpNamespace(q, r.BindImp), name); id != 0 {
			add(ri, tier, id)
		}
	case lang.QualIdent, lang.QualExpr: // Class::member, \ns\Class::member
		if !isPHPName(q) {
			return
		}
		file, class := s.phpClass(q, r.BindImp)
		if file == "" {
			return
		}
		tier := TierStrong
		if file == s.f.path {
			tier = TierProven
		}
		add(ri, tier, s.l.filePaths(file)[class+"."+name])
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
func (s *scriptLinker) phpNamespace(q string, imp int32) string {
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
	if s.f.pkg == "" {
		return q
	}
	return s.f.pkg + `\` + q
}

// inNamespace finds a top-level name declared in a namespace: in this file
// (proven) or another file of the namespace (strong).
func (s *scriptLinker) inNamespace(ns, name string) (Tier, int64) {
	if ns == s.f.pkg {
		if id := s.own[name]; id != 0 {
			return TierProven, id
		}
	}
	for _, p := range s.l.phpFiles(ns) {
		if p == s.f.path {
			continue
		}
		if id := s.l.filePaths(p)[name]; id != 0 {
			return TierStrong, id
		}
	}
	return TierUnknown, 0
}

// phpName resolves an unqualified name: an import, the file's namespace, the
// files it requires.
func (s *scriptLinker) phpName(name string, imp int32) (Tier, int64) {
	if imp >= 0 {
		im := s.facts.Imports[imp]
		if im.Kind == lang.ImportNamed && im.LocalName() == name {
			if s.resolved[imp] {
				return TierStrong, s.l.filePaths(s.targets[imp].file)[im.Name]
			}
			return TierUnknown, 0
		}
	}
	if tier, id := s.inNamespace(s.f.pkg, name); id != 0 {
		return tier, id
	}
	for _, file := range s.required {
		if id := s.l.filePaths(file)[name]; id != 0 {
			return TierStrong, id
		}
	}
	return TierUnknown, 0
}

// phpClass finds the file and lexical path of the class a qualifier names.
func (s *scriptLinker) phpClass(q string, imp int32) (file, class string) {
	if i := strings.LastIndexByte(q, '\\'); i >= 0 {
		ns, name := s.phpNamespace(q[:i], imp), q[i+1:]
		if q[:i] == "" {
			ns = ""
		}
		for _, p := range s.l.phpFiles(ns) {
			if s.l.filePaths(p)[name] != 0 {
				return p, name
			}
		}
		return "", ""
	}
	if imp >= 0 {
		im := s.facts.Imports[imp]
		if im.Kind == lang.ImportNamed && im.LocalName() == q {
			if s.resolved[imp] {
				return s.targets[imp].file, im.Name
			}
			return "", ""
		}
	}
	if s.own[q] != 0 {
		return s.f.path, q
	}
	for _, p := range s.l.phpFiles(s.f.pkg) {
		if s.l.filePaths(p)[q] != 0 {
			return p, q
		}
	}
	for _, p := range s.required {
		if s.l.filePaths(p)[q] != 0 {
			return p, q
		}
	}
	return "", ""
}
