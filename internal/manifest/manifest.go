// Package manifest parses the files that define modules, their dependencies
// and their workspaces: go.mod and go.work, package.json and
// pnpm-workspace.yaml, pyproject.toml, setup.cfg, setup.py and
// requirements*.txt, Cargo.toml, pom.xml, build.gradle(.kts) and
// settings.gradle(.kts), *.csproj and *.sln, Gemfile and *.gemspec,
// composer.json, and tsconfig.json for the options module resolution reads.
//
// Every manifest is parsed here once, into typed results, for the index
// (which module owns a file, how an import is classified) and for the query
// engine (map_repo, architecture). The package is a leaf: it reads bytes and
// imports nothing of Cairn's, so both can depend on it.
//
// Parsing never fails outright: a manifest that is malformed gives what could
// be read (at least its format and ecosystem) together with an error saying
// what could not.
package manifest

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
)

// Format names a manifest format by its canonical file name.
type Format string

const (
	GoMod          Format = "go.mod"
	GoWork         Format = "go.work"
	PackageJSON    Format = "package.json"
	PnpmWorkspace  Format = "pnpm-workspace.yaml"
	Pyproject      Format = "pyproject.toml"
	SetupCfg       Format = "setup.cfg"
	SetupPy        Format = "setup.py"
	Requirements   Format = "requirements.txt" // requirements*.txt
	Cargo          Format = "Cargo.toml"
	Pom            Format = "pom.xml"
	Gradle         Format = "build.gradle"    // also build.gradle.kts
	GradleSettings Format = "settings.gradle" // also settings.gradle.kts
	MSBuild        Format = "csproj"          // *.csproj, *.fsproj, *.vbproj
	Solution       Format = "sln"             // *.sln
	Gemfile        Format = "Gemfile"
	Gemspec        Format = "gemspec" // *.gemspec
	Composer       Format = "composer.json"
)

// Ecosystem is the family of languages and tools a manifest belongs to. The
// names are the module kinds the index stores.
type Ecosystem string

const (
	EcoGo         Ecosystem = "go"
	EcoJavaScript Ecosystem = "javascript"
	EcoPython     Ecosystem = "python"
	EcoRust       Ecosystem = "rust"
	EcoJVM        Ecosystem = "jvm"
	EcoDotnet     Ecosystem = "dotnet"
	EcoRuby       Ecosystem = "ruby"
	EcoPHP        Ecosystem = "php"
)

// FormatOf recognises a manifest by its file name (a base name or a
// slash-separated path); it returns "" for any other file.
func FormatOf(name string) Format {
	base := path.Base(name)
	switch base {
	case "go.mod", "go.work", "package.json", "pnpm-workspace.yaml", "pyproject.toml", "setup.cfg", "setup.py",
		"Cargo.toml", "pom.xml", "build.gradle", "settings.gradle", "Gemfile", "composer.json":
		return Format(base)
	case "build.gradle.kts":
		return Gradle
	case "settings.gradle.kts":
		return GradleSettings
	}
	switch {
	case strings.HasPrefix(base, "requirements") && strings.HasSuffix(base, ".txt"):
		return Requirements
	case strings.HasSuffix(base, ".csproj"), strings.HasSuffix(base, ".fsproj"), strings.HasSuffix(base, ".vbproj"):
		return MSBuild
	case strings.HasSuffix(base, ".sln"):
		return Solution
	case strings.HasSuffix(base, ".gemspec"):
		return Gemspec
	}
	return ""
}

// Ecosystem is the ecosystem of the format.
func (f Format) Ecosystem() Ecosystem {
	switch f {
	case GoMod, GoWork:
		return EcoGo
	case PackageJSON, PnpmWorkspace:
		return EcoJavaScript
	case Pyproject, SetupCfg, SetupPy, Requirements:
		return EcoPython
	case Cargo:
		return EcoRust
	case Pom, Gradle, GradleSettings:
		return EcoJVM
	case MSBuild, Solution:
		return EcoDotnet
	case Gemfile, Gemspec:
		return EcoRuby
	case Composer:
		return EcoPHP
	}
	return ""
}

// DefinesModule reports whether a manifest of the format makes its directory
// a module. go.work, pnpm-workspace.yaml, settings.gradle and *.sln only
// fence a workspace; requirements*.txt only lists dependencies.
func (f Format) DefinesModule() bool {
	switch f {
	case GoWork, PnpmWorkspace, GradleSettings, Solution, Requirements, "":
		return false
	}
	return true
}

// Manifest is what one manifest file declares.
type Manifest struct {
	Format    Format
	Ecosystem Ecosystem
	// Name is the module path (Go), package or project name, Maven
	// group:artifact, or the project file's name (.NET); "" when the
	// manifest names nothing.
	Name string
	// Dependencies are in the order the file lists them; entries of a table
	// or object (whose order a decoder does not keep) are sorted by name.
	Dependencies []Dependency
	// Workspace is the set of modules the manifest groups, nil when it
	// declares no workspace.
	Workspace *Workspace
	// Replaces are go.mod and go.work replace directives.
	Replaces []Replace
	// Entries are the entry points the manifest declares.
	Entries []Entry
}

