package index

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/manifest"
	"github.com/cairnhq/cairn/internal/store"
)

// Module is a unit of code defined by a manifest. Ownership is per language
// family: the closest ancestor module of the file's family owns it (so a Go
// module and an npm package can share a directory), then the closest module
// of any family, then the repository root (DESIGN §5 "Modules and contexts").
type Module struct {
	ID       int64
	Root     string // repo-relative directory, "" for the repository root
	Name     string // module path, package name, project name, or the directory
	Kind     string // family: go, javascript, python, rust, jvm, dotnet, ruby, php, dir
	Manifest string
	// Deps are the declared dependencies (their package/module names).
	Deps []string
	// Workspace is the root of the workspace fence that lists this module
	// ("" when none); Detached marks a module inside a fence that does not list it.
	Workspace string
	Detached  bool
}

// manifestPriority orders manifests of one family in one directory: the first names the module.
var manifestPriority = []string{"go.mod", "package.json", "pyproject.toml", "setup.cfg", "setup.py", "Cargo.toml", "pom.xml",
	"build.gradle.kts", "build.gradle", "composer.json", "Gemfile"}

func priority(file string) int {
	base := path.Base(file)
	for i, n := range manifestPriority {
		if n == base {
			return i
		}
	}
	return len(manifestPriority)
}

// detectModules finds the modules of a file list from their manifests
// (internal/manifest parses them). The root always has a module (kind "dir"
// when it has no manifest), so every file has an owner.
func detectModules(root string, paths []string) []Module {
	type key struct{ dir, family string }
	byKey := map[key]Module{}
	// A fence is a workspace manifest: the modules of its family below it
	// belong to it, and those it does not list are detached.
	type fence struct {
		dir, family string
		ws          *manifest.Workspace
	}
	var fences []fence
	for _, p := range paths {
		format := manifest.FormatOf(p)
		if format == "" {
			continue
		}
		dir := lang.DirOf(p)
		data, readErr := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		// A malformed manifest still names its format and gives what could be read.
		mf, _ := manifest.Parse(p, data)
		if readErr != nil && mf.Workspace != nil {
			mf.Workspace = &manifest.Workspace{Open: true} // unreadable: who is in it is unknown
		}
		family := string(mf.Ecosystem)
		if mf.Workspace != nil {
			fences = append(fences, fence{dir: dir, family: family, ws: mf.Workspace})
		}
		if !format.DefinesModule() {
			continue
		}
		k := key{dir, family}
		if old, exists := byKey[k]; exists && priority(old.Manifest) <= priority(p) {
			continue
		}
		name := mf.Name
		if name == "" {
			name = dirName(root, dir)
		}
		byKey[k] = Module{Root: dir, Name: name, Kind: family, Manifest: p, Deps: depNames(mf.Dependencies)}
	}
	if len(byKey) == 0 || !hasRoot(byKey) {
		byKey[key{"", "dir"}] = Module{Root: "", Name: dirName(root, ""), Kind: "dir"}
	}
	mods := make([]Module, 0, len(byKey))
	for _, m := range byKey {
		mods = append(mods, m)
	}
	// The closest fence of the family above a module decides whether it is a member.
	sort.SliceStable(fences, func(i, j int) bool { return len(fences[i].dir) > len(fences[j].dir) })
	for i := range mods {
		m := &mods[i]
		for _, f := range fences {
			if f.family != m.Kind || !inside(m.Root, f.dir) {
				continue
			}
			m.Workspace = f.dir
			if m.Workspace == "" {
				m.Workspace = "." // the repository root fences it
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(m.Root, f.dir), "/")
			m.Detached = !f.ws.Includes(rel)
			break
		}
	}
	sort.Slice(mods, func(i, j int) bool {
		if mods[i].Root != mods[j].Root {
			return mods[i].Root < mods[j].Root
		}
		return mods[i].Kind < mods[j].Kind
	})
	return mods
}

// depNames are the names of the dependencies imports can name, each once:
// Go tool directives name packages to run, not to import.
func depNames(deps []manifest.Dependency) []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range deps {
		if d.Scope == manifest.ScopeTool || seen[d.Name] {
			continue
		}
		seen[d.Name] = true
		out = append(out, d.Name)
	}
	return out
}

func hasRoot[K comparable](m map[K]Module) bool {
	for _, mod := range m {
		if mod.Root == "" {
			return true
		}
	}
	return false
}

// inside reports whether dir is root or below it (segment-safe).
func inside(dir, root string) bool {
	return root == "" || dir == root || strings.HasPrefix(dir, root+"/")
}

// dirName names a module without a manifest name: its directory, or the
// repository's directory name for the root.
func dirName(root, dir string) string {
	if dir == "" {
		return filepath.Base(root)
	}
	return dir
}

// moduleOf finds the module owning a file: the closest ancestor of the file's
// language's ecosystem, else the closest of any, else the root module.
func moduleOf(mods map[string][]*Module, p, language string) *Module {
	family := lang.Of(language).Ecosystem
	var any *Module
	for dir := lang.DirOf(p); ; dir = lang.DirOf(dir) {
		for _, m := range mods[dir] {
			if family != "" && m.Kind == family {
				return m
			}
			if any == nil {
				any = m
			}
		}
		if dir == "" {
			break
		}
	}
	if any != nil {
		return any
	}
	return mods[""][0]
}

// byRoot indexes modules by root directory.
func byRoot(mods []Module) map[string][]*Module {
	out := map[string][]*Module{}
	for i := range mods {
		out[mods[i].Root] = append(out[mods[i].Root], &mods[i])
	}
	return out
}

func toModuleRows(mods []Module) []store.ModuleRow {
	rows := make([]store.ModuleRow, len(mods))
	for i, m := range mods {
		rows[i] = store.ModuleRow{Root: m.Root, Name: m.Name, Kind: m.Kind, Manifest: m.Manifest, Deps: m.Deps,
			Workspace: m.Workspace, Detached: m.Detached}
	}
	return rows
}
