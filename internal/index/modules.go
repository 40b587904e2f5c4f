package index

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

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

// manifest describes a manifest file name and the family it defines.
type manifest struct {
	family string
	// workspace marks files that only fence a workspace (go.work, *.sln,
	// settings.gradle) rather than define a module.
	workspace bool
}

// manifestFor recognises a manifest by its base name.
func manifestFor(base string) (manifest, bool) {
	switch base {
	case "go.mod":
		return manifest{family: "go"}, true
	case "go.work":
		return manifest{family: "go", workspace: true}, true
	case "package.json":
		return manifest{family: "javascript"}, true
	case "pnpm-workspace.yaml":
		return manifest{family: "javascript", workspace: true}, true
	case "pyproject.toml", "setup.py", "setup.cfg":
		return manifest{family: "python"}, true
	case "Cargo.toml":
		return manifest{family: "rust"}, true
	case "pom.xml", "build.gradle", "build.gradle.kts":
		return manifest{family: "jvm"}, true
	case "settings.gradle", "settings.gradle.kts":
		return manifest{family: "jvm", workspace: true}, true
	case "Gemfile":
		return manifest{family: "ruby"}, true
	case "composer.json":
		return manifest{family: "php"}, true
	}
	switch {
	case strings.HasSuffix(base, ".csproj"), strings.HasSuffix(base, ".fsproj"), strings.HasSuffix(base, ".vbproj"):
		return manifest{family: "dotnet"}, true
	case strings.HasSuffix(base, ".sln"):
		return manifest{family: "dotnet", workspace: true}, true
	case strings.HasSuffix(base, ".gemspec"):
		return manifest{family: "ruby"}, true
	}
	return manifest{}, false
}

// manifestPriority orders manifests of one family in one directory: the first names the module.
var manifestPriority = []string{"go.mod", "package.json", "pyproject.toml", "setup.cfg", "setup.py", "Cargo.toml", "pom.xml",
	"build.gradle.kts", "build.gradle", "composer.json", "Gemfile"}

func priority(manifest string) int {
	base := path.Base(manifest)
	for i, n := range manifestPriority {
		if n == base {
			return i
		}
	}
	return len(manifestPriority)
}

// familyOf maps a language to its manifest family ("" for none).
func familyOf(language string) string {
	switch language {
	case "go", "python", "rust", "ruby", "php":
		return language
	case "typescript", "tsx", "javascript":
		return "javascript"
	case "java", "kotlin", "scala":
		return "jvm"
	case "csharp", "fsharp":
		return "dotnet"
	}
	return ""
}

