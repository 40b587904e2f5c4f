// Package repomap describes the repository as a whole: the overview
// (languages, modules), map_repo's sections, the architecture graph of
// modules and directories, and the listing of surfaces (routes,
// configuration keys, tables, ...). Free functions over the request's
// query.Engine; it never writes.
package repomap

import (
	"cmp"
	"context"
	"path"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/manifest"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
)

// Sections are the sections of a map, in the order map_repo returns them.
var Sections = []string{"structure", "languages", "modules", "entry_points", "dependencies", "test_layout", "public_api"}

// Params selects what map_repo builds and bounds it.
type Params struct {
	Include []string // sections (Sections); empty means all
	Depth   int      // directory depth of structure; 0 means 2
	Limit   int      // entries per list (directories, modules, entry points, manifests, dependencies per manifest, test dirs)
	Top     int      // public symbols listed per module
}

// Map is the repository's shape, from the index. Sections not asked for
// are absent; a section asked for is present even when empty.
type Map struct {
	Structure    *Structure       `json:"structure,omitempty"`
	Languages    *[]LanguageCount `json:"languages,omitempty"`
	Modules      *[]ModuleInfo    `json:"modules,omitempty"`
	EntryPoints  *[]EntryPoint    `json:"entry_points,omitempty"`
	Dependencies *[]ManifestDeps  `json:"dependencies,omitempty"`
	TestLayout   *TestLayout      `json:"test_layout,omitempty"`
	PublicAPI    *[]ModuleAPI     `json:"public_api,omitempty"`
	// Cards summarises the spec cards, in a repository that has some.
	Cards *query.CardsSummary `json:"cards,omitempty"`
	// Cuts are the lists the limits shortened (the tool reports them as truncations).
	Cuts []Cut `json:"-"`
}

// Cut is a list shortened by a limit.
type Cut struct {
	Field    string
	Returned int
	Total    int
}

// Structure is the directory tree to a depth.
type Structure struct {
	Depth     int          `json:"depth"`
	Files     int          `json:"files"`
	RootFiles []string     `json:"root_files"` // files directly at the root
	Dirs      []DirSummary `json:"dirs"`       // directories up to depth, by path
}

// DirSummary is a directory with what lies under it (recursively).
type DirSummary struct {
	Path      string         `json:"path"`
	Files     int            `json:"files"`
	Bytes     int64          `json:"bytes"`
	Languages map[string]int `json:"languages"`
}

// EntryPoint is where a program or package starts.
type EntryPoint struct {
	Path string `json:"path"`
	// Kind: go_main (package main with func main), python_main (if __name__ ==
	// "__main__" or a __main__.py), python_script (a [project.scripts] entry),
	// npm_main, npm_bin, npm_exports (package.json), main_file, index_file
	// (main.* or index.* at a module root or its src/).
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Module string `json:"module"`
	Line   int    `json:"line,omitempty"`
	// Source is the manifest that declares it (manifest kinds only).
	Source string `json:"source,omitempty"`
	// Target is what the manifest says (a file, or module:function).
	Target string `json:"target,omitempty"`
	// Indexed is false for a declared file the index does not hold (built output).
	Indexed bool `json:"indexed"`
}

// ManifestDeps are the dependencies one manifest declares.
type ManifestDeps struct {
	Manifest     string       `json:"manifest"`
	Module       string       `json:"module"`
	Total        int          `json:"total"`
	Dependencies []Dependency `json:"dependencies"`
}

// TestLayout is where the tests are, by naming convention.
type TestLayout struct {
	Files     int           `json:"files"`
	Languages []TestsOfLang `json:"languages"`
	// Dirs are the directories holding the most test files.
	Dirs []DirCount `json:"dirs"`
}

// TestsOfLang counts one language's test files.
type TestsOfLang struct {
	Language string `json:"language"`
	Files    int    `json:"files"`
	// Conventions counts files per naming convention (*_test.go, test_*.py,
	// *.test.*, *.spec.*, __tests__/, tests/ dir, ...).
	Conventions map[string]int `json:"conventions"`
	// Colocated test files sit beside the code they test; the others live in
	// directories of their own.
	Colocated int `json:"colocated"`
}

