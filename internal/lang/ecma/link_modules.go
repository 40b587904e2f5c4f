package ecma

import (
	"context"
	"encoding/json"
	"path"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/manifest"
)

// JavaScript and TypeScript module resolution beyond relative paths: tsconfig
// (or jsconfig) `paths` and `baseUrl`, and packages of the repository imported
// by name through their package.json `exports`, `types`, `module` and `main`.

// tsConfig is what resolution needs from a tsconfig.json.
type tsConfig struct {
	dir     string              // repo-relative directory of the config
	baseURL string              // repo-relative, "" when unset
	paths   map[string][]string // pattern -> targets, relative to baseURL (or dir)
}

// resolveTSConfig resolves a bare import through the nearest tsconfig.
func (l *batch) resolveTSConfig(ctx context.Context, f lang.File, source string) (string, bool) {
	cfg := l.tsConfigFor(ctx, lang.DirOf(f.Path))
	if cfg == nil {
		return "", false
	}
	base := cfg.baseURL
	if base == "" {
		base = cfg.dir
	}
	patterns := make([]string, 0, len(cfg.paths))
	for p := range cfg.paths {
		patterns = append(patterns, p)
	}
	// TypeScript prefers the pattern with the longest prefix before the '*'.
	sort.Slice(patterns, func(i, j int) bool {
		pi, pj := strings.Index(patterns[i], "*"), strings.Index(patterns[j], "*")
		if pi < 0 {
			pi = len(patterns[i]) + 1
		}
		if pj < 0 {
			pj = len(patterns[j]) + 1
		}
		if pi != pj {
			return pi > pj
		}
		return patterns[i] < patterns[j]
	})
	for _, pat := range patterns {
		star, ok := matchPattern(pat, source)
		if !ok {
			continue
		}
		for _, target := range cfg.paths[pat] {
			candidate := path.Join(base, strings.Replace(target, "*", star, 1))
			if p, ok := l.resolveJSPath(candidate); ok {
				return p, true
			}
		}
	}
	if cfg.baseURL != "" {
		return l.resolveJSPath(path.Join(cfg.baseURL, source))
	}
	return "", false
}

// matchPattern matches a tsconfig paths pattern ("@app/*" or exact) and
// returns what the star stands for.
func matchPattern(pattern, s string) (string, bool) {
	i := strings.Index(pattern, "*")
	if i < 0 {
		return "", pattern == s
	}
	prefix, suffix := pattern[:i], pattern[i+1:]
	if len(s) < len(prefix)+len(suffix) || !strings.HasPrefix(s, prefix) || !strings.HasSuffix(s, suffix) {
		return "", false
	}
	return s[len(prefix) : len(s)-len(suffix)], true
}

// tsConfigFor finds the closest tsconfig.json or jsconfig.json at or above dir.
func (l *batch) tsConfigFor(ctx context.Context, dir string) *tsConfig {
	if l.tsConfigs == nil {
		l.tsConfigs = map[string]*tsConfig{}
	}
	if c, ok := l.tsConfigs[dir]; ok {
		return c
	}
	var cfg *tsConfig
	for _, name := range []string{"tsconfig.json", "jsconfig.json"} {
		p := path.Join(dir, name)
		if _, ok := l.R.File(p); ok {
			cfg = l.readTSConfig(ctx, p, 0)
			break
		}
	}
	if cfg == nil && dir != "" {
		cfg = l.tsConfigFor(ctx, lang.DirOf(dir))
	}
	l.tsConfigs[dir] = cfg
	return cfg
}

// readTSConfig parses a tsconfig, following the `extends` of relative files
// (later ones override earlier ones) to a bounded depth.
func (l *batch) readTSConfig(ctx context.Context, p string, depth int) *tsConfig {
	data, err := l.R.ReadFile(ctx, p)
	if err != nil {
		return nil
	}
	raw, err := manifest.ParseTSConfig(data)
	if err != nil {
		return nil
	}
	dir := lang.DirOf(p)
	cfg := &tsConfig{dir: dir, paths: raw.Paths}
	for _, ext := range raw.Extends {
		if !strings.HasPrefix(ext, ".") || depth >= 4 {
			continue
		}
		parent := path.Join(dir, ext)
		if !strings.HasSuffix(parent, ".json") {
			parent += ".json"
		}
		if base := l.readTSConfig(ctx, parent, depth+1); base != nil {
			if raw.Paths == nil && base.paths != nil {
				cfg.paths = base.paths
			}
			if base.baseURL != "" {
				cfg.baseURL = base.baseURL
			}
		}
	}
	if raw.BaseURL != "" {
		cfg.baseURL = path.Join(dir, raw.BaseURL)
		if cfg.baseURL == "." {
			cfg.baseURL = ""
		}
	}
	return cfg
}

