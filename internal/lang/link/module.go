package link

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// The rules that the languages whose files import each other as modules
// (Python, JavaScript, TypeScript, Ruby, PHP) share:
//
//   - a bare name bound to a same-file definition is proven;
//   - this.m and self.m are the member m of the enclosing class (proven);
//     a language may look m up in the class's bases when the class does not
//     declare it (Rules.Base);
//   - Class.member, where Class is a top-level class or enum of the file,
//     is proven;
//   - a language's own rules come first (Rules.Typed: members of typed
//     qualifiers) and last (Rules.Other: imports, constants, namespaces).

// Links are the links a file's references get, in the order they are made.
type Links []lang.Link

// Add links reference ref to target and reports whether it did: a target of
// 0 is no symbol found, and links nothing.
func (ls *Links) Add(ref int, tier lang.Tier, target int64) bool {
	if target == 0 {
		return false
	}
	*ls = append(*ls, lang.Link{Ref: ref, Tier: tier, Target: target})
	return true
}

// External links reference ref outside the repository.
func (ls *Links) External(ref int) {
	*ls = append(*ls, lang.Link{Ref: ref, Tier: lang.TierUnknown})
}

// File collects the links of one file.
type File struct {
	lang.File
	Facts  *lang.Facts
	ByPath map[string]int64 // the file's symbols by lexical path (first wins)
	Locals LocalIndex
	own    []int64
	links  Links
	linked map[int]int64 // reference -> the symbol it is linked to (0: outside)
}

// NewFile starts linking a file whose symbols (in definition order) are own.
func NewFile(f lang.File, facts *lang.Facts, own []int64) *File {
	lf := &File{File: f, Facts: facts, own: own, ByPath: map[string]int64{}, Locals: NewLocalIndex(facts), linked: map[int]int64{}}
	for i, d := range facts.Defs {
		if _, ok := lf.ByPath[d.Path]; !ok {
			lf.ByPath[d.Path] = lf.DefID(int32(i))
		}
	}
	return lf
}

// DefID is the symbol of definition i of the file, or 0.
func (f *File) DefID(i int32) int64 { return DefID(f.own, i) }

// DefID is the symbol of definition i of a file whose symbols, in
// definition order, are own (as a Linker's Link receives them); 0 when
// there is none.
func DefID(own []int64, i int32) int64 {
	if i >= 0 && int(i) < len(own) {
		return own[i]
	}
	return 0
}

// DefOf is the index of the file's definition whose symbol is id, or -1.
func (f *File) DefOf(id int64) int32 {
	for i, own := range f.own {
		if own == id && id != 0 {
			return int32(i)
		}
	}
	return -1
}

// Add links reference ref to target (nothing for target 0).
func (f *File) Add(ref int, tier lang.Tier, target int64) {
	if f.links.Add(ref, tier, target) {
		f.linked[ref] = target
	}
}

// External links reference ref outside the repository.
func (f *File) External(ref int) { f.links.External(ref) }

// Target is the symbol reference ref is linked to so far (references are
// linked in order, so the earlier ones are settled), or 0.
func (f *File) Target(ref int) int64 { return f.linked[ref] }

// Rules are what a language adds to the shared rules.
type Rules struct {
	// Typed links a member reference strongly before the shared rules (id 0:
	// no link); ok false leaves the reference to them.
	Typed func(ri int, r lang.Ref, name string) (id int64, ok bool)
	// Base is the symbol of member name of the bases of class def cls, for
	// this.name where the class does not declare name; nil: no link.
	Base func(cls int32, name string) int64
	// Other links a reference that no shared rule takes.
	Other func(ri int, r lang.Ref, name string)
}

// Link applies the rules to the file's references and returns its links.
// References are linked in order, except that one whose value comes from a
// later reference (Ref.Via: const { a } = f() reads a before f is called)
// waits until the rest are linked.
func (f *File) Link(ctx context.Context, tops *Tops, rules Rules) []lang.Link {
	var later []int
	for ri, r := range f.Facts.Unbound() {
		if int(r.Via)-1 > ri {
			later = append(later, ri)
			continue
		}
		f.linkRef(ctx, tops, rules, ri, r)
	}
	for _, ri := range later {
		f.linkRef(ctx, tops, rules, ri, f.Facts.Refs[ri])
	}
	if later != nil {
		slices.SortStableFunc(f.links, func(a, b lang.Link) int { return cmp.Compare(a.Ref, b.Ref) })
	}
	return f.links
}