// DirCount is a directory and a count.
type DirCount struct {
	Path  string `json:"path"`
	Files int    `json:"files"`
}

// ModuleAPI is a module's public surface: symbols the language exports
// (Go capitalised names, Python names without a leading underscore, exported
// JS/TS declarations), outside test files and Go main packages.
type ModuleAPI struct {
	Module string         `json:"module"`
	Root   string         `json:"root"`
	Public int            `json:"public"`
	ByKind map[string]int `json:"by_kind"`
	// Top lists top-level public symbols: types first, then functions, then
	// the rest; shallower files first; then by name.
	Top []query.SymbolRef `json:"top"`
}

// Build assembles the sections of a repository map.
func Build(ctx context.Context, e *query.Engine, p Params) (*Map, error) {
	want := map[string]bool{}
	for _, s := range p.Include {
		ok := false
		for _, known := range Sections {
			ok = ok || s == known
		}
		if !ok {
			return nil, errs.E(errs.InvalidArgument, "unknown map section %q; sections: %s", s, strings.Join(Sections, ", "))
		}
		want[s] = true
	}
	all := len(want) == 0
	on := func(s string) bool { return all || want[s] }
	if p.Depth <= 0 {
		p.Depth = 2
	}
	files, mods, err := e.FilesAndModules(ctx)
	if err != nil {
		return nil, err
	}
	m := &mapper{e: e, p: p, files: files, mods: mods, out: &Map{}, modByID: map[int64]store.ModuleRow{}}
	for _, md := range mods {
		m.modByID[md.ID] = md
	}
	ov := overview(files, mods)
	if on("structure") {
		m.structure()
	}
	if on("languages") {
		m.out.Languages = &ov.Languages
	}
	if on("modules") {
		list := cut(m, "modules", ov.Modules)
		m.out.Modules = &list
	}
	if on("entry_points") || on("dependencies") {
		if err := m.readManifests(ctx); err != nil {
			return nil, err
		}
	}
	if on("entry_points") {
		if err := m.entryPoints(ctx); err != nil {
			return nil, err
		}
	}
	if on("dependencies") {
		m.dependencies()
	}
	if on("test_layout") {
		m.testLayout()
	}
	if on("public_api") {
		if err := m.publicAPI(ctx); err != nil {
			return nil, err
		}
	}
	return m.out, nil
}

type mapper struct {
	e       *query.Engine
	p       Params
	files   []store.FileRow
	mods    []store.ModuleRow
	modByID map[int64]store.ModuleRow
	out     *Map
	// manifests are the parsed manifests, by path.
	manifests []parsedManifest
}

type parsedManifest struct {
	file store.FileRow
	m    *manifest.Manifest
}

// cut shortens a list to the limit and records the cut.
func cut[T any](m *mapper, field string, list []T) []T {
	if len(list) > m.p.Limit {
		m.out.Cuts = append(m.out.Cuts, Cut{Field: field, Returned: m.p.Limit, Total: len(list)})
		return list[:m.p.Limit]
	}
	return list
}

func (m *mapper) moduleName(id int64) string { return m.modByID[id].Name }

