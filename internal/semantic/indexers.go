package semantic

import (
	"context"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"

	"github.com/cairnhq/cairn/internal/store"
)

// Indexer is a SCIP indexer Cairn knows.
type Indexer struct {
	Name string
	// Kinds are the module kinds (index.Module.Kind) it indexes.
	Kinds []string
	// Langs are the languages (Cairn's names) it covers, for doctor.
	Langs []string
	// Runnable indexers are run by Cairn's jobs; the others are detected
	// only (their .scip can be imported through semantic.scip_paths).
	Runnable bool
	Install  string // the command that installs it ("" when none fits all systems)
	Hint     string
	// Markers: a module is indexable only when one of these files exists in
	// its root (none: every module of the kinds).
	Markers []string
	// Args builds the command line that writes the index to out, for a
	// project of a name and version (the commit, or "0" outside git).
	Args func(out, project, version string) []string
}

// Indexers are the semantic indexers Cairn knows, with the versions checked
// to work (STACK.md).
var Indexers = []Indexer{
	{Name: "scip-go", Kinds: []string{"go"}, Langs: []string{"go"}, Runnable: true,
		Install: "go install github.com/scip-code/scip-go/cmd/scip-go@v0.2.9",
		Hint:    "go install puts it in $(go env GOPATH)/bin, which must be on PATH",
		Args:    func(out, _, _ string) []string { return []string{"index", "--quiet", "--output", out} }},
	{Name: "scip-typescript", Kinds: []string{"javascript"}, Langs: []string{"typescript", "tsx", "javascript"}, Runnable: true,
		Install: "npm i -g @sourcegraph/scip-typescript@0.4.0", Hint: "needs Node.js 20 or later; install the project's dependencies first (npm ci) for complete types",
		Markers: []string{"tsconfig.json", "jsconfig.json", "package.json"},
		Args: func(out, _, _ string) []string {
			return []string{"index", "--infer-tsconfig", "--output", out}
		}},
	{Name: "scip-python", Kinds: []string{"python"}, Langs: []string{"python"}, Runnable: true,
		Install: "npm i -g @sourcegraph/scip-python@0.6.6", Hint: "needs Node.js 20 or later",
		// Without --project-version it asks git, and crashes outside a repository.
		Args: func(out, project, version string) []string {
			return []string{"index", "--project-name", project, "--project-version", version, "--output", out, "--quiet"}
		}},
	{Name: "scip-java", Kinds: []string{"jvm"}, Langs: []string{"java", "kotlin", "scala"},
		Install: "cs install --contrib scip-java", Hint: "cs is Coursier (https://get-coursier.io)"},
	{Name: "scip-clang", Kinds: []string{"dir", "c", "cpp"}, Langs: []string{"c", "cpp"}, Markers: []string{"compile_commands.json"},
		Hint: "download a release binary from https://github.com/sourcegraph/scip-clang/releases and put it on PATH"},
	{Name: "rust-analyzer", Kinds: []string{"rust"}, Langs: []string{"rust"}, Install: "rustup component add rust-analyzer"},
	{Name: "scip-dotnet", Kinds: []string{"dotnet"}, Langs: []string{"csharp"}, Install: "dotnet tool install --global scip-dotnet"},
}

// IndexerByName finds an indexer.
func IndexerByName(name string) *Indexer {
	for i := range Indexers {
		if Indexers[i].Name == name {
			return &Indexers[i]
		}
	}
	return nil
}

// Detected is an indexer that fits a module.
type Detected struct {
	Indexer   string `json:"indexer"`
	Root      string `json:"root"`   // the module's repo-relative root
	Module    string `json:"module"` // its name
	Installed bool   `json:"installed"`
	Path      string `json:"path,omitempty"` // where the binary is
	Runnable  bool   `json:"runnable"`       // Cairn runs it; otherwise import its .scip yourself
	Install   string `json:"install,omitempty"`
}

// LookPath finds an indexer binary (exec.LookPath, or a test's replacement).
type LookPath func(string) (string, error)

// Detect lists, per module, the indexers that fit it and whether they are
// installed. Modules nested in another module of the same kind are covered
// by their own entry (each indexer run covers one project root).
func Detect(ctx context.Context, db *store.DB, repoRoot string, look LookPath) ([]Detected, error) {
	if look == nil {
		look = exec.LookPath
	}
	mods, err := db.Modules(ctx)
	if err != nil {
		return nil, err
	}
	// Languages per module, for directories without a manifest (kind dir):
	// a Python or TypeScript project needs none to be indexed.
	files, err := db.Files(ctx)
	if err != nil {
		return nil, err
	}
	langs := map[int64]map[string]bool{}
	for _, f := range files {
		if langs[f.ModuleID] == nil {
			langs[f.ModuleID] = map[string]bool{}
		}
		langs[f.ModuleID][f.Lang] = true
	}
	var out []Detected
	for _, m := range mods {
		for _, ix := range Indexers {
			fits := slices.Contains(ix.Kinds, m.Kind) && hasMarker(repoRoot, m.Root, ix.Markers)
			// A directory without a manifest: Python files are a project;
			// TypeScript too (JavaScript alone is usually vendored assets).
			if !fits && m.Kind == "dir" {
				switch ix.Name {
				case "scip-python":
					fits = langs[m.ID]["python"]
				case "scip-typescript":
					fits = langs[m.ID]["typescript"] || langs[m.ID]["tsx"]
				}
			}
			if !fits {
				continue
			}
			d := Detected{Indexer: ix.Name, Root: m.Root, Module: m.Name, Runnable: ix.Runnable, Install: ix.Install}
			if p, err := look(ix.Name); err == nil {
				d.Installed, d.Path = true, p
			}
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Root != out[j].Root {
			return out[i].Root < out[j].Root
		}
		return out[i].Indexer < out[j].Indexer
	})
	return out, nil
}

func hasMarker(repoRoot, dir string, markers []string) bool {
	if len(markers) == 0 {
		return true
	}
	for _, m := range markers {
		if _, err := os.Stat(filepath.Join(repoRoot, filepath.FromSlash(path.Join(dir, m)))); err == nil {
			return true
		}
	}
	return false
}
