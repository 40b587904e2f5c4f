package query

import (
	"context"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/manifest"
	"github.com/cairnhq/cairn/internal/store"
)

// Map sections, in the order map_repo returns them.
var MapSections = []string{"structure", "languages", "modules", "entry_points", "dependencies", "test_layout", "public_api"}

// MapParams selects what map_repo builds and bounds it.
type MapParams struct {
	Include []string // sections (MapSections); empty means all
	Depth   int      // directory depth of structure; 0 means 2
	Limit   int      // entries per list (directories, modules, entry points, manifests, dependencies per manifest, test dirs)
	Top     int      // public symbols listed per module
}

// RepoMap is the repository's shape, from the index. Sections not asked for
// are absent; a section asked for is present even when empty.
type RepoMap struct {
	Structure    *Structure       `json:"structure,omitempty"`
	Languages    *[]LanguageCount `json:"languages,omitempty"`
	Modules      *[]ModuleInfo    `json:"modules,omitempty"`
	EntryPoints  *[]EntryPoint    `json:"entry_points,omitempty"`
	Dependencies *[]ManifestDeps  `json:"dependencies,omitempty"`
	TestLayout   *TestLayout      `json:"test_layout,omitempty"`
	PublicAPI    *[]ModuleAPI     `json:"public_api,omitempty"`
	// Cards summarises the spec cards, in a repository that has some.
	Cards *CardsSummary `json:"cards,omitempty"`
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
	Top []SymbolRef `json:"top"`
}

// pythonMainRe finds the script guard of a Python module.
var pythonMainRe = regexp.MustCompile(`(?m)^[ \t]*if\s+__name__\s*==\s*['"]__main__['"]\s*:`)

// maxMainScan bounds the Python files whose text is checked for the guard.
const maxMainScan = 2000

