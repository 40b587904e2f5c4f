package query

import (
	"context"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// throughModule resolves a name that reaches a symbol through a module
// which imports it into its own namespace, the way its users import it:
// django.db.models.Model.save, where django/db/models/__init__.py says
// "from django.db.models.base import Model", is
// django.db.models.base.Model.save. The longest module prefix wins.
func (e *Engine) throughModule(ctx context.Context, name string) ([]store.SymbolRow, error) {
	segs := strings.Split(name, ".")
	if len(segs) < 2 {
		return nil, nil
	}
	mods, err := e.Store().Modules(ctx)
	if err != nil {
		return nil, err
	}
	for i := len(segs) - 1; i >= 1; i-- {
		files, err := e.moduleFiles(ctx, mods, strings.Join(segs[:i], "."))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			rows, err := e.inReexport(ctx, f, segs[i], segs[i+1:])
			if err != nil || len(rows) > 0 {
				return rows, err
			}
		}
	}
	return e.throughModuleSuffix(ctx, mods, segs)
}

// throughModuleSuffix is throughModule for a module named by the end of
// its dotted name, as the code importing it writes it (from django.db
// import models; models.CharField): every module so named that binds the
// name answers, each symbol once.
func (e *Engine) throughModuleSuffix(ctx context.Context, mods []store.ModuleRow, segs []string) ([]store.SymbolRow, error) {
	all, err := e.Files(ctx)
	if err != nil {
		return nil, err
	}
	for i := len(segs) - 1; i >= 1; i-- {
		var out []store.SymbolRow
		seen := map[int64]bool{}
		for _, p := range DottedModuleFiles(mods, strings.Join(segs[:i], ".")) {
			for _, f := range all {
				if !strings.HasSuffix(f.Path, "/"+p) {
					continue // an exact path was throughModule's
				}
				rows, err := e.inReexport(ctx, f, segs[i], segs[i+1:])
				if err != nil {
					return nil, err
				}
				for _, r := range rows {
					if !seen[r.ID] {
						seen[r.ID] = true
						out = append(out, r)
					}
				}
			}
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	return nil, nil
}

// inReexport is the symbol that file f binds name to by an import or an
// export of another file's symbol, then the members rest below it.
func (e *Engine) inReexport(ctx context.Context, f store.FileRow, name string, rest []string) ([]store.SymbolRow, error) {
	target, err := e.reexported(ctx, f, name)
	if err != nil || target == 0 {
		return nil, err
	}
	row, ok, err := e.symbolByID(ctx, target)
	if err != nil || !ok {
		return nil, err
	}
	if len(rest) == 0 {
		return []store.SymbolRow{row}, nil
	}
	return e.Store().SymbolsByQName(ctx, row.QName+"."+strings.Join(rest, "."))
}

// reexported is the symbol id that file f binds name to by importing it,
// under that name or as an alias (from .base import Model; export { Foo }
// from './foo'; import { Foo as Bar }), 0 for none.
func (e *Engine) reexported(ctx context.Context, f store.FileRow, name string) (int64, error) {
	return e.reexportedFrom(ctx, f, name, map[int64]bool{})
}

// maxStarHops bounds the chain of star imports followed for one name.
const maxStarHops = 8

// reexportedFrom is reexported, through the star imports of f too (from m
// import *; export * from './m'): the name's top-level definition in the
// module a star import names, or what that module binds it to in turn.
// seen holds the files on the way, which a cycle of star imports meets.
func (e *Engine) reexportedFrom(ctx context.Context, f store.FileRow, name string, seen map[int64]bool) (int64, error) {
	seen[f.ID] = true
	_, facts, err := e.fileFacts(ctx, f.ID)
	if err != nil || facts == nil {
		return 0, err
	}
	var links map[int]index.Link
	for i, r := range facts.Refs {
		if r.Role != lang.RoleImport || r.BindImp < 0 || int(r.BindImp) >= len(facts.Imports) ||
			facts.Imports[r.BindImp].LocalName() != name {
			continue
		}
		if links == nil {
			if links, err = e.Links(ctx, f.ID); err != nil {
				return 0, err
			}
		}
		if l, ok := links[i]; ok && l.Target != 0 {
			return l.Target, nil
		}
	}
	if id, err := e.importedByName(ctx, facts, name); err != nil || id != 0 {
		return id, err
	}
	if len(seen) > maxStarHops {
		return 0, nil
	}
	for _, t := range e.starTargets(ctx, f, facts) {
		if seen[t.ID] {
			continue
		}
		if id, err := e.topLevel(ctx, t, name); err != nil || id != 0 {
			return id, err
		}
		if id, err := e.reexportedFrom(ctx, t, name, seen); err != nil || id != 0 {
			return id, err
		}
	}
	return 0, nil
}

// importedByName is the symbol a named import of the file binds name to
// when the index holds no link for it (Rust's pub use crate::parser::Parser):
// the one symbol its source and name spell, as a qualified name or as the
// language's item path, defined there. 0 for none.
func (e *Engine) importedByName(ctx context.Context, facts *lang.Facts, name string) (int64, error) {
	for _, im := range facts.Imports {
		if im.Kind != lang.ImportNamed || im.LocalName() != name || im.Source == "" {
			continue
		}
		src := im.Source
		if d, ok := lang.Dotted(src); ok {
			src = d
		}
		full := src + "." + im.Name
		rows, err := e.Store().SymbolsByQName(ctx, full)
		if err == nil && len(rows) == 0 {
			rows, err = e.itemPaths(ctx, full, false)
		}
		if err != nil {
			return 0, err
		}
		if len(rows) == 1 {
			return rows[0].ID, nil
		}
	}
	return 0, nil
}

// starTargets are the files of the repository that the star imports of f
// name, in the order f imports them.
func (e *Engine) starTargets(ctx context.Context, f store.FileRow, facts *lang.Facts) []store.FileRow {
	var stars []string
	for _, im := range facts.Imports {
		if im.Kind == lang.ImportAll && im.LocalName() == "" {
			stars = append(stars, im.Source)
		}
	}
	if len(stars) == 0 {
		return nil
	}
	edges, err := e.ImportsOf(ctx, f.ID)
	if err != nil {
		return nil
	}
	var out []store.FileRow
	for _, src := range stars {
		for _, ed := range edges {
			if ed.Source != src || ed.TargetPath == "" {
				continue
			}
			if t, ok, err := e.FileByPath(ctx, ed.TargetPath); err == nil && ok {
				out = append(out, t)
			}
		}
	}
	return out
}

// topLevel is the id of the top-level definition named name in file f, 0
// for none.
func (e *Engine) topLevel(ctx context.Context, f store.FileRow, name string) (int64, error) {
	rows, err := e.SymbolsOfFile(ctx, f.ID)
	if err != nil {
		return 0, err
	}
	for _, r := range rows {
		if r.Parent == 0 && r.Name == name {
			return r.ID, nil
		}
	}
	return 0, nil
}

// moduleFiles are the indexed files that may hold a dotted module
// (DottedModuleFiles).
func (e *Engine) moduleFiles(ctx context.Context, mods []store.ModuleRow, dotted string) ([]store.FileRow, error) {
	var out []store.FileRow
	for _, p := range DottedModuleFiles(mods, dotted) {
		f, ok, err := e.FileByPath(ctx, p)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, f)
		}
	}
	return out, nil
}