// workspacePackage resolves a bare import of another package of the
// repository by its package name, through its package.json.
func (l *batch) workspacePackage(ctx context.Context, source string) (string, bool) {
	name := manifest.NPMPackage(source)
	for _, m := range l.R.Modules() {
		if m.Kind != "javascript" || m.Name != name {
			continue
		}
		sub := "." + strings.TrimPrefix(source, name) // ".", "./button"
		if p, ok := l.packageEntry(ctx, m, sub); ok {
			return p, true
		}
		return m.Manifest, true // the package itself, when no entry file is indexed
	}
	return "", false
}

// packageEntry finds the indexed file a package's subpath leads to.
func (l *batch) packageEntry(ctx context.Context, m lang.Module, sub string) (string, bool) {
	var pkg struct {
		Exports json.RawMessage `json:"exports"`
		Types   string          `json:"types"`
		Typings string          `json:"typings"`
		Module  string          `json:"module"`
		Main    string          `json:"main"`
	}
	data, err := l.R.ReadFile(ctx, m.Manifest)
	if err == nil {
		json.Unmarshal(data, &pkg)
	}
	var candidates []string
	candidates = append(candidates, exportTargets(pkg.Exports, sub)...)
	if sub == "." {
		candidates = append(candidates, pkg.Types, pkg.Typings, pkg.Module, pkg.Main)
	}
	for _, c := range candidates {
		if c == "" {
			continue
		}
		if p, ok := l.resolveJSPath(path.Join(m.Root, c)); ok {
			return p, true
		}
		// Built output (dist/, lib/) is not indexed: try the same file under src/.
		for _, out := range []string{"dist/", "lib/", "build/", "esm/", "cjs/"} {
			if rest, ok := strings.CutPrefix(strings.TrimPrefix(c, "./"), out); ok {
				if p, ok := l.resolveJSPath(path.Join(m.Root, "src", strings.TrimSuffix(strings.TrimSuffix(rest, ".d.ts"), ".js"))); ok {
					return p, true
				}
			}
		}
	}
	// Without a usable entry: the subpath under the package root, src/, and
	// app/ and lib/ (where Ember apps and addons keep the modules their
	// package name maps to).
	for _, base := range []string{path.Join(m.Root, sub), path.Join(m.Root, "src", sub), path.Join(m.Root, "app", sub), path.Join(m.Root, "lib", sub)} {
		if p, ok := l.resolveJSPath(path.Clean(base)); ok {
			return p, true
		}
	}
	return "", false
}

// exportTargets reads the targets of a package.json "exports" entry for a
// subpath: a string, a map of subpaths (with "*" patterns), or conditions
// (types, import, module, default, require), in that order of preference.
func exportTargets(raw json.RawMessage, sub string) []string {
	if len(raw) == 0 {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if sub == "." {
			return []string{s}
		}
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	subpaths := false
	for k := range m {
		if strings.HasPrefix(k, ".") {
			subpaths = true
			break
		}
	}
	if !subpaths {
		return conditionTargets(m)
	}
	if v, ok := m[sub]; ok {
		return exportTargets(v, ".")
	}
	for k, v := range m {
		if star, ok := matchPattern(k, sub); ok && strings.Contains(k, "*") {
			var out []string
			for _, t := range exportTargets(v, ".") {
				out = append(out, strings.Replace(t, "*", star, 1))
			}
			return out
		}
	}
	return nil
}

func conditionTargets(m map[string]json.RawMessage) []string {
	var out []string
	for _, cond := range []string{"types", "import", "module", "default", "require", "node"} {
		if v, ok := m[cond]; ok {
			out = append(out, exportTargets(v, ".")...)
		}
	}
	return out
}
