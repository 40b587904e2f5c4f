package query

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path"
	"sort"
	"strings"
)

// Manifest parsing for map_repo: dependencies and declared entry points of
// go.mod, package.json, pyproject.toml and requirements*.txt. The parsers read
// the text the lexical tier holds (what was indexed), understand the common
// forms only, and never fail: what they cannot read they leave out.

// Dependency is one declared dependency of a manifest.
type Dependency struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"` // the constraint as written
	// Scope is runtime, dev, peer, optional, indirect (Go) or tool (Go).
	Scope string `json:"scope"`
}

// declared is an entry point a manifest declares.
type declared struct {
	kind   string // npm_main, npm_bin, npm_exports, python_script
	name   string
	target string // a path relative to the manifest's directory, or a Python "module:function"
}

type manifestFacts struct {
	deps    []Dependency
	entries []declared
}

// manifestKind says whether a file name is a manifest map_repo reads.
func manifestKind(p string) string {
	base := path.Base(p)
	switch {
	case base == "go.mod", base == "package.json", base == "pyproject.toml":
		return base
	case strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt"):
		return "requirements.txt"
	}
	return ""
}

func parseManifest(p string, text []byte) manifestFacts {
	switch manifestKind(p) {
	case "go.mod":
		return parseGoMod(text)
	case "package.json":
		return parsePackageJSON(text)
	case "pyproject.toml":
		return parsePyproject(text)
	case "requirements.txt":
		scope := "runtime"
		if b := path.Base(p); strings.Contains(b, "dev") || strings.Contains(b, "test") {
			scope = "dev"
		}
		return parseRequirements(text, scope)
	}
	return manifestFacts{}
}

var scopeOrder = map[string]int{"runtime": 0, "peer": 1, "optional": 2, "dev": 3, "tool": 4, "indirect": 5}

// sortDeps orders dependencies by scope (runtime first), then name.
func sortDeps(ds []Dependency) {
	sort.SliceStable(ds, func(i, j int) bool {
		if a, b := scopeOrder[ds[i].Scope], scopeOrder[ds[j].Scope]; a != b {
			return a < b
		}
		if ds[i].Name != ds[j].Name {
			return ds[i].Name < ds[j].Name
		}
		return ds[i].Version < ds[j].Version
	})
}

// parseGoMod reads require (single lines and blocks) and tool directives.
func parseGoMod(text []byte) manifestFacts {
	var mf manifestFacts
	block := "" // the directive of an open ( ... ) block
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		code, comment, _ := strings.Cut(strings.TrimSpace(sc.Text()), "//")
		code = strings.TrimSpace(code)
		comment = strings.TrimSpace(comment)
		indirect := comment == "indirect" || strings.HasPrefix(comment, "indirect;")
		if block != "" {
			if code == ")" {
				block = ""
				continue
			}
			mf.addGo(block, code, indirect)
			continue
		}
		directive, rest, _ := strings.Cut(code, " ")
		if directive != "require" && directive != "tool" {
			continue
		}
		if rest = strings.TrimSpace(rest); rest == "(" {
			block = directive
			continue
		}
		mf.addGo(directive, rest, indirect)
	}
	return mf
}

func (mf *manifestFacts) addGo(directive, code string, indirect bool) {
	f := strings.Fields(code)
	if len(f) == 0 {
		return
	}
	d := Dependency{Name: strings.Trim(f[0], `"`), Scope: "runtime"}
	switch {
	case directive == "tool":
		d.Scope = "tool"
	case indirect:
		d.Scope = "indirect"
	}
	if directive == "require" && len(f) > 1 {
		d.Version = f[1]
	}
	mf.deps = append(mf.deps, d)
}