// detectModules finds the modules of a file list. The root always has a module
// (kind "dir" when it has no manifest), so every file has an owner.
func detectModules(root string, paths []string) []Module {
	type key struct{ dir, family string }
	byKey := map[key]Module{}
	type fence struct {
		dir, family string
		members     []string // member roots (repo-relative), after glob expansion
		strict      bool
	}
	var fences []fence
	dirs := map[string]bool{}
	for _, p := range paths {
		dirs[dirOf(p)] = true
	}
	for _, p := range paths {
		base := path.Base(p)
		mf, ok := manifestFor(base)
		if !ok {
			continue
		}
		dir := dirOf(p)
		full := filepath.Join(root, filepath.FromSlash(p))
		info := readManifest(full, base)
		if mf.workspace || info.members != nil {
			fences = append(fences, fence{dir: dir, family: mf.family, members: expandMembers(dir, info.members, dirs), strict: info.strict})
		}
		if mf.workspace {
			continue
		}
		k := key{dir, mf.family}
		if old, exists := byKey[k]; exists && priority(old.Manifest) <= priority(p) {
			continue
		}
		name := info.name
		if name == "" {
			name = dirName(root, dir)
		}
		byKey[k] = Module{Root: dir, Name: name, Kind: mf.family, Manifest: p, Deps: info.deps}
	}
	if len(byKey) == 0 || !hasRoot(byKey) {
		byKey[key{"", "dir"}] = Module{Root: "", Name: dirName(root, ""), Kind: "dir"}
	}
	mods := make([]Module, 0, len(byKey))
	for _, m := range byKey {
		mods = append(mods, m)
	}
	// Workspace fences: the closest fence of the family above a module decides
	// whether it is a member.
	sort.Slice(fences, func(i, j int) bool { return len(fences[i].dir) > len(fences[j].dir) })
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
			if m.Root != f.dir && f.strict && !contains(f.members, m.Root) {
				m.Detached = true
			}
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// expandMembers turns workspace member patterns (relative to dir) into the
// repo-relative directories they match.
func expandMembers(dir string, patterns []string, dirs map[string]bool) []string {
	var out []string
	for _, pat := range patterns {
		pat = strings.TrimSuffix(strings.TrimPrefix(pat, "./"), "/")
		full := pat
		if dir != "" {
			full = dir + "/" + pat
		}
		if !strings.ContainsAny(full, "*?[") {
			out = append(out, full)
			continue
		}
		re := globToRegexp(full)
		for d := range dirs {
			for ; d != ""; d = dirOf(d) {
				if re.MatchString(d) {
					out = append(out, d)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func globToRegexp(g string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case c == '*' && i+1 < len(g) && g[i+1] == '*':
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// dirName names a module without a manifest name: its directory, or the
// repository's directory name for the root.
func dirName(root, dir string) string {
	if dir == "" {
		return filepath.Base(root)
	}
	return dir
}

// manifestInfo is what a manifest says.
type manifestInfo struct {
	name    string
	deps    []string
	members []string // workspace members (patterns), nil when not a workspace
	strict  bool     // members are literal: unlisted modules are detached
}

// readManifest parses the parts of a manifest Cairn uses. Unreadable or
// malformed manifests give what could be read.
func readManifest(file, base string) manifestInfo {
	data, err := os.ReadFile(file)
	if err != nil {
		return manifestInfo{}
	}
	switch {
	case base == "go.mod":
		return goMod(string(data))
	case base == "go.work":
		return goWork(string(data))
	case base == "package.json" || base == "composer.json":
		return packageJSON(data, base)
	case base == "pnpm-workspace.yaml":
		return manifestInfo{members: yamlList(string(data), "packages"), strict: true}
	case base == "pyproject.toml" || base == "setup.cfg" || base == "Cargo.toml":
		return tomlish(string(data), base)
	case base == "setup.py":
		if m := regexp.MustCompile(`name\s*=\s*["']([^"']+)`).FindStringSubmatch(string(data)); m != nil {
			return manifestInfo{name: m[1]}
		}
	case base == "pom.xml":
		return pomXML(data)
	case strings.HasPrefix(base, "build.gradle"):
		return gradle(string(data))
	case strings.HasPrefix(base, "settings.gradle"):
		return gradleSettings(string(data))
	case base == "Gemfile":
		return gemfile(string(data))
	case strings.HasSuffix(base, ".gemspec"):
		if m := regexp.MustCompile(`\.name\s*=\s*["']([^"']+)`).FindStringSubmatch(string(data)); m != nil {
			return manifestInfo{name: m[1]}
		}
	case strings.HasSuffix(base, "proj"):
		return csproj(data, base)
	case strings.HasSuffix(base, ".sln"):
		return sln(string(data))
	}
	return manifestInfo{}
}

func goMod(s string) manifestInfo {
	var info manifestInfo
	inRequire := false
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(strings.Split(line, "//")[0])
		switch {
		case strings.HasPrefix(line, "module "):
			info.name = strings.Trim(strings.TrimSpace(strings.TrimPrefix(line, "module ")), `"`)
		case line == "require (":
			inRequire = true
		case inRequire && line == ")":
			inRequire = false
		case inRequire && line != "":
			info.deps = append(info.deps, strings.Fields(line)[0])
		case strings.HasPrefix(line, "require "):
			if f := strings.Fields(strings.TrimPrefix(line, "require ")); len(f) > 0 {
				info.deps = append(info.deps, f[0])
			}
		}
	}
	return info
}

func goWork(s string) manifestInfo {
	info := manifestInfo{members: []string{}, strict: true}
	inUse := false
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(strings.Split(line, "//")[0])
		switch {
		case line == "use (":
			inUse = true
		case inUse && line == ")":
			inUse = false
		case inUse && line != "":
			info.members = append(info.members, line)
		case strings.HasPrefix(line, "use "):
			info.members = append(info.members, strings.TrimSpace(strings.TrimPrefix(line, "use ")))
		}
	}
	return info
}

func packageJSON(data []byte, base string) manifestInfo {
	var pkg struct {
		Name       string            `json:"name"`
		Deps       map[string]string `json:"dependencies"`
		Dev        map[string]string `json:"devDependencies"`
		Peer       map[string]string `json:"peerDependencies"`
		Require    map[string]string `json:"require"`
		RequireDev map[string]string `json:"require-dev"`
		Workspaces json.RawMessage   `json:"workspaces"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return manifestInfo{}
	}
	info := manifestInfo{name: pkg.Name}
	for _, m := range []map[string]string{pkg.Deps, pkg.Dev, pkg.Peer, pkg.Require, pkg.RequireDev} {
		for k := range m {
			info.deps = append(info.deps, k)
		}
	}
	sort.Strings(info.deps)
	if len(pkg.Workspaces) > 0 {
		var list []string
		if json.Unmarshal(pkg.Workspaces, &list) != nil {
			var obj struct {
				Packages []string `json:"packages"`
			}
			json.Unmarshal(pkg.Workspaces, &obj)
			list = obj.Packages
		}
		info.members, info.strict = append([]string{}, list...), true
	}
	_ = base
	return info
}

// tomlish reads name, dependencies and workspace members from pyproject.toml,
// setup.cfg and Cargo.toml without a full TOML parser.
func tomlish(s, base string) manifestInfo {
	var info manifestInfo
	section := ""
	depRe := regexp.MustCompile(`^["']?([A-Za-z0-9_.\-]+)`)
	inArray := ""
	for _, raw := range strings.Split(s, "\n") {
		line := strings.TrimSpace(raw)
		if i := strings.Index(line, "#"); i == 0 {
			continue
		}
		if inArray != "" {
			if strings.HasPrefix(line, "]") {
				inArray = ""
				continue
			}
			item := strings.Trim(strings.TrimSuffix(line, ","), `"' `)
			switch inArray {
			case "deps":
				if m := depRe.FindStringSubmatch(item); m != nil {
					info.deps = append(info.deps, m[1])
				}
			case "members":
				info.members = append(info.members, item)
			}
			continue
		}
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[] ")
			if section == "workspace" && base == "Cargo.toml" && info.members == nil {
				info.members, info.strict = []string{}, true
			}
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case k == "name" && (section == "project" || section == "tool.poetry" || section == "metadata" || section == "package"):
			info.name = strings.Trim(v, `"'`)
		case section == "project" && k == "dependencies", section == "workspace" && k == "members":
			target := "deps"
			if k == "members" {
				target = "members"
			}
			if strings.HasPrefix(v, "[") && !strings.HasSuffix(v, "]") {
				inArray = target
				continue
			}
			for _, item := range strings.Split(strings.Trim(v, "[]"), ",") {
				item = strings.Trim(strings.TrimSpace(item), `"'`)
				if item == "" {
					continue
				}
				if target == "members" {
					info.members = append(info.members, item)
				} else if m := depRe.FindStringSubmatch(item); m != nil {
					info.deps = append(info.deps, m[1])
				}
			}
		case section == "tool.poetry.dependencies" || section == "dependencies" || section == "dev-dependencies" ||
			section == "build-dependencies" || section == "workspace.dependencies":
			if k != "python" {
				info.deps = append(info.deps, strings.Trim(k, `"'`))
			}
		case section == "options" && k == "install_requires":
			inArray = "deps"
		}
	}
	return info
}

func pomXML(data []byte) manifestInfo {
	var pom struct {
		GroupID    string `xml:"groupId"`
		ArtifactID string `xml:"artifactId"`
		Parent     struct {
			GroupID string `xml:"groupId"`
		} `xml:"parent"`
		Deps []struct {
			GroupID    string `xml:"groupId"`
			ArtifactID string `xml:"artifactId"`
		} `xml:"dependencies>dependency"`
		Modules []string `xml:"modules>module"`
	}
	if xml.Unmarshal(data, &pom) != nil {
		return manifestInfo{}
	}
	group := pom.GroupID
	if group == "" {
		group = pom.Parent.GroupID
	}
	info := manifestInfo{name: strings.TrimPrefix(group+":"+pom.ArtifactID, ":")}
	for _, d := range pom.Deps {
		info.deps = append(info.deps, d.GroupID+":"+d.ArtifactID)
	}
	if len(pom.Modules) > 0 {
		info.members, info.strict = pom.Modules, true
	}
	return info
}

var gradleDep = regexp.MustCompile(`(?:implementation|api|compileOnly|runtimeOnly|testImplementation)\s*\(?\s*["']([^:"']+:[^:"']+)`)

func gradle(s string) manifestInfo {
	var info manifestInfo
	for _, m := range gradleDep.FindAllStringSubmatch(s, -1) {
		info.deps = append(info.deps, m[1])
	}
	return info
}

var gradleInclude = regexp.MustCompile(`include\s*\(?([^)\n]*)`)

func gradleSettings(s string) manifestInfo {
	info := manifestInfo{members: []string{}, strict: true}
	if m := regexp.MustCompile(`rootProject\.name\s*=\s*["']([^"']+)`).FindStringSubmatch(s); m != nil {
		info.name = m[1]
	}
	for _, m := range gradleInclude.FindAllStringSubmatch(s, -1) {
		for _, part := range strings.Split(m[1], ",") {
			part = strings.TrimSpace(part)
			if !(strings.HasPrefix(part, `"`) || strings.HasPrefix(part, `'`)) {
				if part != "" {
					info.strict = false // variables or expressions: cannot tell, fence nothing
				}
				continue
			}
			p := strings.Trim(part, `"' `)
			info.members = append(info.members, strings.ReplaceAll(strings.TrimPrefix(p, ":"), ":", "/"))
		}
	}
	return info
}

var gemLine = regexp.MustCompile(`^\s*gem\s+["']([^"']+)`)

func gemfile(s string) manifestInfo {
	var info manifestInfo
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if m := gemLine.FindStringSubmatch(sc.Text()); m != nil {
			info.deps = append(info.deps, m[1])
		}
	}
	return info
}

func csproj(data []byte, base string) manifestInfo {
	info := manifestInfo{name: strings.TrimSuffix(base, path.Ext(base))}
	var proj struct {
		Refs []struct {
			Include string `xml:"Include,attr"`
		} `xml:"ItemGroup>PackageReference"`
	}
	if xml.Unmarshal(data, &proj) == nil {
		for _, r := range proj.Refs {
			info.deps = append(info.deps, r.Include)
		}
	}
	return info
}

var slnProject = regexp.MustCompile(`Project\([^)]*\)\s*=\s*"[^"]*",\s*"([^"]+\.\w+proj)"`)

func sln(s string) manifestInfo {
	info := manifestInfo{members: []string{}, strict: true}
	for _, m := range slnProject.FindAllStringSubmatch(s, -1) {
		info.members = append(info.members, path.Dir(strings.ReplaceAll(m[1], `\`, "/")))
	}
	return info
}

func yamlList(s, key string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, key+":"):
			in = true
		case in && strings.HasPrefix(t, "- "):
			out = append(out, strings.Trim(strings.TrimSpace(strings.TrimPrefix(t, "- ")), `"'`))
		case in && t != "" && !strings.HasPrefix(t, "#"):
			in = false
		}
	}
	return out
}

// moduleOf finds the module owning a file: the closest ancestor of the file's
// language family, else the closest of any family, else the root module.
func moduleOf(mods map[string][]*Module, p, language string) *Module {
	family := familyOf(language)
	var any *Module
	for dir := dirOf(p); ; dir = dirOf(dir) {
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
