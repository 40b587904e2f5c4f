package repomap

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// maxMainScan bounds the files of a language whose text is checked for
// its main guard.
const maxMainScan = 2000

// entryKindRank orders entry point kinds from the most specific evidence
// (code) to the weakest (a file name); one path keeps its best kind.
var entryKindRank = map[string]int{"go_main": 0, "python_main": 1, "npm_bin": 2, "npm_main": 3, "npm_exports": 4, "python_script": 5, "main_file": 6, "index_file": 7}

// entryPoints lists where programs and packages start: from code, from
// manifests and from file names, the strongest evidence kept per path.
func (m *mapper) entryPoints(ctx context.Context) error {
	byPath := map[string]store.FileRow{}
	for _, f := range m.files {
		byPath[f.Path] = f
	}
	var eps []EntryPoint
	for _, l := range lang.All() {
		if l.Mains == nil {
			continue
		}
		mains, err := m.mains(ctx, l, byPath)
		if err != nil {
			return err
		}
		eps = append(eps, mains...)
	}
	eps = append(eps, m.manifestEntries(byPath)...)
	eps = append(eps, m.entryFiles()...)
	eps = dedupeEntries(eps)
	list := cut(m, "entry_points", eps)
	m.out.EntryPoints = &list
	return nil
}

// mains are the entry points of a language's code (lang.Mains), of the
// kind <language>_main: its main functions, the files holding its main
// guard and the files its name alone makes programs.
func (m *mapper) mains(ctx context.Context, l *lang.Language, byPath map[string]store.FileRow) ([]EntryPoint, error) {
	eps, err := m.mainFuncs(ctx, l)
	if err != nil {
		return nil, err
	}
	guarded, err := m.mainGuards(ctx, l, byPath)
	if err != nil {
		return nil, err
	}
	eps = append(eps, guarded...)
	if name := l.Mains.File; name != "" {
		for _, f := range m.files {
			if f.Lang == l.Name && path.Base(f.Path) == name {
				eps = append(eps, EntryPoint{Path: f.Path, Kind: l.Name + "_main", Name: strings.TrimSuffix(name, path.Ext(name)), Module: m.moduleName(f.ModuleID), Indexed: true})
			}
		}
	}
	return eps, nil
}

// mainFuncs are the top-level main functions of the language's main
// package (Go's func main in package main).
func (m *mapper) mainFuncs(ctx context.Context, l *lang.Language) ([]EntryPoint, error) {
	if l.Mains.Func == "" {
		return nil, nil
	}
	var eps []EntryPoint
	rows, err := m.e.SymbolsByName(ctx, l.Mains.Func)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if lang.DefKind(r.Kind) != lang.KindFunction || r.Parent != 0 {
			continue
		}
		f, ok, err := m.e.FileRowByID(ctx, r.FileID)
		if err != nil {
			return nil, err
		}
		if !ok || f.Lang != l.Name || f.Pkg != l.Mains.Package || query.IsTestPath(f.Path) {
			continue
		}
		ep := EntryPoint{Path: f.Path, Kind: l.Name + "_main", Name: l.Mains.Func, Module: m.moduleName(f.ModuleID), Indexed: true}
		if res, err := m.e.Load(ctx, r); err == nil && res != nil && res.Def != nil {
			ep.Line = int(res.Def.NameSpan.Start.Line)
		}
		eps = append(eps, ep)
	}
	return eps, nil
}

// mainGuards are the files holding the language's main guard (Python's
// if __name__ == "__main__":), found through the lexical tier.
func (m *mapper) mainGuards(ctx context.Context, l *lang.Language, byPath map[string]store.FileRow) ([]EntryPoint, error) {
	if l.Mains.Guard == nil {
		return nil, nil
	}
	var eps []EntryPoint
	hits, err := m.e.TrigramCandidates(ctx, l.Mains.Word)
	if err != nil {
		return nil, err
	}
	scanned := 0
	for _, h := range hits {
		if h.Lang != l.Name || query.IsTestPath(h.Path) {
			continue
		}
		if scanned++; scanned > maxMainScan {
			m.out.Cuts = append(m.out.Cuts, Cut{Field: fmt.Sprintf("entry_points (%s files checked for %s)", l.Name, l.Mains.Word), Returned: maxMainScan, Total: len(hits)})
			break
		}
		text, err := m.e.HitText(ctx, h)
		if err != nil {
			return nil, err
		}
		loc := l.Mains.Guard.FindIndex(text)
		if loc == nil {
			continue
		}
		line := 1 + strings.Count(string(text[:loc[0]]), "\n")
		eps = append(eps, EntryPoint{Path: h.Path, Kind: l.Name + "_main", Name: l.Mains.Word, Module: m.moduleName(byPath[h.Path].ModuleID), Line: line, Indexed: true})
	}
	return eps, nil
}

