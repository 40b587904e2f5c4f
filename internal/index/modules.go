package index

import (
	"bufio"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/store"
)

// manifestKinds maps manifest file names to module kinds.
var manifestKinds = map[string]string{
	"go.mod":         "go",
	"package.json":   "npm",
	"pyproject.toml": "python",
	"setup.py":       "python",
	"setup.cfg":      "python",
	"Cargo.toml":     "cargo",
}

// manifestPriority orders manifests that share a directory (the first names the module).
var manifestPriority = []string{"go.mod", "Cargo.toml", "package.json", "pyproject.toml", "setup.cfg", "setup.py"}

// Module is a unit of code defined by a manifest: the closest ancestor owns a file.
type Module struct {
	ID       int64
	Root     string // repo-relative directory, "" for the repository root
	Name     string // go module path, npm package name, Python project name, or the directory
	Kind     string
	Manifest string
}

// detectModules finds the modules of a file list. The root always has a module
// (kind "dir" when it has no manifest), so every file has an owner.
func detectModules(root string, paths []string) []Module {
	byDir := map[string]Module{}
	for _, p := range paths {
		base := path.Base(p)
		kind, ok := manifestKinds[base]
		if !ok {
			continue
		}
		dir := path.Dir(p)
		if dir == "." {
			dir = ""
		}
		if old, exists := byDir[dir]; exists && priority(old.Manifest) <= priority(p) {
			continue
		}
		name := manifestName(filepath.Join(root, filepath.FromSlash(p)), base)
		if name == "" {
			name = dirName(root, dir)
		}
		byDir[dir] = Module{Root: dir, Name: name, Kind: kind, Manifest: p}
	}
	if _, ok := byDir[""]; !ok {
		byDir[""] = Module{Root: "", Name: dirName(root, ""), Kind: "dir"}
	}
	mods := make([]Module, 0, len(byDir))
	for _, m := range byDir {
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Root < mods[j].Root })
	return mods
}

func priority(manifest string) int {
	base := path.Base(manifest)
	for i, n := range manifestPriority {
		if n == base {
			return i
		}
	}
	return len(manifestPriority)
}

// dirName names a module without a manifest: its directory, or the repository's
// directory name for the root.
func dirName(root, dir string) string {
	if dir == "" {
		return filepath.Base(root)
	}
	return dir
}

// manifestName reads the module name from a manifest ("" when it has none).
func manifestName(file, base string) string {
	switch base {
	case "go.mod":
		return firstField(file, "module")
	case "package.json":
		data, err := os.ReadFile(file)
		if err != nil {
			return ""
		}
		var pkg struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(data, &pkg) == nil {
			return pkg.Name
		}
	case "pyproject.toml", "setup.cfg":
		return iniName(file, "project", "tool.poetry", "metadata")
	case "Cargo.toml":
		return iniName(file, "package") // a workspace's root manifest has none: the directory names it
	}
	return ""
}

// firstField returns the value after keyword on the first line starting with it.
func firstField(file, keyword string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, keyword+" "); ok {
			return strings.Trim(strings.TrimSpace(strings.Split(rest, "//")[0]), `"`)
		}
	}
	return ""
}

// iniName reads name = "..." from one of the sections.
func iniName(file string, sections ...string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	section := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[] ")
			continue
		}
		if !slices.Contains(sections, section) {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(k) == "name" {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}

// moduleOf finds the module owning a file: the closest ancestor directory.
func moduleOf(mods map[string]*Module, p string) *Module {
	dir := path.Dir(p)
	for {
		if dir == "." {
			dir = ""
		}
		if m, ok := mods[dir]; ok {
			return m
		}
		if dir == "" {
			return mods[""]
		}
		dir = path.Dir(dir)
	}
}

func toModuleRows(mods []Module) []store.ModuleRow {
	rows := make([]store.ModuleRow, len(mods))
	for i, m := range mods {
		rows[i] = store.ModuleRow{Root: m.Root, Name: m.Name, Kind: m.Kind, Manifest: m.Manifest}
	}
	return rows
}