func (m *mapper) structure() {
	s := &Structure{Depth: m.p.Depth, Files: len(m.files), RootFiles: []string{}, Dirs: []DirSummary{}}
	dirs := map[string]*DirSummary{}
	for _, f := range m.files {
		parts := strings.Split(f.Path, "/")
		if len(parts) == 1 {
			s.RootFiles = append(s.RootFiles, f.Path)
			continue
		}
		l := langName(f.Lang)
		for d := 1; d < len(parts) && d <= m.p.Depth; d++ {
			key := strings.Join(parts[:d], "/")
			ds := dirs[key]
			if ds == nil {
				ds = &DirSummary{Path: key, Languages: map[string]int{}}
				dirs[key] = ds
			}
			ds.Files++
			ds.Bytes += f.Size
			ds.Languages[l]++
		}
	}
	list := make([]DirSummary, 0, len(dirs))
	for _, d := range dirs {
		list = append(list, *d)
	}
	if len(list) > m.p.Limit {
		// Keep the shallowest and largest directories, then show them by path.
		sort.Slice(list, func(i, j int) bool {
			di, dj := strings.Count(list[i].Path, "/"), strings.Count(list[j].Path, "/")
			return cmp.Or(cmp.Compare(di, dj), cmp.Compare(list[j].Files, list[i].Files), cmp.Compare(list[i].Path, list[j].Path)) < 0
		})
		m.out.Cuts = append(m.out.Cuts, Cut{Field: "structure.dirs", Returned: m.p.Limit, Total: len(list)})
		list = list[:m.p.Limit]
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Path < list[j].Path })
	s.Dirs = list
	s.RootFiles = cut(m, "structure.root_files", s.RootFiles)
	m.out.Structure = s
}

// readManifests parses every manifest file the index holds, from its text.
func (m *mapper) readManifests(ctx context.Context) error {
	for _, f := range m.files {
		if !mapFormats[manifest.FormatOf(f.Path)] || f.Status != store.BlobText && f.Status != store.BlobParsed {
			continue
		}
		text, err := m.e.FileText(ctx, f)
		if err != nil {
			return err
		}
		if text == nil {
			continue
		}
		// A malformed manifest gives what could be read; map_repo lists that.
		mf, _ := manifest.Parse(f.Path, text)
		m.manifests = append(m.manifests, parsedManifest{file: f, m: mf})
	}
	return nil
}

func (m *mapper) dependencies() {
	var out []ManifestDeps
	for _, mf := range m.manifests {
		deps := append([]Dependency(nil), mf.m.Dependencies...)
		manifest.SortDependencies(deps)
		md := ManifestDeps{Manifest: mf.file.Path, Module: m.moduleName(mf.file.ModuleID), Total: len(deps), Dependencies: []Dependency{}}
		md.Dependencies = append(md.Dependencies, cut(m, "dependencies of "+mf.file.Path, deps)...)
		out = append(out, md)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Manifest < out[j].Manifest })
	list := cut(m, "dependencies", nonNilDeps(out))
	m.out.Dependencies = &list
}

func nonNilDeps(d []ManifestDeps) []ManifestDeps {
	if d == nil {
		return []ManifestDeps{}
	}
	return d
}

func (m *mapper) testLayout() {
	tl := &TestLayout{Languages: []TestsOfLang{}, Dirs: []DirCount{}}
	byLang := map[string]*TestsOfLang{}
	dirCounts := map[string]int{}
	// Directories holding non-test code, per language: tests there are colocated.
	codeDirs := map[[2]string]bool{}
	type test struct{ dir, lang string }
	var tests []test
	for _, f := range m.files {
		dir := path.Dir(f.Path)
		conv := query.TestConvention(f.Path, f.Lang)
		if conv == "" {
			if f.Lang != "" {
				codeDirs[[2]string{dir, f.Lang}] = true
			}
			continue
		}
		tl.Files++
		t := byLang[f.Lang]
		if t == nil {
			t = &TestsOfLang{Language: f.Lang, Conventions: map[string]int{}}
			byLang[f.Lang] = t
		}
		t.Files++
		t.Conventions[conv]++
		dirCounts[dir]++
		tests = append(tests, test{dir, f.Lang})
	}
	for _, t := range tests {
		if codeDirs[[2]string{t.dir, t.lang}] {
			byLang[t.lang].Colocated++
		}
	}
	for _, t := range byLang {
		tl.Languages = append(tl.Languages, *t)
	}
	sort.Slice(tl.Languages, func(i, j int) bool {
		return cmp.Or(cmp.Compare(tl.Languages[j].Files, tl.Languages[i].Files), cmp.Compare(tl.Languages[i].Language, tl.Languages[j].Language)) < 0
	})
	for d, n := range dirCounts {
		if d == "." {
			d = ""
		}
		tl.Dirs = append(tl.Dirs, DirCount{Path: d, Files: n})
	}
	sort.Slice(tl.Dirs, func(i, j int) bool {
		return cmp.Or(cmp.Compare(tl.Dirs[j].Files, tl.Dirs[i].Files), cmp.Compare(tl.Dirs[i].Path, tl.Dirs[j].Path)) < 0
	})
	tl.Dirs = cut(m, "test_layout.dirs", tl.Dirs)
	m.out.TestLayout = tl
}