// parsePackageJSON reads dependency maps and main, module, bin and exports.
func parsePackageJSON(text []byte) manifestFacts {
	var pkg struct {
		Name     string            `json:"name"`
		Main     string            `json:"main"`
		Module   string            `json:"module"`
		Bin      json.RawMessage   `json:"bin"`
		Exports  json.RawMessage   `json:"exports"`
		Deps     map[string]string `json:"dependencies"`
		Dev      map[string]string `json:"devDependencies"`
		Peer     map[string]string `json:"peerDependencies"`
		Optional map[string]string `json:"optionalDependencies"`
	}
	var mf manifestFacts
	if json.Unmarshal(text, &pkg) != nil {
		return mf
	}
	for _, set := range []struct {
		m     map[string]string
		scope string
	}{{pkg.Deps, "runtime"}, {pkg.Dev, "dev"}, {pkg.Peer, "peer"}, {pkg.Optional, "optional"}} {
		for name, v := range set.m {
			mf.deps = append(mf.deps, Dependency{Name: name, Version: v, Scope: set.scope})
		}
	}
	if pkg.Main != "" {
		mf.entries = append(mf.entries, declared{kind: "npm_main", name: "main", target: pkg.Main})
	}
	if pkg.Module != "" {
		mf.entries = append(mf.entries, declared{kind: "npm_main", name: "module", target: pkg.Module})
	}
	var binOne string
	var binMany map[string]string
	if json.Unmarshal(pkg.Bin, &binOne) == nil && binOne != "" {
		name := pkg.Name
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:] // a scoped package's bin is named without the scope
		}
		mf.entries = append(mf.entries, declared{kind: "npm_bin", name: name, target: binOne})
	} else if json.Unmarshal(pkg.Bin, &binMany) == nil {
		for name, t := range binMany {
			mf.entries = append(mf.entries, declared{kind: "npm_bin", name: name, target: t})
		}
	}
	for key, t := range exportTargets(pkg.Exports) {
		mf.entries = append(mf.entries, declared{kind: "npm_exports", name: key, target: t})
	}
	return mf
}

// exportTargets flattens package.json "exports" to subpath -> file: a string
// is ".", a map of subpaths keeps each, and condition maps ({"import": ...,
// "require": ...}) pick default, then import, then require, then node.
func exportTargets(raw json.RawMessage) map[string]string {
	out := map[string]string{}
	if len(raw) == 0 {
		return out
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if one != "" {
			out["."] = one
		}
		return out
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return out
	}
	subpaths := false
	for k := range m {
		if strings.HasPrefix(k, ".") {
			subpaths = true
		}
	}
	if !subpaths {
		if t := conditionTarget(raw, 0); t != "" {
			out["."] = t
		}
		return out
	}
	for k, v := range m {
		if t := conditionTarget(v, 0); t != "" && !strings.Contains(k, "*") {
			out[k] = t
		}
	}
	return out
}

func conditionTarget(raw json.RawMessage, depth int) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var m map[string]json.RawMessage
	if depth > 4 || json.Unmarshal(raw, &m) != nil {
		return ""
	}
	for _, cond := range []string{"default", "import", "require", "node"} {
		if v, ok := m[cond]; ok {
			if t := conditionTarget(v, depth+1); t != "" {
				return t
			}
		}
	}
	return ""
}

// parseRequirements reads requirement lines, skipping options and includes.
func parseRequirements(text []byte, scope string) manifestFacts {
	var mf manifestFacts
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.Index(line, " #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" || line[0] == '#' || line[0] == '-' || strings.Contains(line, "://") {
			continue
		}
		if d, ok := pep508(line, scope); ok {
			mf.deps = append(mf.deps, d)
		}
	}
	return mf
}

// pep508 splits a requirement like "requests[socks]>=2.0; python_version<'3.8'"
// into its name and the rest (extras dropped).
func pep508(s, scope string) (Dependency, bool) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (isAlnum(s[i]) || s[i] == '.' || s[i] == '_' || s[i] == '-') {
		i++
	}
	if i == 0 {
		return Dependency{}, false
	}
	name, rest := s[:i], strings.TrimSpace(s[i:])
	if strings.HasPrefix(rest, "[") {
		if j := strings.IndexByte(rest, ']'); j >= 0 {
			rest = strings.TrimSpace(rest[j+1:])
		}
	}
	return Dependency{Name: name, Version: rest, Scope: scope}, true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// parsePyproject reads PEP 621 dependencies, optional dependencies, scripts,