// Map builds the sections of a repository map.
func (e *Engine) Map(ctx context.Context, p MapParams) (*RepoMap, error) {
	want := map[string]bool{}
	for _, s := range p.Include {
		ok := false
		for _, known := range MapSections {
			ok = ok || s == known
		}
		if !ok {
			return nil, errs.E(errs.InvalidArgument, "unknown map section %q; sections: %s", s, strings.Join(MapSections, ", "))
		}
		want[s] = true
	}
	all := len(want) == 0
	on := func(s string) bool { return all || want[s] }
	if p.Depth <= 0 {
		p.Depth = 2
	}
	files, err := e.db().Files(ctx)
	if err != nil {
		return nil, err
	}
	mods, err := e.db().Modules(ctx)
	if err != nil {
		return nil, err
	}
	m := &mapper{e: e, p: p, files: files, mods: mods, out: &RepoMap{}, modByID: map[int64]store.ModuleRow{}}
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
	e       *Engine
	p       MapParams
	files   []store.FileRow
	mods    []store.ModuleRow
	modByID map[int64]store.ModuleRow
	out     *RepoMap
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
			if di != dj {
				return di < dj
			}
			if list[i].Files != list[j].Files {
				return list[i].Files > list[j].Files
			}
			return list[i].Path < list[j].Path
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
		text, err := m.e.db().BlobText(ctx, f.BlobID)
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

// entryKindRank orders entry point kinds from the most specific evidence
// (code) to the weakest (a file name); one path keeps its best kind.
var entryKindRank = map[string]int{"go_main": 0, "python_main": 1, "npm_bin": 2, "npm_main": 3, "npm_exports": 4, "python_script": 5, "main_file": 6, "index_file": 7}

func (m *mapper) entryPoints(ctx context.Context) error {
	byPath := map[string]store.FileRow{}
	for _, f := range m.files {
		byPath[f.Path] = f
	}
	var eps []EntryPoint
	// Go: func main in package main.
	rows, err := m.e.db().SymbolsByName(ctx, "main")
	if err != nil {
		return err
	}
	for _, r := range rows {
		if lang.DefKind(r.Kind) != lang.KindFunction || r.Parent != 0 {
			continue
		}
		f, ok, err := m.e.db().FileByID(ctx, r.FileID)
		if err != nil {
			return err
		}
		if !ok || f.Lang != "go" || f.Pkg != "main" || isTestPath(f.Path) {
			continue
		}
		ep := EntryPoint{Path: f.Path, Kind: "go_main", Name: "main", Module: m.moduleName(f.ModuleID), Indexed: true}
		if res, err := m.e.load(ctx, r); err == nil && res != nil && res.def != nil {
			ep.Line = int(res.def.NameSpan.Start.Line)
		}
		eps = append(eps, ep)
	}
	// Python: the __main__ guard, found through the lexical tier, and __main__.py.
	hits, err := m.e.db().TrigramCandidates(ctx, "__main__")
	if err != nil {
		return err
	}
	scanned := 0
	for _, h := range hits {
		if h.Lang != "python" || isTestPath(h.Path) {
			continue
		}
		if scanned++; scanned > maxMainScan {
			m.out.Cuts = append(m.out.Cuts, Cut{Field: "entry_points (python files checked for __main__)", Returned: maxMainScan, Total: len(hits)})
			break
		}
		text, err := m.e.db().BlobText(ctx, h.BlobID)
		if err != nil {
			return err
		}
		loc := pythonMainRe.FindIndex(text)
		if loc == nil {
			continue
		}
		line := 1 + strings.Count(string(text[:loc[0]]), "\n")
		eps = append(eps, EntryPoint{Path: h.Path, Kind: "python_main", Name: "__main__", Module: m.moduleName(byPath[h.Path].ModuleID), Line: line, Indexed: true})
	}
	for _, f := range m.files {
		if path.Base(f.Path) == "__main__.py" {
			eps = append(eps, EntryPoint{Path: f.Path, Kind: "python_main", Name: "__main__", Module: m.moduleName(f.ModuleID), Indexed: true})
		}
	}
	// Manifests: package.json main/module/bin/exports, pyproject scripts.
	for _, mf := range m.manifests {
		dir := path.Dir(mf.file.Path)
		if dir == "." {
			dir = ""
		}
		for _, d := range mf.m.Entries {
			ep := EntryPoint{Kind: d.Kind, Name: d.Name, Module: m.moduleName(mf.file.ModuleID), Source: mf.file.Path, Target: d.Target}
			if d.Kind == "python_script" {
				ep.Path = mf.file.Path
				if p := pythonTarget(dir, d.Target, byPath); p != "" {
					ep.Path = p
				}
			} else {
				ep.Path = path.Join(dir, d.Target)
			}
			_, ep.Indexed = byPath[ep.Path]
			eps = append(eps, ep)
		}
	}
	// File names: main.* and index.* at a module root or in its src/.
	for _, f := range m.files {
		if f.Lang == "" || isTestPath(f.Path) {
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
	eps = dedupeEntries(eps)
	list := cut(m, "entry_points", eps)
	m.out.EntryPoints = &list
	return nil
}

// dedupeEntries keeps, for each path and name, the entry with the strongest
// evidence, and orders them by module, path, kind and name. Manifest entries
// with different names (several bins of one file) all stay.
func dedupeEntries(eps []EntryPoint) []EntryPoint {
	sort.SliceStable(eps, func(i, j int) bool {
		a, b := eps[i], eps[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if entryKindRank[a.Kind] != entryKindRank[b.Kind] {
			return entryKindRank[a.Kind] < entryKindRank[b.Kind]
		}
		return a.Name < b.Name
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
		a, b := out[i], out[j]
		if a.Module != b.Module {
			return a.Module < b.Module
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Kind != b.Kind {
			return entryKindRank[a.Kind] < entryKindRank[b.Kind]
		}
		return a.Name < b.Name
	})
	return out
}

// pythonTarget finds the file of a "package.module:function" script target,
// at the project root or under src/.
func pythonTarget(dir, target string, files map[string]store.FileRow) string {
	mod, _, _ := strings.Cut(target, ":")
	mod = strings.TrimSpace(mod)
	if mod == "" {
		return ""
	}
	rel := strings.ReplaceAll(mod, ".", "/")
	for _, base := range []string{dir, path.Join(dir, "src")} {
		for _, cand := range []string{path.Join(base, rel+".py"), path.Join(base, rel, "__init__.py")} {
			if _, ok := files[cand]; ok {
				return cand
			}
		}
	}
	return ""
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

// testConvention names the naming convention that makes a file a test, or "".
func testConvention(p, language string) string {
	base := path.Base(p)
	slash := "/" + p
	inDir := func(d string) bool { return strings.Contains(slash, "/"+d+"/") }
	if inDir("testdata") || inDir("fixtures") || language == "" {
		return ""
	}
	switch language {
	case "go":
		if strings.HasSuffix(base, "_test.go") {
			return "*_test.go"
		}
		return ""
	case "python":
		switch {
		case base == "conftest.py":
			return "conftest.py"
		case strings.HasPrefix(base, "test_"):
			return "test_*.py"
		case strings.HasSuffix(base, "_test.py"):
			return "*_test.py"
		}
	case "typescript", "tsx", "javascript":
		switch {
		case strings.Contains(base, ".test."):
			return "*.test.*"
		case strings.Contains(base, ".spec."):
			return "*.spec.*"
		case inDir("__tests__"):
			return "__tests__/"
		}
	}
	switch {
	case inDir("tests"):
		return "tests/ dir"
	case inDir("test"):
		return "test/ dir"
	}
	return ""
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
		conv := testConvention(f.Path, f.Lang)
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
		if tl.Languages[i].Files != tl.Languages[j].Files {
			return tl.Languages[i].Files > tl.Languages[j].Files
		}
		return tl.Languages[i].Language < tl.Languages[j].Language
	})
	for d, n := range dirCounts {
		if d == "." {
			d = ""
		}
		tl.Dirs = append(tl.Dirs, DirCount{Path: d, Files: n})
	}
	sort.Slice(tl.Dirs, func(i, j int) bool {
		if tl.Dirs[i].Files != tl.Dirs[j].Files {
			return tl.Dirs[i].Files > tl.Dirs[j].Files
		}
		return tl.Dirs[i].Path < tl.Dirs[j].Path
	})
	tl.Dirs = cut(m, "test_layout.dirs", tl.Dirs)
	m.out.TestLayout = tl
}

// apiKindRank orders public symbols in a module's top list.
var apiKindRank = map[lang.DefKind]int{
	lang.KindInterface: 0, lang.KindClass: 1, lang.KindStruct: 2, lang.KindType: 3, lang.KindEnum: 4,
	lang.KindFunction: 5, lang.KindConstant: 6, lang.KindVariable: 7,
}

func (m *mapper) publicAPI(ctx context.Context) error {
	syms, err := m.e.db().AllSymbols(ctx)
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
		if lang.Visibility(s.Visibility) != lang.VisPublic {
			continue
		}
		f, ok := fileByID[s.FileID]
		if !ok || isTestPath(f.Path) || (f.Lang == "go" && f.Pkg == "main") {
			continue
		}
		a := apis[s.ModuleID]
		if a == nil {
			md := m.modByID[s.ModuleID]
			a = &ModuleAPI{Module: md.Name, Root: md.Root, ByKind: map[string]int{}, Top: []SymbolRef{}}
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
			return index.FormatID(top[i].ID) < index.FormatID(top[j].ID)
		})
		if len(top) > m.p.Top {
			top = top[:m.p.Top]
		}
		refs, err := m.e.refs(ctx, top)
		if err != nil {
			return err
		}
		a.Top = append(a.Top, refs...)
		out = append(out, *a)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Root != out[j].Root {
			return out[i].Root < out[j].Root
		}
		return out[i].Module < out[j].Module
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
