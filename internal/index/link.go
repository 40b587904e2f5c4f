package index

import (
	"context"
	"encoding/binary"
	"errors"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// Tier says how a reference was resolved (DESIGN §5), best first.
type Tier = lang.Tier

// Tiers. Precise comes from the semantic layer; the syntactic layer sets the rest.
const (
	TierPrecise  = lang.TierPrecise
	TierProven   = lang.TierProven
	TierStrong   = lang.TierStrong
	TierAnchored = lang.TierAnchored
	TierUnknown  = lang.TierUnknown
)

// ParseTier reads a tier name.
func ParseTier(s string) (Tier, bool) { return lang.ParseTier(s) }

// Link is one resolved reference of a file (lang.Link).
type Link = lang.Link

// EncodeLinks packs a file's links (sorted by Ref).
func EncodeLinks(links []Link) []byte {
	buf := binary.AppendUvarint(nil, uint64(len(links)))
	prev := 0
	for _, l := range links {
		buf = binary.AppendUvarint(buf, uint64(l.Ref-prev))
		prev = l.Ref
		buf = append(buf, byte(l.Tier))
		buf = binary.AppendUvarint(buf, uint64(l.Target))
	}
	return buf
}

// DecodeLinks unpacks EncodeLinks output.
func DecodeLinks(b []byte) ([]Link, error) {
	if len(b) == 0 {
		return nil, nil
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errors.New("index: corrupt links")
	}
	b = b[k:]
	out := make([]Link, 0, n)
	prev := 0
	for i := uint64(0); i < n; i++ {
		d, k := binary.Uvarint(b)
		if k <= 0 || len(b) < k+1 {
			return nil, errors.New("index: corrupt links")
		}
		prev += int(d)
		tier := Tier(b[k])
		b = b[k+1:]
		t, k2 := binary.Uvarint(b)
		if k2 <= 0 {
			return nil, errors.New("index: corrupt links")
		}
		b = b[k2:]
		out = append(out, Link{Ref: prev, Tier: tier, Target: int64(t)})
	}
	return out, nil
}

// linker resolves references across files for one reconcile batch.
type linker struct {
	ctx context.Context
	db  *store.DB
	w   *world
	// symbols computed in this batch (not yet visible to other connections), by file id
	batch   map[int64][]store.SymbolRow
	deleted map[int64]bool
	// caches
	byID    map[int64]string     // file id -> path
	fileTop map[string]*topNames // repo path -> top-level names
	script  *scriptCache         // Ruby and PHP (link_script.go)
	// facts loads another file's facts (Rust and C-family linking follow imports)
	facts  func(*fileInfo) (*lang.Facts, error)
	loaded map[int64]*lang.Facts // facts of other files, by file id (a bounded cache: see factsOf)

	batches map[*lang.Linker]lang.BatchLinker // the languages' linkers started in this batch
	byLang  map[string]lang.BatchLinker       // by language name (nil for a language without one)
	sorted  []*fileInfo                       // the world's files by path, for Files
	modules []lang.Module                     // the world's modules, for Modules
}

func newLinker(ctx context.Context, db *store.DB, w *world) *linker {
	return &linker{ctx: ctx, db: db, w: w, batch: map[int64][]store.SymbolRow{}, deleted: map[int64]bool{},
		fileTop: map[string]*topNames{}}
}

// factsCap bounds the facts of other files kept decoded while linking.
const factsCap = 64

// factsOf returns the facts of another file (nil when unavailable), decoded
// once while they stay in a small cache: linking looks up the same declaring
// files (bases, result types, callees) again and again.
func (l *linker) factsOf(fi *fileInfo) *lang.Facts {
	if fi == nil || l.facts == nil {
		return nil
	}
	if facts, ok := l.loaded[fi.id]; ok {
		return facts
	}
	facts, err := l.facts(fi)
	if err != nil {
		facts = nil
	}
	if len(l.loaded) >= factsCap || l.loaded == nil {
		l.loaded = map[int64]*lang.Facts{}
	}
	l.loaded[fi.id] = facts
	return facts
}

// factsAt is factsOf for a repository path.
func (l *linker) factsAt(p string) (*fileInfo, *lang.Facts) {
	fi := l.w.files[p]
	return fi, l.factsOf(fi)
}

// symbolsOf returns a file's symbols as of this batch.
func (l *linker) symbolsOf(fileIDs []int64) ([]store.SymbolRow, error) {
	var out []store.SymbolRow
	var fromDB []int64
	for _, id := range fileIDs {
		if rows, ok := l.batch[id]; ok {
			out = append(out, rows...)
		} else if !l.deleted[id] {
			fromDB = append(fromDB, id)
		}
	}
	if len(fromDB) > 0 {
		rows, err := l.db.SymbolsOfFiles(l.ctx, fromDB)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

// topNames are the top-level, non-method symbols of a file by name: the
// first of each name, and the first that is a value (not an interface or a
// type alias) where a name has several definitions (TypeScript's merged
// declarations: an interface and a const of one name).
type topNames struct {
	first  map[string]int64
	values map[string]int64 // only for names whose first definition is a type
	// members are the direct members of top-level classes and enums, by
	// "Class.member" (static methods and fields reached as Class.member).
	members map[string]int64
}

// topLevel indexes the top-level, non-method symbols of some files by name.
func (l *linker) topLevel(files []string) *topNames {
	var ids []int64
	for _, p := range files {
		if f := l.w.files[p]; f != nil {
			ids = append(ids, f.id)
		}
	}
	rows, err := l.symbolsOf(ids)
	out := &topNames{first: map[string]int64{}}
	if err != nil {
		return out
	}
	typeOnly := map[string]bool{}
	for _, r := range rows {
		k := lang.DefKind(r.Kind)
		if r.Parent != 0 || k == lang.KindMethod {
			continue
		}
		isType := k == lang.KindInterface || k == lang.KindType
		if _, ok := out.first[r.Name]; !ok {
			out.first[r.Name] = r.ID
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
		if k := lang.DefKind(r.Kind); r.Parent == 0 && (k == lang.KindClass || k == lang.KindEnum) && out.first[r.Name] == r.ID {
			classes[r.ID] = r.Name
		}
	}
	for _, r := range rows {
		if cls, ok := classes[r.Parent]; ok {
			if out.members == nil {
				out.members = map[string]int64{}
			}
			if _, ok := out.members[cls+"."+r.Name]; !ok {
				out.members[cls+"."+r.Name] = r.ID
			}
		}
	}
	return out
}

// value is the symbol a call or construction of name means: the first
// definition that can be called when the first one of the name is a type.
func (t *topNames) value(name string) int64 {
	if id, ok := t.values[name]; ok {
		return id
	}
	return t.first[name]
}

// pathOf finds a file's path by id.
func (l *linker) pathOf(id int64) string {
	if l.byID == nil {
		l.byID = make(map[int64]string, len(l.w.files))
		for p, f := range l.w.files {
			l.byID[f.id] = p
		}
	}
	return l.byID[id]
}

func (l *linker) fileTopLevel(p string) map[string]int64 { return l.fileTopNames(p).first }

func (l *linker) fileTopNames(p string) *topNames {
	if m, ok := l.fileTop[p]; ok {
		return m
	}
	m := l.topLevel([]string{p})
	l.fileTop[p] = m
	return m
}

// importTarget is what an import statement points at inside the repository.
type importTarget struct {
	goDir string // a Go package directory
	file  string // a module file (JS/TS/Python)
}

func (l *linker) resolveImport(f *fileInfo, im lang.Import) (importTarget, bool) {
	if b := l.batchFor(f.lang); b != nil {
		t, ok := b.Import(fileOf(f), im)
		return importTarget{goDir: t.Dir, file: t.File}, ok
	}
	switch f.lang {
	case "ruby":
		return l.resolveRuby(f, im)
	case "php":
		return l.resolvePHP(f, im)
	}
	return importTarget{}, false
}

// link resolves the references of one file. own holds the file's symbols in
// definition order.
func (l *linker) link(f *fileInfo, facts *lang.Facts, own []store.SymbolRow) []Link {
	if facts == nil || len(facts.Refs) == 0 {
		return nil
	}
	if b := l.batchFor(f.lang); b != nil {
		ids := make([]int64, len(own))
		for i, s := range own {
			ids[i] = s.ID
		}
		return b.Link(fileOf(f), facts, ids)
	}
	defID := func(i int32) int64 {
		if i >= 0 && int(i) < len(own) {
			return own[i].ID
		}
		return 0
	}
	// member lookup for self/this references, by the definition's lexical path
	byPath := map[string]int64{}
	for i, d := range facts.Defs {
		if _, ok := byPath[d.Path]; !ok {
			byPath[d.Path] = defID(int32(i))
		}
	}
	targets := make([]importTarget, len(facts.Imports))
	resolved := make([]bool, len(facts.Imports))
	for i, im := range facts.Imports {
		targets[i], resolved[i] = l.resolveImport(f, im)
	}
	var script *scriptLinker
	if f.lang == "ruby" || f.lang == "php" {
		script = l.newScriptLinker(f, facts, own, targets, resolved)
	}
	locals := newLocalIndex(facts)
	var links []Link
	add := func(ref int, tier Tier, target int64) {
		if target != 0 {
			links = append(links, Link{Ref: ref, Tier: tier, Target: target})
		}
	}
	for ri, r := range facts.Refs {
		if r.BindLocal >= 0 {
			continue
		}
		name := facts.Names[r.Name]
		switch {
		case r.BindDef >= 0 && r.Shape == lang.QualNone:
			add(ri, TierProven, defID(r.BindDef))
		case r.Shape == lang.QualSelf:
			if cls := enclosingClass(facts, r.Enclosing); cls >= 0 {
				add(ri, TierProven, byPath[facts.Defs[cls].Path+"."+name])
			}
		case r.Shape == lang.QualIdent && r.QualBound && locals.binding(facts, r.Qualifier, r.Scope) < 0:
			// Class.member where Class is a class or enum of this file
			add(ri, TierProven, l.fileTopNames(f.path).members[facts.Names[r.Qualifier]+"."+name])
		case script != nil:
			script.link(ri, r, name, add)
		}
	}
	return links
}

// localIndex finds local bindings by scope and name.
type localIndex map[uint64]int32

func newLocalIndex(f *lang.Facts) localIndex {
	m := make(localIndex, len(f.Locals))
	for i, lo := range f.Locals {
		k := uint64(uint32(lo.Scope))<<32 | uint64(lo.Name)
		if _, ok := m[k]; !ok {
			m[k] = int32(i)
		}
	}
	return m
}

// binding finds the local a name refers to from a scope, or -1.
func (li localIndex) binding(f *lang.Facts, name uint32, scope int32) int32 {
	for s := scope; ; s = f.Scopes[s].Parent {
		if i, ok := li[uint64(uint32(s))<<32|uint64(name)]; ok {
			return i
		}
		if s < 0 {
			return -1
		}
	}
}

// outsideImports says, per import of a file, whether it resolves outside the
// repository: it does not resolve in it, and it names the language's
// standard library or a dependency the file's module declares (a Go
// dependency vendored in the repository does not count).
func (l *linker) outsideImports(f *fileInfo, facts *lang.Facts, resolved []bool) []bool {
	out := make([]bool, len(facts.Imports))
	var own *Module
	for i, im := range facts.Imports {
		if resolved[i] || im.Source == "" || strings.HasPrefix(im.Source, ".") {
			continue
		}
		if stdlib(f.lang, im) {
			out[i] = true
			continue
		}
		if own == nil {
			own = moduleOf(l.w.mods, f.path, f.lang)
		}
		if declaredDep(own, f.lang, im.Source) == "" {
			continue
		}
		if familyOf(f.lang) == "go" && len(l.w.dirFiles[path.Join(own.Root, "vendor", im.Source)]) > 0 {
			continue
		}
		out[i] = true
	}
	return out
}

// enclosingClass finds the innermost class-like definition around def i.
func enclosingClass(facts *lang.Facts, i int32) int32 {
	for i >= 0 {
		if facts.Defs[i].Kind == lang.KindClass || facts.Defs[i].Kind == lang.KindStruct {
			return i
		}
		i = facts.Defs[i].Parent
	}
	return -1
}