// PEP 735 dependency groups and Poetry's tables from a TOML subset: sections,
// key = "string", key = [array of strings] (across lines) and inline tables.
func parsePyproject(text []byte) manifestFacts {
	var mf manifestFacts
	section := ""
	lines := strings.Split(string(text), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(stripTOMLComment(lines[i]))
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") && !strings.HasPrefix(line, "[[") {
			section = strings.TrimSpace(strings.Trim(line, "[]"))
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key = strings.Trim(strings.TrimSpace(key), `"'`)
		val = strings.TrimSpace(val)
		// Gather a multi-line array or inline table.
		for open := bracketDepth(val); open > 0 && i+1 < len(lines); open = bracketDepth(val) {
			i++
			val += " " + strings.TrimSpace(stripTOMLComment(lines[i]))
		}
		switch {
		case section == "project" && key == "dependencies":
			for _, s := range tomlStrings(val) {
				if d, ok := pep508(s, "runtime"); ok {
					mf.deps = append(mf.deps, d)
				}
			}
		case section == "project.optional-dependencies":
			for _, s := range tomlStrings(val) {
				if d, ok := pep508(s, "optional"); ok {
					mf.deps = append(mf.deps, d)
				}
			}
		case section == "dependency-groups":
			scope := "dev"
			for _, s := range tomlStrings(val) {
				if d, ok := pep508(s, scope); ok {
					mf.deps = append(mf.deps, d)
				}
			}
		case section == "project.scripts" || section == "project.gui-scripts" || section == "tool.poetry.scripts":
			if t := tomlString(val); t != "" {
				mf.entries = append(mf.entries, declared{kind: "python_script", name: key, target: t})
			}
		case section == "tool.poetry.dependencies" || section == "tool.poetry.dev-dependencies" ||
			strings.HasPrefix(section, "tool.poetry.group.") && strings.HasSuffix(section, ".dependencies"):
			if key == "python" {
				continue
			}
			scope := "runtime"
			if section != "tool.poetry.dependencies" {
				scope = "dev"
			}
			v := tomlString(val)
			if v == "" && strings.HasPrefix(val, "{") {
				v = inlineValue(val, "version")
			}
			mf.deps = append(mf.deps, Dependency{Name: key, Version: v, Scope: scope})
		}
	}
	return mf
}

// stripTOMLComment drops a # comment that is outside quotes.
func stripTOMLComment(s string) string {
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0 && c == '\\' && q == '"':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == 0 && c == '#':
			return s[:i]
		}
	}
	return s
}

// bracketDepth is how many [ or { are open at the end of s, outside quotes.
func bracketDepth(s string) int {
	depth := 0
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0 && c == '\\' && q == '"':
			i++
		case q != 0 && c == q:
			q = 0
		case q != 0:
		case c == '"' || c == '\'':
			q = c
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		}
	}
	return depth
}

// tomlStrings returns the quoted strings of a value, in order.
func tomlStrings(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		q := s[i]
		if q != '"' && q != '\'' {
			continue
		}
		j := i + 1
		var b strings.Builder
		for ; j < len(s) && s[j] != q; j++ {
			if q == '"' && s[j] == '\\' && j+1 < len(s) {
				j++
			}
			b.WriteByte(s[j])
		}
		out = append(out, b.String())
		i = j
	}
	return out
}

// tomlString is the value when it is one quoted string, else "".
func tomlString(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		if ss := tomlStrings(s); len(ss) == 1 {
			return ss[0]
		}
	}
	return ""
}

// inlineValue reads key = "v" inside an inline table { ... }.
func inlineValue(table, key string) string {
	body := strings.Trim(strings.TrimSpace(table), "{}")
	for _, part := range strings.Split(body, ",") {
		k, v, ok := strings.Cut(part, "=")
		if ok && strings.TrimSpace(k) == key {
			return tomlString(v)
		}
	}
	return ""
}