// Scope says when a dependency is needed.
type Scope string

const (
	ScopeRuntime  Scope = "runtime"
	ScopePeer     Scope = "peer"     // supplied by the host: npm peerDependencies, Maven provided
	ScopeOptional Scope = "optional" // npm optionalDependencies, Python extras, Maven <optional>
	ScopeDev      Scope = "dev"      // development only: npm devDependencies, dependency groups, Cargo dev-dependencies
	ScopeTest     Scope = "test"     // tests only: Maven and Gradle test scopes, Gemfile :test group
	ScopeBuild    Scope = "build"    // the build itself: Cargo build-dependencies, annotation processors
	ScopeTool     Scope = "tool"     // a Go tool directive (a package path, not a module)
	ScopeIndirect Scope = "indirect" // a Go requirement marked // indirect
)

// scopeOrder ranks scopes for SortDependencies: what the code needs first.
var scopeOrder = map[Scope]int{ScopeRuntime: 0, ScopePeer: 1, ScopeOptional: 2, ScopeDev: 3, ScopeTest: 4, ScopeBuild: 5,
	ScopeTool: 6, ScopeIndirect: 7}

// Dependency is one declared dependency.
type Dependency struct {
	// Name is how the ecosystem names the dependency: a Go module path, an
	// npm, PyPI, crate, gem or Composer package, a Maven group:artifact, a
	// NuGet package id.
	Name    string `json:"name"`
	Version string `json:"version,omitempty"` // the constraint as written
	Scope   Scope  `json:"scope"`
}

// SortDependencies orders dependencies by scope (runtime first), then by
// name and version.
func SortDependencies(ds []Dependency) {
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

// Replace is a replace directive: Old (at OldVersion, or every version when
// empty) is replaced by New, a module path at NewVersion or, when NewVersion
// is empty, a directory relative to the manifest.
type Replace struct {
	Old, OldVersion string
	New, NewVersion string
}

// Entry is an entry point a manifest declares.
type Entry struct {
	// Kind is npm_main (package.json main and module), npm_bin, npm_exports
	// or python_script (pyproject scripts).
	Kind string
	Name string
	// Target is a path relative to the manifest's directory, or a Python
	// "module:function".
	Target string
}

// Parse reads a manifest; name is its file name (a base name or a path),
// which decides the format. It always returns a manifest; the error, when not
// nil, says what could not be read. A file that is no manifest gives an empty
// manifest and an error.
func Parse(name string, data []byte) (*Manifest, error) {
	f := FormatOf(name)
	m := &Manifest{Format: f, Ecosystem: f.Ecosystem()}
	var err error
	switch f {
	case GoMod:
		err = parseGoMod(m, data)
	case GoWork:
		err = parseGoWork(m, data)
	case PackageJSON:
		err = parsePackageJSON(m, data)
	case PnpmWorkspace:
		err = parsePnpmWorkspace(m, data)
	case Pyproject:
		err = parsePyproject(m, data)
	case SetupCfg:
		parseSetupCfg(m, data)
	case SetupPy:
		parseSetupPy(m, data)
	case Requirements:
		parseRequirements(m, data, requirementsScope(path.Base(name)))
	case Cargo:
		err = parseCargo(m, data)
	case Pom:
		err = parsePom(m, data)
	case Gradle:
		parseGradle(m, data)
	case GradleSettings:
		parseGradleSettings(m, data)
	case MSBuild:
		err = parseMSBuild(m, path.Base(name), data)
	case Solution:
		parseSolution(m, data)
	case Gemfile:
		parseGemfile(m, data)
	case Gemspec:
		parseGemspec(m, data)
	case Composer:
		err = parseComposer(m, data)
	default:
		return m, fmt.Errorf("manifest: %s is not a manifest", name)
	}
	if err != nil {
		return m, fmt.Errorf("manifest: parse %s: %w", name, err)
	}
	return m, nil
}

// add appends a dependency.
func (m *Manifest) add(name, version string, scope Scope) {
	m.Dependencies = append(m.Dependencies, Dependency{Name: name, Version: version, Scope: scope})
}

// addSorted appends the dependencies of a table or object, sorted by name
// (its order is lost in decoding), with the version each value gives.
func addSorted[V any](m *Manifest, table map[string]V, scope Scope, version func(V) string) {
	names := slices.Sorted(maps.Keys(table))
	for _, n := range names {
		m.add(n, version(table[n]), scope)
	}
}

// asIs is the version of a dependency whose value is its version.
func asIs(v string) string { return v }
