// Package lint finds a repository's linters (from their configuration files
// and what is installed) and runs them, reading each one's machine output
// into diagnostics with file, line, column, rule and severity, and the
// fixes some linters offer as edits. It runs linters directly, never
// through a shell, and never writes files: fixes are returned as new
// contents for the mutation engine to apply.
package lint

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Linter is a linter that applies to a project of the repository.
type Linter struct {
	Name     string `json:"name"`
	Language string `json:"language"`
	// Dir is the project it runs in (repo-relative).
	Dir string `json:"dir"`
	// Config is the configuration file that enabled it ("" when it applies
	// by default, as go vet does to a Go module).
	Config string `json:"config,omitempty"`
	// Available is false when its program is not installed; Program is
	// what runs.
	Available bool     `json:"available"`
	Program   []string `json:"program"`
	// Fixes says whether it offers fixes lint_check can apply.
	Fixes bool `json:"fixes,omitempty"`
}

// ID names a linter in a project: "eslint:web".
func (l Linter) ID() string { return l.Name + ":" + l.Dir }

// Diagnostic is one finding.
type Diagnostic struct {
	Linter   string `json:"linter"`
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Col      int    `json:"col,omitempty"`
	EndLine  int    `json:"end_line,omitempty"`
	EndCol   int    `json:"end_col,omitempty"`
	Rule     string `json:"rule"`
	Severity string `json:"severity"` // error, warning, info
	Message  string `json:"message"`
	Fixable  bool   `json:"fixable,omitempty"`
	// fix is the edit the linter offers (byte offsets into the file).
	fix *byteEdit
}

type byteEdit struct {
	start, end int
	text       string
}

// Detect lists the linters that apply to the repository's files, sorted by
// project and name.
func Detect(root string, files []string) []Linter {
	d := &detector{root: root, has: map[string]bool{}}
	for _, f := range files {
		d.has[f] = true
	}
	seen := map[string]bool{}
	var out []Linter
	add := func(l Linter) {
		if !seen[l.ID()] {
			seen[l.ID()] = true
			out = append(out, l)
		}
	}
	for _, f := range files {
		dir, base := path.Dir(f), path.Base(f)
		switch {
		case base == "go.mod":
			add(Linter{Name: "go-vet", Language: "go", Dir: dir, Available: have("go"), Program: []string{"go", "vet"}})
			if have("staticcheck") {
				add(Linter{Name: "staticcheck", Language: "go", Dir: dir, Config: d.first(dir, "staticcheck.conf"), Available: true, Program: []string{"staticcheck"}})
			}
			if have("golangci-lint") {
				add(Linter{Name: "golangci-lint", Language: "go", Dir: dir, Config: d.first(dir, ".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"),
					Available: true, Program: []string{"golangci-lint", "run"}})
			}
		case base == "ruff.toml" || base == ".ruff.toml" || base == "pyproject.toml" && strings.Contains(d.read(f), "[tool.ruff"):
			add(Linter{Name: "ruff", Language: "python", Dir: dir, Config: f, Available: have("ruff"), Program: []string{"ruff", "check"}, Fixes: true})
		case base == ".flake8" || (base == "setup.cfg" || base == "tox.ini") && strings.Contains(d.read(f), "[flake8]"):
			add(Linter{Name: "flake8", Language: "python", Dir: dir, Config: f, Available: have("flake8"), Program: []string{"flake8"}})
		case strings.HasPrefix(base, "eslint.config.") || strings.HasPrefix(base, ".eslintrc"):
			bin, ok := d.nodeBin(dir, "eslint")
			add(Linter{Name: "eslint", Language: "javascript", Dir: dir, Config: f, Available: ok, Program: []string{bin}, Fixes: true})
		case base == "biome.json" || base == "biome.jsonc":
			bin, ok := d.nodeBin(dir, "biome")
			add(Linter{Name: "biome", Language: "javascript", Dir: dir, Config: f, Available: ok, Program: []string{bin, "lint"}})
		case base == "tsconfig.json":
			bin, ok := d.nodeBin(dir, "tsc")
			add(Linter{Name: "tsc", Language: "typescript", Dir: dir, Config: f, Available: ok, Program: []string{bin}})
		case base == "Cargo.toml" && strings.Contains(d.read(f), "[package]"):
			add(Linter{Name: "clippy", Language: "rust", Dir: dir, Available: exec.Command("cargo", "clippy", "--version").Run() == nil,
				Program: []string{"cargo", "clippy"}})
		}
	}
	// ruff also lints Python without a configuration when it is installed.
	if have("ruff") {
		for _, f := range files {
			if strings.HasSuffix(f, ".py") {
				add(Linter{Name: "ruff", Language: "python", Dir: ".", Available: true, Program: []string{"ruff", "check"}, Fixes: true})
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Dir != out[j].Dir {
			return out[i].Dir < out[j].Dir
		}
		return out[i].Name < out[j].Name
	})
	return out
}

type detector struct {
	root string
	has  map[string]bool
}

func (d *detector) read(f string) string {
	b, _ := os.ReadFile(filepath.Join(d.root, filepath.FromSlash(f)))
	return string(b)
}

func (d *detector) first(dir string, names ...string) string {
	for _, n := range names {
		if p := joinDir(dir, n); d.has[p] {
			return p
		}
	}
	return ""
}

// nodeBin finds a program in node_modules/.bin at or above dir (absolute),
// else on PATH.
func (d *detector) nodeBin(dir, name string) (string, bool) {
	for cur := dir; ; cur = path.Dir(cur) {
		p := filepath.Join(d.root, filepath.FromSlash(cur), "node_modules", ".bin", name)
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
		if cur == "." || cur == "/" || cur == "" {
			break
		}
	}
	return name, have(name)
}

func joinDir(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

func have(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}
