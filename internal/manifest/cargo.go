package manifest

import (
	"maps"
	"slices"

	"github.com/pelletier/go-toml/v2"
)

// cargoDeps is a dependency table: name -> "version" or {version = ...,
// path = ..., workspace = true, package = ...}. The key is the name the
// code uses, also for a renamed package.
type cargoDeps map[string]any

type cargoTables struct {
	Dependencies         cargoDeps `toml:"dependencies"`
	DevDependencies      cargoDeps `toml:"dev-dependencies"`
	DevDependenciesOld   cargoDeps `toml:"dev_dependencies"` // the old spelling Cargo still reads
	BuildDependencies    cargoDeps `toml:"build-dependencies"`
	BuildDependenciesOld cargoDeps `toml:"build_dependencies"`
}

// parseCargo reads the package name, the dependency tables (also per
// target, [target.'cfg(...)'.dependencies]), the shared
// [workspace.dependencies] and the workspace's members and exclusions.
func parseCargo(m *Manifest, data []byte) error {
	var doc struct {
		Package struct {
			Name string `toml:"name"`
		} `toml:"package"`
		cargoTables
		Target    map[string]cargoTables `toml:"target"`
		Workspace *struct {
			Members      []string  `toml:"members"`
			Exclude      []string  `toml:"exclude"`
			Dependencies cargoDeps `toml:"dependencies"`
		} `toml:"workspace"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		return err
	}
	m.Name = doc.Package.Name
	tables := []cargoTables{doc.cargoTables}
	for _, t := range slices.Sorted(maps.Keys(doc.Target)) {
		tables = append(tables, doc.Target[t])
	}
	for _, t := range tables {
		addSorted(m, t.Dependencies, ScopeRuntime, tableVersion)
		addSorted(m, t.DevDependencies, ScopeDev, tableVersion)
		addSorted(m, t.DevDependenciesOld, ScopeDev, tableVersion)
		addSorted(m, t.BuildDependencies, ScopeBuild, tableVersion)
		addSorted(m, t.BuildDependenciesOld, ScopeBuild, tableVersion)
	}
	if ws := doc.Workspace; ws != nil {
		addSorted(m, ws.Dependencies, ScopeRuntime, tableVersion)
		m.Workspace = &Workspace{Members: append([]string{}, ws.Members...), Exclude: ws.Exclude}
	}
	return nil
}

// tableVersion is the version of a dependency written as "version" or as a
// table with a version key (Cargo, Poetry).
func tableVersion(v any) string {
	if t, ok := v.(map[string]any); ok {
		v = t["version"]
	}
	s, _ := v.(string)
	return s
}
