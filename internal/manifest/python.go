package manifest

import (
	"bufio"
	"bytes"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// parsePyproject reads PEP 621 (name, dependencies, optional dependencies,
// scripts), PEP 735 dependency groups and Poetry's tables.
func parsePyproject(m *Manifest, data []byte) error {
	type poetryDeps map[string]any // name -> "constraint", {version = ...} or a list of those
	var doc struct {
		Project struct {
			Name                 string              `toml:"name"`
			Dependencies         []string            `toml:"dependencies"`
			OptionalDependencies map[string][]string `toml:"optional-dependencies"`
			Scripts              map[string]string   `toml:"scripts"`
			GUIScripts           map[string]string   `toml:"gui-scripts"`
		} `toml:"project"`
		// Groups hold requirement strings and {include-group = "..."} tables.
		DependencyGroups map[string][]any `toml:"dependency-groups"`
		Tool             struct {
			Poetry struct {
				Name            string     `toml:"name"`
				Dependencies    poetryDeps `toml:"dependencies"`
				DevDependencies poetryDeps `toml:"dev-dependencies"`
				Group           map[string]struct {
					Dependencies poetryDeps `toml:"dependencies"`
				} `toml:"group"`
				Scripts map[string]any `toml:"scripts"` // "module:function" or {callable = ...}
			} `toml:"poetry"`
		} `toml:"tool"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		return err
	}
	p, poetry := doc.Project, doc.Tool.Poetry
	m.Name = p.Name
	if m.Name == "" {
		m.Name = poetry.Name
	}
	m.addRequirements(p.Dependencies, ScopeRuntime)
	for _, extra := range slices.Sorted(maps.Keys(p.OptionalDependencies)) {
		m.addRequirements(p.OptionalDependencies[extra], ScopeOptional)
	}
	for _, group := range slices.Sorted(maps.Keys(doc.DependencyGroups)) {
		for _, item := range doc.DependencyGroups[group] {
			if s, ok := item.(string); ok {
				m.addRequirements([]string{s}, ScopeDev)
			}
		}
	}
	addPoetry := func(deps poetryDeps, scope Scope) {
		delete(deps, "python") // the interpreter, not a package
		addSorted(m, deps, scope, tableVersion)
	}
	addPoetry(poetry.Dependencies, ScopeRuntime)
	addPoetry(poetry.DevDependencies, ScopeDev)
	for _, g := range slices.Sorted(maps.Keys(poetry.Group)) {
		addPoetry(poetry.Group[g].Dependencies, ScopeDev)
	}
	for _, scripts := range []map[string]string{p.Scripts, p.GUIScripts} {
		for _, name := range slices.Sorted(maps.Keys(scripts)) {
			m.Entries = append(m.Entries, Entry{Kind: "python_script", Name: name, Target: scripts[name]})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(poetry.Scripts)) {
		target, _ := poetry.Scripts[name].(string)
		if t, ok := poetry.Scripts[name].(map[string]any); ok {
			target, _ = t["callable"].(string)
		}
		if target != "" {
			m.Entries = append(m.Entries, Entry{Kind: "python_script", Name: name, Target: target})
		}
	}
	return nil
}

// addRequirements adds PEP 508 requirement strings.
func (m *Manifest) addRequirements(reqs []string, scope Scope) {
	for _, r := range reqs {
		if name, rest, ok := pep508(r); ok {
			m.add(name, rest, scope)
		}
	}
}

// pep508 splits a requirement like "requests[socks]>=2.0; python_version<'3.8'"
// into its name and the rest (extras dropped). A name starts with a letter
// or digit.
func pep508(s string) (name, rest string, ok bool) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (isAlnum(s[i]) || i > 0 && (s[i] == '.' || s[i] == '_' || s[i] == '-')) {
		i++
	}
	if i == 0 {
		return "", "", false
	}
	name, rest = s[:i], strings.TrimSpace(s[i:])
	if strings.HasPrefix(rest, "[") {
		if j := strings.IndexByte(rest, ']'); j >= 0 {
			rest = strings.TrimSpace(rest[j+1:])
		}
	}
	return name, rest, true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// requirementsScope is the scope a requirements file's name gives its
// dependencies: requirements-test.txt, requirements-dev.txt, requirements.txt.
func requirementsScope(base string) Scope {
	switch {
	case strings.Contains(base, "test"):
		return ScopeTest
	case strings.Contains(base, "dev"):
		return ScopeDev
	}
	return ScopeRuntime
}

// parseRequirements reads a pip requirements file: one requirement a line,
// backslash continuations joined; options (-r, -e, --index-url), per-line
// options (--hash) and bare URLs or paths are left out.
func parseRequirements(m *Manifest, data []byte, scope Scope) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	var line string
	for sc.Scan() {
		text := sc.Text()
		if strings.HasSuffix(text, `\`) {
			line += strings.TrimSuffix(text, `\`) + " "
			continue
		}
		line += text
		req := strings.TrimSpace(line)
		line = ""
		if i := strings.Index(req, " #"); i >= 0 {
			req = req[:i]
		}
		if i := strings.Index(req, " --"); i >= 0 {
			req = req[:i]
		}
		if req == "" || req[0] == '#' || req[0] == '-' {
			continue
		}
		name, rest, ok := pep508(req)
		if !ok || strings.Contains(req, "://") && !strings.HasPrefix(rest, "@") {
			continue // a URL (git+https://...) rather than a named requirement
		}
		m.add(name, strings.TrimSpace(rest), scope)
	}
}

// parseSetupCfg reads [metadata] name and the requirement lists of
// [options] (install_requires, tests_require, setup_requires) and
// [options.extras_require].
func parseSetupCfg(m *Manifest, data []byte) {
	ini := parseINI(data)
	m.Name = ini["metadata"]["name"]
	opts := ini["options"]
	m.addRequirements(iniList(opts["install_requires"]), ScopeRuntime)
	extras := ini["options.extras_require"]
	for _, extra := range slices.Sorted(maps.Keys(extras)) {
		m.addRequirements(iniList(extras[extra]), ScopeOptional)
	}
	m.addRequirements(iniList(opts["tests_require"]), ScopeTest)
	m.addRequirements(iniList(opts["setup_requires"]), ScopeBuild)
}

// parseINI reads an INI file the way Python's configparser does by default:
// [section] headers, "key = value" or "key: value" (keys lowercased),
// values continued on indented lines, # and ; comment lines.
func parseINI(data []byte) map[string]map[string]string {
	out := map[string]map[string]string{}
	section, key := "", ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if (raw[0] == ' ' || raw[0] == '\t') && key != "" {
			out[section][key] += "\n" + line
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section, key = strings.TrimSpace(line[1:len(line)-1]), ""
			if out[section] == nil {
				out[section] = map[string]string{}
			}
			continue
		}
		i := strings.IndexAny(line, "=:")
		if i < 0 || out[section] == nil {
			key = ""
			continue
		}
		key = strings.ToLower(strings.TrimSpace(line[:i]))
		out[section][key] = strings.TrimSpace(line[i+1:])
	}
	return out
}

// iniList splits a setup.cfg list value: one item a line.
func iniList(v string) []string {
	var out []string
	for _, line := range strings.Split(v, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

var (
	setupPyName     = regexp.MustCompile(`\bname\s*=\s*["']([^"']+)["']`)
	setupPyRequires = regexp.MustCompile(`\b(install_requires|tests_require|setup_requires)\s*=\s*\[([^\]]*)\]`)
	quoted          = regexp.MustCompile(`"([^"\\]*)"|'([^'\\]*)'`)
)

// parseSetupPy reads what a setup.py writes literally: name="..." and the
// install_requires, tests_require and setup_requires lists of strings.
// Computed values are out of reach of a parser.
func parseSetupPy(m *Manifest, data []byte) {
	if s := setupPyName.FindSubmatch(data); s != nil {
		m.Name = string(s[1])
	}
	scopes := map[string]Scope{"install_requires": ScopeRuntime, "tests_require": ScopeTest, "setup_requires": ScopeBuild}
	for _, s := range setupPyRequires.FindAllSubmatch(data, -1) {
		m.addRequirements(quotedStrings(s[2]), scopes[string(s[1])])
	}
}

// quotedStrings returns the '...' and "..." strings of a text, in order.
func quotedStrings(b []byte) []string {
	var out []string
	for _, q := range quoted.FindAllSubmatch(b, -1) {
		out = append(out, string(q[1])+string(q[2]))
	}
	return out
}