// manifestEntries are the entry points manifests declare: package.json
// main/module/bin/exports, pyproject scripts.
func (m *mapper) manifestEntries(byPath map[string]store.FileRow) []EntryPoint {
	var eps []EntryPoint
	for _, mf := range m.manifests {
		dir := path.Dir(mf.file.Path)
		if dir == "." {
			dir = ""
		}
		mods := dottedModules(string(mf.m.Ecosystem))
		for _, d := range mf.m.Entries {
			ep := EntryPoint{Kind: d.Kind, Name: d.Name, Module: m.moduleName(mf.file.ModuleID), Source: mf.file.Path, Target: d.Target}
			if mods != nil {
				ep.Path = mf.file.Path
				if p := moduleTarget(mods, dir, d.Target, byPath); p != "" {
					ep.Path = p
				}
			} else {
				ep.Path = path.Join(dir, d.Target)
			}
			_, ep.Indexed = byPath[ep.Path]
			eps = append(eps, ep)
		}
	}
	return eps
}

// entryFiles are the files named main.* or index.* at a module root or in
// its src/.
func (m *mapper) entryFiles() []EntryPoint {
	var eps []EntryPoint
	for _, f := range m.files {
		if f.Lang == "" || query.IsTestPath(f.Path) {
			continue
		}
		base := path.Base(f.Path)
		stem := strings.TrimSuffix(base, path.Ext(base))
		if stem != "main" && stem != "index" {
			continue
		}
		dir := path.Dir(f.Path)
		if dir == "." {
			dir = ""
		}
		root := m.modByID[f.ModuleID].Root
		if dir != root && dir != path.Join(root, "src") {
			continue
		}
		eps = append(eps, EntryPoint{Path: f.Path, Kind: stem + "_file", Name: base, Module: m.moduleName(f.ModuleID), Indexed: true})
	}
	return eps
}

// dedupeEntries keeps, for each path and name, the entry with the strongest
// evidence, and orders them by module, path, kind and name. Manifest entries
// with different names (several bins of one file) all stay.
func dedupeEntries(eps []EntryPoint) []EntryPoint {
	sort.SliceStable(eps, func(i, j int) bool {
		a, b := eps[i], eps[j]
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(entryKindRank[a.Kind], entryKindRank[b.Kind]), cmp.Compare(a.Name, b.Name)) < 0
	})
	out := []EntryPoint{}
	seenPath := map[string]bool{}
	seen := map[[3]string]bool{}
	for _, ep := range eps {
		weak := ep.Kind == "main_file" || ep.Kind == "index_file"
		if weak && seenPath[ep.Path] {
			continue // a file name adds nothing to stronger evidence for the same file
		}
		key := [3]string{ep.Path, ep.Kind, ep.Name}
		if seen[key] {
			continue
		}
		seen[key] = true
		seenPath[ep.Path] = true
		out = append(out, ep)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j] // every kind has a rank of its own
		return cmp.Or(cmp.Compare(a.Module, b.Module), cmp.Compare(a.Path, b.Path), cmp.Compare(entryKindRank[a.Kind], entryKindRank[b.Kind]), cmp.Compare(a.Name, b.Name)) < 0
	})
	return out
}

// dottedModules is how the languages of a manifest ecosystem name modules,
// when by dotted paths (a pyproject script's target is package.module:function);
// nil when the entries a manifest declares are paths.
func dottedModules(ecosystem string) *lang.DottedModules {
	for _, l := range lang.All() {
		if l.Ecosystem == ecosystem && l.Modules != nil {
			return l.Modules
		}
	}
	return nil
}

// moduleTarget finds the file of a "package.module:function" entry's
// module, at the project root or under src/.
func moduleTarget(mods *lang.DottedModules, dir, target string, files map[string]store.FileRow) string {
	mod, _, _ := strings.Cut(target, ":")
	mod = strings.TrimSpace(mod)
	if mod == "" {
		return ""
	}
	for _, base := range []string{dir, path.Join(dir, "src")} {
		for _, cand := range mods.FilesOf(base, mod) {
			if _, ok := files[cand]; ok {
				return cand
			}
		}
	}
	return ""
}