// linkRef applies the rules to reference ri.
func (f *File) linkRef(ctx context.Context, tops *Tops, rules Rules, ri int, r lang.Ref) {
	facts := f.Facts
	name := facts.Names[r.Name]
	if rules.Typed != nil {
		if id, ok := rules.Typed(ri, r, name); ok {
			f.Add(ri, lang.TierStrong, id)
			return
		}
	}
	switch {
	case r.BindDef >= 0 && r.Shape == lang.QualNone:
		f.Add(ri, lang.TierProven, f.DefID(r.BindDef))
	case r.Shape == lang.QualSelf:
		if cls := EnclosingClass(facts, r.Enclosing); cls >= 0 {
			if id := f.ByPath[facts.Defs[cls].Path+"."+name]; id != 0 || rules.Base == nil {
				f.Add(ri, lang.TierProven, id)
			} else {
				f.Add(ri, lang.TierStrong, rules.Base(cls, name))
			}
		}
	case r.Shape == lang.QualIdent && r.QualBound && f.Locals.Binding(facts, r.Qualifier, r.Scope) < 0:
		// Class.member where Class is a class or enum of this file
		f.Add(ri, lang.TierProven, tops.Of(ctx, f.Path).Members[facts.Names[r.Qualifier]+"."+name])
	case rules.Other != nil:
		rules.Other(ri, r, name)
	}
}

// Names reports whether a reference bound to a named import is the
// imported name: where it is used, or in its import specifier.
func Names(im lang.Import, r lang.Ref, name string) bool {
	return name == im.LocalName() || r.Role == lang.RoleImport && name == im.Name
}

// ImportedOutside reports whether a reference bound to an import from
// outside the repository is something that import brings in: the imported
// name (where it is used or in its import specifier), or ns.name and
// module.name on a namespace or module import. Those cannot be symbols of
// the repository.
func ImportedOutside(r lang.Ref, facts *lang.Facts, name string) bool {
	im := facts.Imports[r.BindImp]
	switch r.Shape {
	case lang.QualNone:
		return im.Kind != lang.ImportModule && im.Kind != lang.ImportNamespace && Names(im, r, name)
	case lang.QualIdent:
		return im.Kind == lang.ImportModule || im.Kind == lang.ImportNamespace
	}
	return false
}

// TopNames are the top-level, non-method symbols of a file by name: the
// first of each name, and the first that is a value (not an interface or a
// type alias) where a name has several definitions (TypeScript's merged
// declarations: an interface and a const of one name).
type TopNames struct {
	First  map[string]int64
	values map[string]int64 // only for names whose first definition is a type
	// Members are the direct members of top-level classes and enums, by
	// "Class.member" (static methods and fields reached as Class.member).
	Members map[string]int64
}

// Value is the symbol a call or construction of name means: the first
// definition that can be called when the first one of the name is a type.
func (t *TopNames) Value(name string) int64 {
	if id, ok := t.values[name]; ok {
		return id
	}
	return t.First[name]
}

// Tops keeps the top-level names of the files a batch looks at.
type Tops struct {
	r     lang.Resolver
	files map[string]*TopNames
	seen  Seen
}

// Seen keeps the symbols of the files a batch has looked at, by id.
type Seen map[int64]lang.Symbol

func (s Seen) add(rows []lang.Symbol) []lang.Symbol {
	for _, r := range rows {
		s[r.ID] = r
	}
	return rows
}

// NewTops starts an empty cache.
func NewTops(r lang.Resolver) *Tops { return &Tops{r: r, files: map[string]*TopNames{}, seen: Seen{}} }

// Of is the top-level names of a file.
func (t *Tops) Of(ctx context.Context, p string) *TopNames {
	if m, ok := t.files[p]; ok {
		return m
	}
	m := topLevel(t.seen.add(t.r.Symbols(ctx, p)))
	t.files[p] = m
	return m
}