// apiKindRank orders public symbols in a module's top list.
var apiKindRank = map[lang.DefKind]int{
	lang.KindInterface: 0, lang.KindClass: 1, lang.KindStruct: 2, lang.KindType: 3, lang.KindEnum: 4,
	lang.KindFunction: 5, lang.KindConstant: 6, lang.KindVariable: 7,
}

// isContainer reports whether a kind of definition only holds others (a
// PHP namespace declaration, a Rust mod): what it holds is the API, not it.
func isContainer(k lang.DefKind) bool { return k == lang.KindNamespace || k == lang.KindModule }

func (m *mapper) publicAPI(ctx context.Context) error {
	syms, err := m.e.AllSymbols(ctx)
	if err != nil {
		return err
	}
	fileByID := map[int64]store.FileRow{}
	for _, f := range m.files {
		fileByID[f.ID] = f
	}
	apis := map[int64]*ModuleAPI{}
	tops := map[int64][]store.SymbolRow{}
	for _, s := range syms {
		if lang.Visibility(s.Visibility) != lang.VisPublic || isContainer(lang.DefKind(s.Kind)) {
			continue
		}
		f, ok := fileByID[s.FileID]
		if !ok || query.IsTestPath(f.Path) || isProgram(f) {
			continue
		}
		a := apis[s.ModuleID]
		if a == nil {
			md := m.modByID[s.ModuleID]
			a = &ModuleAPI{Module: md.Name, Root: md.Root, ByKind: map[string]int{}, Top: []query.SymbolRef{}}
			apis[s.ModuleID] = a
		}
		a.Public++
		a.ByKind[lang.DefKind(s.Kind).String()]++
		if _, ranked := apiKindRank[lang.DefKind(s.Kind)]; ranked && s.Parent == 0 {
			tops[s.ModuleID] = append(tops[s.ModuleID], s)
		}
	}
	var out []ModuleAPI
	for id, a := range apis {
		top := tops[id]
		sort.Slice(top, func(i, j int) bool {
			ki, kj := apiKindRank[lang.DefKind(top[i].Kind)], apiKindRank[lang.DefKind(top[j].Kind)]
			if ki != kj {
				return ki < kj
			}
			di, dj := strings.Count(fileByID[top[i].FileID].Path, "/"), strings.Count(fileByID[top[j].FileID].Path, "/")
			if di != dj {
				return di < dj
			}
			if top[i].QName != top[j].QName {
				return top[i].QName < top[j].QName
			}
			return protocol.NewSymbolID(top[i].ID) < protocol.NewSymbolID(top[j].ID)
		})
		if len(top) > m.p.Top {
			top = top[:m.p.Top]
		}
		refs, err := m.e.SymbolRefs(ctx, top)
		if err != nil {
			return err
		}
		a.Top = append(a.Top, refs...)
		out = append(out, *a)
	}
	sort.Slice(out, func(i, j int) bool {
		return cmp.Or(cmp.Compare(out[i].Root, out[j].Root), cmp.Compare(out[i].Module, out[j].Module)) < 0
	})
	list := cut(m, "public_api", nonNilAPI(out))
	m.out.PublicAPI = &list
	return nil
}

func nonNilAPI(a []ModuleAPI) []ModuleAPI {
	if a == nil {
		return []ModuleAPI{}
	}
	return a
}

// isProgram reports whether a file belongs to a program rather than an API
// (Go's package main).
func isProgram(f store.FileRow) bool {
	mains := lang.Of(f.Lang).Mains
	return mains != nil && mains.Package != "" && f.Pkg == mains.Package
}
