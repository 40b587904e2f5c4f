package manifest

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// NPMPackage is the npm package of an import path: @scope/name or name.
func NPMPackage(source string) string {
	parts := strings.SplitN(source, "/", 3)
	if strings.HasPrefix(source, "@") && len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// parsePackageJSON reads the name, the dependency maps, workspaces (a list,
// or Yarn's {"packages": [...]}) and the entry points: main, module, bin and
// exports.
func parsePackageJSON(m *Manifest, data []byte) error {
	var pkg struct {
		Name       string            `json:"name"`
		Main       string            `json:"main"`
		Module     string            `json:"module"`
		Bin        json.RawMessage   `json:"bin"`
		Exports    json.RawMessage   `json:"exports"`
		Deps       map[string]string `json:"dependencies"`
		Dev        map[string]string `json:"devDependencies"`
		Peer       map[string]string `json:"peerDependencies"`
		Optional   map[string]string `json:"optionalDependencies"`
		Workspaces json.RawMessage   `json:"workspaces"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return err
	}
	m.Name = pkg.Name
	addSorted(m, pkg.Deps, ScopeRuntime, asIs)
	addSorted(m, pkg.Dev, ScopeDev, asIs)
	addSorted(m, pkg.Peer, ScopePeer, asIs)
	addSorted(m, pkg.Optional, ScopeOptional, asIs)
	if len(pkg.Workspaces) > 0 {
		var list []string
		if json.Unmarshal(pkg.Workspaces, &list) != nil {
			var obj struct {
				Packages []string `json:"packages"`
			}
			json.Unmarshal(pkg.Workspaces, &obj)
			list = obj.Packages
		}
		m.Workspace = splitNegated(list)
	}
	if pkg.Main != "" {
		m.Entries = append(m.Entries, Entry{Kind: "npm_main", Name: "main", Target: pkg.Main})
	}
	if pkg.Module != "" {
		m.Entries = append(m.Entries, Entry{Kind: "npm_main", Name: "module", Target: pkg.Module})
	}
	var binOne string
	var binMany map[string]string
	if json.Unmarshal(pkg.Bin, &binOne) == nil && binOne != "" {
		name := pkg.Name
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:] // a scoped package's bin is named without the scope
		}
		m.Entries = append(m.Entries, Entry{Kind: "npm_bin", Name: name, Target: binOne})
	} else if json.Unmarshal(pkg.Bin, &binMany) == nil {
		for _, name := range slices.Sorted(maps.Keys(binMany)) {
			m.Entries = append(m.Entries, Entry{Kind: "npm_bin", Name: name, Target: binMany[name]})
		}
	}
	exports := exportTargets(pkg.Exports)
	for _, key := range slices.Sorted(maps.Keys(exports)) {
		m.Entries = append(m.Entries, Entry{Kind: "npm_exports", Name: key, Target: exports[key]})
	}
	return nil
}

// exportTargets flattens package.json "exports" to subpath -> file: a string
// is ".", a map of subpaths keeps each (patterns with * are left out), and
// condition maps ({"import": ..., "require": ...}) pick default, then import,
// then require, then node.
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

// parsePnpmWorkspace reads the packages list of a pnpm-workspace.yaml (block
// or flow style, "!pattern" exclusions). A file that does not parse fences
// its directory without saying who is in it.
func parsePnpmWorkspace(m *Manifest, data []byte) error {
	var ws struct {
		Packages []string `yaml:"packages"`
	}
	if err := yaml.Unmarshal(data, &ws); err != nil {
		m.Workspace = &Workspace{Members: []string{}, Open: true}
		return err
	}
	m.Workspace = splitNegated(ws.Packages)
	return nil
}
