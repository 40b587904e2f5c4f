package index

import (
	"context"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// The linker is the lang.Resolver of the languages' linkers: it answers from
// the batch's world (files, modules, units), the batch's symbols and the
// stored ones, and the files' facts.
var _ lang.Resolver = (*linker)(nil)

func fileOf(f *fileInfo) lang.File { return lang.File{Path: f.path, Lang: f.lang, Pkg: f.pkg} }

// File finds a file of the worktree.
func (l *linker) File(p string) (lang.File, bool) {
	f := l.w.files[p]
	if f == nil {
		return lang.File{}, false
	}
	return fileOf(f), true
}

// Files lists every file of the worktree, by path.
func (l *linker) Files() iter.Seq[lang.File] {
	return func(yield func(lang.File) bool) {
		if l.sorted == nil {
			l.sorted = make([]*fileInfo, 0, len(l.w.files))
			for _, f := range l.w.files {
				l.sorted = append(l.sorted, f)
			}
			sort.Slice(l.sorted, func(i, j int) bool { return l.sorted[i].path < l.sorted[j].path })
		}
		for _, f := range l.sorted {
			if !yield(fileOf(f)) {
				return
			}
		}
	}
}

// Dir lists the files directly in a directory.
func (l *linker) Dir(dir string) []string { return l.w.dirFiles[dir] }

// ReadFile reads a file of the worktree.
func (l *linker) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(l.w.root, filepath.FromSlash(p)))
}

func moduleView(m *Module) lang.Module {
	return lang.Module{ID: m.ID, Root: m.Root, Name: m.Name, Kind: m.Kind, Manifest: m.Manifest}
}

// Modules lists the modules, by root and kind.
func (l *linker) Modules() []lang.Module {
	if l.modules == nil {
		l.modules = []lang.Module{}
		for _, ms := range l.w.mods {
			for _, m := range ms {
				l.modules = append(l.modules, moduleView(m))
			}
		}
		sort.Slice(l.modules, func(i, j int) bool {
			a, b := l.modules[i], l.modules[j]
			if a.Root != b.Root {
				return a.Root < b.Root
			}
			return a.Kind < b.Kind
		})
	}
	return l.modules
}

// ModuleOf finds the module owning a file of a language.
func (l *linker) ModuleOf(p, language string) lang.Module {
	return moduleView(moduleOf(l.w.mods, p, language))
}

// Unit is how the qualified names of a file's symbols begin.
func (l *linker) Unit(p string) (prefix, sep string) {
	f := l.w.files[p]
	if f == nil {
		return "", ""
	}
	u := l.w.unitOf(f)
	return u.prefix, u.sep
}

// Symbols lists the symbols of some files as of this batch.
func (l *linker) Symbols(ctx context.Context, paths ...string) []lang.Symbol {
	var ids []int64
	for _, p := range paths {
		if f := l.w.files[p]; f != nil {
			ids = append(ids, f.id)
		}
	}
	rows, err := l.symbolsOf(ctx, ids)
	if err != nil {
		return nil
	}
	out := make([]lang.Symbol, len(rows))
	for i, r := range rows {
		out[i] = lang.Symbol{ID: r.ID, File: l.pathOf(r.FileID), DefIdx: r.DefIdx, Name: r.Name, QName: r.QName,
			Kind: lang.DefKind(r.Kind), Module: r.ModuleID, Parent: r.Parent}
	}
	return out
}

// Facts decodes another file's facts.
func (l *linker) Facts(ctx context.Context, p string) *lang.Facts {
	return l.factsOf(ctx, l.w.files[p])
}

// Import resolves an import of a file through its language's linker.
func (l *linker) Import(ctx context.Context, from lang.File, im lang.Import) (lang.Target, bool) {
	b := l.batchFor(from.Lang)
	if b == nil {
		return lang.Target{}, false
	}
	return b.Import(ctx, from, im)
}

// Outside says, per import of a file, whether it resolves outside the
// repository: it does not resolve in it, and it names the language's
// standard library or a dependency the file's module declares.
func (l *linker) Outside(from lang.File, facts *lang.Facts, resolved []bool) []bool {
	out := make([]bool, len(facts.Imports))
	var own *Module
	for i, im := range facts.Imports {
		if resolved[i] || im.Source == "" || strings.HasPrefix(im.Source, ".") {
			continue
		}
		if stdlib(from.Lang, im) {
			out[i] = true
			continue
		}
		if own == nil {
			own = moduleOf(l.w.mods, from.Path, from.Lang)
		}
		if declaredDep(own, from.Lang, im.Source) == "" {
			continue
		}
		out[i] = true
	}
	return out
}

// KeepSymbols bounds what the languages' linkers keep loaded.
func (l *linker) KeepSymbols() int { return l.keep }

// factsCap bounds the facts of other files kept decoded while linking.
const factsCap = 64

// factsOf returns the facts of another file (nil when unavailable), decoded
// once while they stay in a small cache: linking looks up the same declaring
// files (bases, result types, callees) again and again.
func (l *linker) factsOf(ctx context.Context, fi *fileInfo) *lang.Facts {
	if fi == nil || l.facts == nil {
		return nil
	}
	if facts, ok := l.loaded[fi.id]; ok {
		return facts
	}
	facts, err := l.facts(ctx, fi)
	if err != nil {
		facts = nil
	}
	if len(l.loaded) >= factsCap || l.loaded == nil {
		l.loaded = map[int64]*lang.Facts{}
	}
	l.loaded[fi.id] = facts
	return facts
}

// symbolsOf returns a file's symbols as of this batch.
func (l *linker) symbolsOf(ctx context.Context, fileIDs []int64) ([]store.SymbolRow, error) {
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
		rows, err := l.stored(ctx, fromDB)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
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
