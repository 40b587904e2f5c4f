package testrun

import (
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Options describe a repository for discovery.
type Options struct {
	Root string // absolute
	// Files are the repository's files, repo-relative (what the index sees:
	// tracked and untracked, minus ignored and pruned directories).
	Files []string
	// Runners are the configured choices, "language=runner".
	Runners []string
	// Exclude are globs of test files to leave out.
	Exclude []string
}

// runnerLangs maps each runner to the language it serves (a configured
// runner must serve the language it is set for).
var runnerLangs = map[string]string{
	"go": "go", "pytest": "python", "unittest": "python", "jest": "javascript", "vitest": "javascript", "node": "javascript",
	"cargo": "rust", "maven": "java", "gradle": "java", "dotnet": "csharp", "rspec": "ruby",
}

// Discover lists the test targets of a repository, sorted by id.
func Discover(o Options) ([]Target, error) {
	configured := map[string]string{}
	for _, kv := range o.Runners {
		lang, r, ok := strings.Cut(kv, "=")
		lang, r = strings.TrimSpace(lang), strings.TrimSpace(r)
		if !ok || runnerLangs[r] == "" {
			return nil, &ConfigError{Entry: kv}
		}
		if lang == "typescript" {
			lang = "javascript"
		}
		configured[lang] = r
	}
	d := &discovery{o: o, configured: configured, files: map[string]bool{}, byDir: map[string][]string{}}
	for _, f := range o.Files {
		d.files[f] = true
		dir := path.Dir(f)
		d.byDir[dir] = append(d.byDir[dir], path.Base(f))
	}
	var targets []Target
	for _, f := range o.Files {
		if excluded(f, o.Exclude) {
			continue
		}
		if t, ok := d.target(f); ok {
			targets = append(targets, t)
		}
	}
	targets = merge(targets)
	sort.Slice(targets, func(i, j int) bool { return targets[i].ID < targets[j].ID })
	return targets, nil
}

// ConfigError is a tests.runners entry that names no known runner.
type ConfigError struct{ Entry string }

func (e *ConfigError) Error() string {
	names := slices.Sorted(maps.Keys(runnerLangs))
	return "tests.runners entry " + quote(e.Entry) + " is not language=runner with a runner among " + strings.Join(names, ", ")
}

func quote(s string) string { return "\"" + s + "\"" }

func excluded(f string, globs []string) bool {
	for _, g := range globs {
		if ok, _ := path.Match(g, f); ok {
			return true
		}
		if strings.HasPrefix(g, "**/") {
			if ok, _ := path.Match(g[3:], path.Base(f)); ok {
				return true
			}
		}
		if strings.HasSuffix(g, "/**") && strings.HasPrefix(f, strings.TrimSuffix(g, "**")) {
			return true
		}
	}
	return false
}

type discovery struct {
	o          Options
	configured map[string]string
	files      map[string]bool
	byDir      map[string][]string
}

// target makes the target a file belongs to, when it is a test file. A
// package-level target (Go, a crate, a build module) is made once per file
// and merged.
func (d *discovery) target(f string) (Target, bool) {
	base := path.Base(f)
	ext := path.Ext(base)
	switch {
	case strings.HasSuffix(base, "_test.go"):
		return d.goTarget(f)
	case ext == ".py" && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")):
		return d.pythonTarget(f)
	case isJSTest(f):
		return d.jsTarget(f)
	case ext == ".rs":
		return d.rustTarget(f)
	case ext == ".java" || ext == ".kt":
		return d.jvmTarget(f)
	case ext == ".cs":
		return d.dotnetTarget(f)
	case strings.HasSuffix(base, "_spec.rb"):
		return d.rubyTarget(f)
	}
	return Target{}, false
}

func isJSTest(f string) bool {
	base := path.Base(f)
	ext := path.Ext(base)
	switch ext {
	case ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts":
	default:
		return false
	}
	stem := strings.TrimSuffix(base, ext)
	return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") || strings.Contains("/"+f, "/__tests__/")
}

// nearest finds the closest directory at or above dir (up to the root)
// holding one of names; "" and false when none does.
func (d *discovery) nearest(dir string, names ...string) (string, string, bool) {
	for {
		for _, n := range names {
			if d.files[join(dir, n)] {
				return dir, n, true
			}
		}
		if dir == "." || dir == "" {
			return "", "", false
		}
		dir = path.Dir(dir)
	}
}

func join(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// rel is f relative to dir.
func rel(dir, f string) string {
	if dir == "." || dir == "" {
		return f
	}
	return strings.TrimPrefix(f, dir+"/")
}

// read reads a repo file (empty when it cannot).
func (d *discovery) read(f string) string {
	b, err := os.ReadFile(filepath.Join(d.o.Root, filepath.FromSlash(f)))
	if err != nil {
		return ""
	}
	return string(b)
}

func (d *discovery) goTarget(f string) (Target, bool) {
	for _, seg := range strings.Split(path.Dir(f), "/") {
		if seg == "testdata" || strings.HasPrefix(seg, "_") || (strings.HasPrefix(seg, ".") && seg != ".") {
			return Target{}, false // go test skips these directories
		}
	}
	mod, _, ok := d.nearest(path.Dir(f), "go.mod")
	if !ok {
		return Target{}, false
	}
	pkg := path.Dir(f)
	arg, imp := "./"+rel(mod, pkg), d.modulePath(mod)+"/"+rel(mod, pkg)
	if pkg == mod {
		arg, imp = ".", d.modulePath(mod)
	}
	return Target{ID: "go:" + pkg, Runner: "go", Language: "go", Path: pkg, Dir: mod, Cmd: []string{"go", "test", "-json", arg},
		ResolvedBy: "marker " + join(mod, "go.mod"), Available: have("go"), Files: []string{f}, Package: imp}, true
}

// modulePath is the module path a go.mod declares.
func (d *discovery) modulePath(mod string) string {
	for _, line := range strings.Split(d.read(join(mod, "go.mod")), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

func (d *discovery) pythonTarget(f string) (Target, bool) {
	if path.Base(f) == "conftest.py" {
		return Target{}, false
	}
	root, marker, ok := d.nearest(path.Dir(f), "pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini", "setup.py", "conftest.py")
	if !ok {
		root = "."
	}
	runner, by := d.configured["python"], "config"
	if runner == "" {
		switch {
		case ok && marker == "pytest.ini", ok && marker == "conftest.py":
			runner, by = "pytest", "marker "+join(root, marker)
		case ok && (marker == "pyproject.toml" && strings.Contains(d.read(join(root, marker)), "[tool.pytest")):
			runner, by = "pytest", "marker "+join(root, marker)
		case ok && (marker == "setup.cfg" && strings.Contains(d.read(join(root, marker)), "[tool:pytest]")):
			runner, by = "pytest", "marker "+join(root, marker)
		case ok && (marker == "tox.ini" && strings.Contains(d.read(join(root, marker)), "[pytest]")):
			runner, by = "pytest", "marker "+join(root, marker)
		case pytestCommand() != nil:
			runner, by = "pytest", "default"
		default:
			runner, by = "unittest", "default (pytest is not installed)"
		}
	}
	t := Target{ID: runner + ":" + f, Runner: runner, Language: "python", Path: f, Dir: root, ResolvedBy: by, Files: []string{f}}
	if runner == "pytest" {
		t.Cmd = append(pytestCommand(), "-q", "-p", "no:cacheprovider", rel(root, f))
		t.Available = pytestCommand() != nil
	} else {
		mod := strings.ReplaceAll(strings.TrimSuffix(rel(root, f), ".py"), "/", ".")
		t.Cmd = []string{python(), "-m", "unittest", "-v", mod}
		t.Available = have(python())
	}
	return t, true
}

// pytestCommand is how pytest runs here: its own program, else python -m
// pytest when the module is there; nil when it is not installed.
func pytestCommand() []string {
	if have("pytest") {
		return []string{"pytest"}
	}
	if exec.Command(python(), "-c", "import pytest").Run() == nil {
		return []string{python(), "-m", "pytest"}
	}
	return nil
}

func python() string {
	if have("python3") {
		return "python3"
	}
	return "python"
}

func (d *discovery) jsTarget(f string) (Target, bool) {
	root, _, ok := d.nearest(path.Dir(f), "package.json")
	if !ok {
		root = "."
	}
	runner, by := d.configured["javascript"], "config"
	if runner == "" {
		runner, by = d.jsMarkers(root)
	}
	t := Target{ID: runner + ":" + f, Runner: runner, Language: "javascript", Path: f, Dir: root, ResolvedBy: by, Files: []string{f}}
	r := rel(root, f)
	switch runner {
	case "vitest":
		bin, ok := d.nodeBin(root, "vitest")
		t.Cmd, t.Available = []string{bin, "run", r}, ok
	case "node":
		t.Cmd, t.Available = []string{"node", "--test", r}, have("node")
	default:
		bin, ok := d.nodeBin(root, "jest")
		t.Cmd, t.Available = []string{bin, "--ci", "--runTestsByPath", r}, ok
	}
	return t, true
}

// jsMarkers picks jest, vitest or node --test from a package's files.
func (d *discovery) jsMarkers(root string) (string, string) {
	for _, n := range []string{"vitest.config.ts", "vitest.config.js", "vitest.config.mjs", "vitest.config.mts"} {
		if d.files[join(root, n)] {
			return "vitest", "marker " + join(root, n)
		}
	}
	for _, n := range []string{"jest.config.js", "jest.config.ts", "jest.config.json", "jest.config.mjs", "jest.config.cjs"} {
		if d.files[join(root, n)] {
			return "jest", "marker " + join(root, n)
		}
	}
	pj := d.read(join(root, "package.json"))
	switch {
	case strings.Contains(pj, `"jest"`):
		return "jest", "marker " + join(root, "package.json") + " (jest)"
	case strings.Contains(pj, `"vitest"`):
		return "vitest", "marker " + join(root, "package.json") + " (vitest)"
	case strings.Contains(pj, "node --test"):
		return "node", "marker " + join(root, "package.json") + " (node --test)"
	}
	return "jest", "default"
}

// nodeBin finds a package's program in node_modules/.bin at or above root
// (as a path relative to root), else on PATH; false when neither has it.
func (d *discovery) nodeBin(root, name string) (string, bool) {
	dir := root
	up := ""
	for {
		p := filepath.Join(d.o.Root, filepath.FromSlash(dir), "node_modules", ".bin", name)
		if _, err := os.Stat(p); err == nil {
			return filepath.ToSlash(filepath.Join(up, "node_modules", ".bin", name)), true
		}
		if dir == "." || dir == "" {
			break
		}
		dir, up = path.Dir(dir), up+"../"
	}
	return name, have(name)
}

func (d *discovery) rustTarget(f string) (Target, bool) {
	crate, _, ok := d.nearest(path.Dir(f), "Cargo.toml")
	if !ok {
		return Target{}, false
	}
	r := rel(crate, f)
	if !strings.HasPrefix(r, "tests/") {
		src := d.read(f)
		if !strings.Contains(src, "#[test]") && !strings.Contains(src, "#[cfg(test)]") {
			return Target{}, false
		}
	}
	return Target{ID: "cargo:" + crate, Runner: "cargo", Language: "rust", Path: crate, Dir: crate,
		Cmd: []string{"cargo", "test", "--no-fail-fast", "--color", "never"}, ResolvedBy: "marker " + join(crate, "Cargo.toml"), Available: have("cargo"), Files: []string{f}}, true
}

func (d *discovery) jvmTarget(f string) (Target, bool) {
	stem := strings.TrimSuffix(path.Base(f), path.Ext(f))
	if !(strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "IT") || strings.Contains(f, "src/test/")) {
		return Target{}, false
	}
	root, marker, ok := d.nearest(path.Dir(f), "pom.xml", "build.gradle", "build.gradle.kts")
	if !ok {
		return Target{}, false
	}
	runner, by := d.configured["java"], "config"
	if runner == "" {
		runner, by = "maven", "marker "+join(root, marker)
		if marker != "pom.xml" {
			runner = "gradle"
		}
	}
	t := Target{ID: runner + ":" + root, Runner: runner, Language: "java", Path: root, Dir: root, ResolvedBy: by, Files: []string{f}}
	if runner == "gradle" {
		bin := "gradle"
		if d.files[join(root, "gradlew")] {
			bin = "./gradlew"
		}
		t.Cmd, t.Available = []string{bin, "test", "--console=plain"}, bin == "./gradlew" || have("gradle")
	} else {
		t.Cmd, t.Available = []string{"mvn", "-B", "-q", "test"}, have("mvn")
	}
	return t, true
}

func (d *discovery) dotnetTarget(f string) (Target, bool) {
	dir := path.Dir(f)
	for {
		for _, n := range d.byDir[dir] {
			if strings.HasSuffix(n, ".csproj") {
				proj := join(dir, n)
				src := d.read(proj)
				if !strings.Contains(src, "Microsoft.NET.Test.Sdk") && !strings.Contains(src, "xunit") && !strings.Contains(src, "NUnit") && !strings.Contains(src, "MSTest") {
					return Target{}, false
				}
				return Target{ID: "dotnet:" + proj, Runner: "dotnet", Language: "csharp", Path: proj, Dir: dir,
					Cmd: []string{"dotnet", "test", n, "--nologo"}, ResolvedBy: "marker " + proj, Available: have("dotnet"), Files: []string{f}}, true
			}
		}
		if dir == "." {
			return Target{}, false
		}
		dir = path.Dir(dir)
	}
}

func (d *discovery) rubyTarget(f string) (Target, bool) {
	root, marker, ok := d.nearest(path.Dir(f), ".rspec", "Gemfile")
	if !ok {
		root = "."
	}
	by := "default"
	if ok {
		by = "marker " + join(root, marker)
	}
	cmd := []string{"rspec"}
	if d.files[join(root, "Gemfile")] {
		cmd = []string{"bundle", "exec", "rspec"}
	}
	return Target{ID: "rspec:" + f, Runner: "rspec", Language: "ruby", Path: f, Dir: root, Cmd: append(cmd, rel(root, f)),
		ResolvedBy: by, Available: have(cmd[0]), Files: []string{f}}, true
}

// merge joins targets with the same id (a package's several test files).
func merge(ts []Target) []Target {
	by := map[string]int{}
	var out []Target
	for _, t := range ts {
		if i, ok := by[t.ID]; ok {
			out[i].Files = append(out[i].Files, t.Files...)
			continue
		}
		by[t.ID] = len(out)
		out = append(out, t)
	}
	for i := range out {
		sort.Strings(out[i].Files)
		out[i].Cost = 1
	}
	return out
}

func have(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}