// DottedModuleFiles are the paths that may hold a dotted module in the
// languages that name modules so (Python's a.b: a/b.py, a/b/__init__.py),
// below the repository root, then below the roots of the language's
// modules, in that order.
func DottedModuleFiles(mods []store.ModuleRow, dotted string) []string {
	var out []string
	for _, l := range lang.All() {
		if l.Modules == nil {
			continue
		}
		roots := []string{""}
		for _, m := range mods {
			if m.Kind == l.Ecosystem && m.Root != "" {
				roots = append(roots, m.Root)
			}
		}
		sort.Strings(roots)
		for _, r := range roots {
			out = append(out, l.Modules.FilesOf(r, dotted)...)
		}
	}
	return out
}

// byItemPath resolves a name the way a language's code names an item by
// its module path (lang.Language.ItemPaths: Rust's crate::hir::Hir): the
// symbols its highest-ranked readings find, defined in the file or
// re-exported by it (a crate root's pub use).
func (e *Engine) byItemPath(ctx context.Context, name string) ([]store.SymbolRow, error) {
	return e.itemPaths(ctx, name, true)
}

// itemPaths is byItemPath; reexports says whether an item a file only
// imports counts.
func (e *Engine) itemPaths(ctx context.Context, name string, reexports bool) ([]store.SymbolRow, error) {
	var mods []store.ModuleRow
	exists := func(p string) bool {
		_, ok, err := e.FileByPath(ctx, p)
		return err == nil && ok
	}
	var out []store.SymbolRow
	best := -1
	seen := map[int64]bool{}
	done := map[string]bool{}
	for _, l := range lang.All() {
		if l.ItemPaths == nil || done[l.Ecosystem] {
			continue // the languages of one ecosystem read names alike
		}
		done[l.Ecosystem] = true
		if mods == nil {
			var err error
			if mods, err = e.Store().Modules(ctx); err != nil {
				return nil, err
			}
		}
		var pkgs []lang.Package
		for _, m := range mods {
			if m.Kind == l.Ecosystem {
				pkgs = append(pkgs, lang.Package{Name: m.Name, Root: m.Root})
			}
		}
		for _, ip := range l.ItemPaths(name, exists, pkgs) {
			if ip.Rank < best {
				continue
			}
			rows, err := e.itemIn(ctx, ip, reexports)
			if err != nil {
				return nil, err
			}
			if len(rows) == 0 {
				continue
			}
			if ip.Rank > best {
				best, out, seen = ip.Rank, nil, map[int64]bool{}
			}
			for _, r := range rows {
				if !seen[r.ID] {
					seen[r.ID] = true
					out = append(out, r)
				}
			}
		}
	}
	return out, nil
}

// itemIn is the item at a lexical path in a file: defined there, or bound
// there by an import of another file's symbol.
func (e *Engine) itemIn(ctx context.Context, ip lang.ItemPath, reexports bool) ([]store.SymbolRow, error) {
	rows, err := e.byPathName(ctx, ip.File, ip.Path)
	if err != nil || len(rows) > 0 || !reexports {
		return rows, err
	}
	f, ok, err := e.FileByPath(ctx, ip.File)
	if err != nil || !ok {
		return nil, err
	}
	segs := strings.Split(ip.Path, ".")
	return e.inReexport(ctx, f, segs[0], segs[1:])
}