// topLevel indexes the top-level, non-method symbols of a file by name.
func topLevel(rows []lang.Symbol) *TopNames {
	out := &TopNames{First: map[string]int64{}}
	typeOnly := map[string]bool{}
	for _, r := range rows {
		k := r.Kind
		if r.Parent != 0 || k == lang.KindMethod {
			continue
		}
		isType := k == lang.KindInterface || k == lang.KindType
		if _, ok := out.First[r.Name]; !ok {
			out.First[r.Name] = r.ID
			typeOnly[r.Name] = isType
		} else if typeOnly[r.Name] && !isType {
			if out.values == nil {
				out.values = map[string]int64{}
			}
			if _, ok := out.values[r.Name]; !ok {
				out.values[r.Name] = r.ID
			}
		}
	}
	classes := map[int64]string{}
	for _, r := range rows {
		if k := r.Kind; r.Parent == 0 && (k == lang.KindClass || k == lang.KindEnum) && out.First[r.Name] == r.ID {
			classes[r.ID] = r.Name
		}
	}
	for _, r := range rows {
		if cls, ok := classes[r.Parent]; ok {
			if out.Members == nil {
				out.Members = map[string]int64{}
			}
			if _, ok := out.Members[cls+"."+r.Name]; !ok {
				out.Members[cls+"."+r.Name] = r.ID
			}
		}
	}
	return out
}

// Paths keeps the symbols of the files a batch looks at by lexical path
// (the qualified name without the unit's prefix; first wins).
type Paths struct {
	r     lang.Resolver
	files map[string]map[string]int64
	seen  Seen
}

// NewPaths starts an empty cache.
func NewPaths(r lang.Resolver) *Paths {
	return &Paths{r: r, files: map[string]map[string]int64{}, seen: Seen{}}
}

// Of maps the lexical paths of a file's symbols to their ids.
func (p *Paths) Of(ctx context.Context, file string) map[string]int64 {
	if m, ok := p.files[file]; ok {
		return m
	}
	m := map[string]int64{}
	p.files[file] = m
	if _, ok := p.r.File(file); !ok {
		return m
	}
	unit, sep := p.r.Unit(file)
	prefix := unit + sep
	for _, r := range p.seen.add(p.r.Symbols(ctx, file)) {
		if lp, ok := strings.CutPrefix(r.QName, prefix); ok {
			if _, dup := m[lp]; !dup {
				m[lp] = r.ID
			}
		}
	}
	return m
}

// Required lists the files a file's imports bring in whole (require,
// include), in import order, each once and never the file itself: the
// resolved imports that keep accepts.
func Required(f lang.File, facts *lang.Facts, targets []lang.Target, resolved []bool, keep func(lang.Import) bool) []string {
	var out []string
	seen := map[string]bool{f.Path: true}
	for i, im := range facts.Imports {
		if !resolved[i] || seen[targets[i].File] {
			continue
		}
		if keep(im) {
			seen[targets[i].File] = true
			out = append(out, targets[i].File)
		}
	}
	return out
}

// Imports resolves every import of a file through its batch linker.
func Imports(ctx context.Context, b lang.BatchLinker, f lang.File, facts *lang.Facts) (targets []lang.Target, resolved []bool) {
	targets = make([]lang.Target, len(facts.Imports))
	resolved = make([]bool, len(facts.Imports))
	for i, im := range facts.Imports {
		targets[i], resolved[i] = b.Import(ctx, f, im)
	}
	return targets, resolved
}

// Batch is what the linker of a module language keeps across the files of
// a batch: the resolver, and the top-level names and lexical paths of the
// files it looks at.
type Batch struct {
	R     lang.Resolver
	Tops  *Tops
	Paths *Paths
}

// NewBatch starts a batch.
func NewBatch(r lang.Resolver) Batch {
	b := Batch{R: r, Tops: NewTops(r), Paths: NewPaths(r)}
	b.Paths.seen = b.Tops.seen // one index of the symbols both have looked at
	return b
}

// Symbol is a symbol of the files the batch has looked at (their top-level
// names or lexical paths), by id.
func (b Batch) Symbol(id int64) (lang.Symbol, bool) {
	s, ok := b.Tops.seen[id]
	return s, ok
}

// Exists reports whether the worktree has the path as a file of some language.
func (b Batch) Exists(p string) bool {
	f, ok := b.R.File(p)
	return ok && f.Lang != ""
}
