package refactor

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
)

// Verification modes.
const (
	VerifyBuild = "build"
	VerifyNone  = "none"
)

// Change is one file of a change to verify, as it would be written.
type Change struct {
	Path    string // repo path
	Content []byte // nil: the file is deleted
	// Marks are where the change's edits sit in the new content, for
	// mapping diagnostics back to them.
	Marks []Mark
}

// Mark is an edit's place in a changed file.
type Mark struct {
	Label   string
	Line    int // 1-based, in the new content
	EndLine int
}

// VerifyRequest is a change to prove before it is written.
type VerifyRequest struct {
	Root    string
	Changes []Change
	// GoPackages are more Go package directories (repo paths) to build:
	// the importers of the changed packages.
	GoPackages []string
	// BuildOnly skips the linters (go vet): the question is only whether
	// the code compiles.
	BuildOnly bool
}

// VerifyReport says what was run and what it found.
type VerifyReport struct {
	Mode        string        `json:"mode"`
	OK          bool          `json:"ok"`
	Checks      []VerifyCheck `json:"checks"`
	Diagnostics []Diagnostic  `json:"diagnostics"`
	Warnings    []string      `json:"warnings"`
	MS          int64         `json:"-"`
}

// VerifyCheck is one toolchain run.
type VerifyCheck struct {
	Language string   `json:"language"`
	Command  string   `json:"command"`
	Targets  []string `json:"targets"`
	OK       bool     `json:"ok"`
	Skipped  string   `json:"skipped,omitempty"`
	MS       int64    `json:"ms"`
}

// Diagnostic is an error the change causes, mapped to the edit that most
// likely caused it.
type Diagnostic struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
	Tool    string `json:"tool"`
	Edit    string `json:"edit,omitempty"`
}

// maxDiagnostics bounds the diagnostics a refusal carries.
const maxDiagnostics = 50

// toolchains maps a language to the command that proves it builds.
func toolchain(root, language string) (string, bool) {
	switch language {
	case "go":
		p, err := exec.LookPath("go")
		return p, err == nil
	case "typescript", "tsx":
		return findTSC(root)
	case "python":
		p, err := exec.LookPath("python3")
		return p, err == nil
	}
	return "", false
}

// findTSC finds the TypeScript compiler.
func findTSC(root string) (string, bool) { return findNodeTool(root, "tsc") }

// findNodeTool finds a program an npm package installs: the repository's
// own (node_modules/.bin), else PATH.
func findNodeTool(root, name string) (string, bool) {
	local := filepath.Join(root, "node_modules", ".bin", name)
	if _, err := os.Stat(local); err == nil {
		return local, true
	}
	p, err := exec.LookPath(name)
	return p, err == nil
}

// verifiable are the languages Verify can check.
var verifiable = map[string]bool{"go": true, "typescript": true, "tsx": true, "python": true}

// DefaultVerify chooses the mode for a plan's languages: build when every
// language that can be checked has its toolchain installed (or some do,
// with a warning naming the others), none when none does.
func DefaultVerify(root string, languages []string) (mode, warning string) {
	var have, missing []string
	for _, l := range languages {
		if !verifiable[l] {
			continue
		}
		if _, ok := toolchain(root, l); ok {
			have = append(have, l)
		} else {
			missing = append(missing, l)
		}
	}
	switch {
	case len(have) == 0 && len(missing) == 0:
		return VerifyNone, ""
	case len(have) == 0:
		return VerifyNone, fmt.Sprintf("not verified: no toolchain installed for %s (go, tsc, python3); the change was not proven to build", strings.Join(missing, ", "))
	case len(missing) > 0:
		return VerifyBuild, fmt.Sprintf("%s not verified: no toolchain installed for it", strings.Join(missing, ", "))
	}
	return VerifyBuild, ""
}

// Verify proves that the files, once changed, still build: Go with go build
// and go vet over an overlay, TypeScript with tsc --noEmit over a copy,
// Python with py_compile, and pyright over a copy when it is installed.
// Nothing in the working tree is touched. Errors that the tree already had
// without the change are not the change's: only new ones refuse it.
func Verify(ctx context.Context, req VerifyRequest) *VerifyReport {
	start := time.Now()
	rep := &VerifyReport{Mode: VerifyBuild, OK: true, Checks: []VerifyCheck{}, Diagnostics: []Diagnostic{}, Warnings: []string{}}
	byLang := map[string][]Change{}
	for _, c := range req.Changes {
		if l := langOfPath(c.Path); l != "" {
			byLang[l] = append(byLang[l], c)
		}
	}
	langs := slices.Sorted(maps.Keys(byLang))
	for _, l := range langs {
		var checks []VerifyCheck
		var diags []Diagnostic
		tool, ok := toolchain(req.Root, l)
		if !ok {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s not verified: its toolchain is not installed", l))
			rep.Checks = append(rep.Checks, VerifyCheck{Language: l, Targets: []string{}, OK: true, Skipped: "toolchain not installed"})
			continue
		}
		switch l {
		case "go":
			checks, diags = verifyGo(ctx, tool, req.Root, byLang[l], req.GoPackages, req.BuildOnly, rep)
		case "typescript":
			checks, diags = verifyTS(ctx, tool, req.Root, byLang[l], rep)
		case "python":
			checks, diags = verifyPython(ctx, tool, req.Root, byLang[l], rep)
		}
		rep.Checks = append(rep.Checks, checks...)
		rep.Diagnostics = append(rep.Diagnostics, mapDiagnostics(diags, req.Changes)...)
	}
	for _, c := range rep.Checks {
		if !c.OK {
			rep.OK = false
		}
	}
	if len(rep.Diagnostics) > 0 {
		rep.OK = false
	}
	sort.SliceStable(rep.Diagnostics, func(i, j int) bool {
		a, b := rep.Diagnostics[i], rep.Diagnostics[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	rep.MS = time.Since(start).Milliseconds()
	return rep
}

// langOfPath is the verifiable language of a path.
func langOfPath(p string) string {
	switch path.Ext(p) {
	case ".go":
		return "go"
	case ".ts", ".tsx", ".mts", ".cts":
		return "typescript"
	case ".py":
		return "python"
	}
	if path.Base(p) == "go.mod" {
		return "go"
	}
	return ""
}

// mapDiagnostics attaches each diagnostic to the edit nearest to it in its
// file (on its lines, else the closest within three lines).
func mapDiagnostics(ds []Diagnostic, changes []Change) []Diagnostic {
	byPath := map[string][]Mark{}
	for _, c := range changes {
		byPath[c.Path] = append(byPath[c.Path], c.Marks...)
	}
	for i := range ds {
		best, dist := "", 4
		for _, m := range byPath[ds[i].Path] {
			d := 0
			switch {
			case ds[i].Line < m.Line:
				d = m.Line - ds[i].Line
			case ds[i].Line > m.EndLine:
				d = ds[i].Line - m.EndLine
			}
			if d < dist {
				best, dist = m.Label, d
			}
		}
		ds[i].Edit = best
	}
	if len(ds) > maxDiagnostics {
		ds = ds[:maxDiagnostics]
	}
	return ds
}

// Refusal is the error of a change that does not build.
func (r *VerifyReport) Refusal() error {
	msg := "the change does not build"
	if len(r.Diagnostics) > 0 {
		d := r.Diagnostics[0]
		msg = fmt.Sprintf("the change does not build: %s:%d: %s", d.Path, d.Line, d.Message)
		if d.Edit != "" {
			msg += " (edit " + d.Edit + ")"
		}
		if n := len(r.Diagnostics); n > 1 {
			msg += fmt.Sprintf("; %d more diagnostics", n-1)
		}
	} else {
		for _, c := range r.Checks {
			if !c.OK {
				msg += ": " + c.Command + " failed"
				break
			}
		}
	}
	return &errs.Error{Kind: errs.Precondition, Msg: msg + "; nothing was written",
		Details: map[string]any{"reason": "verify_failed", "verify": r},
		Fixes:   []string{"fix the edits the diagnostics name, or pass verify: none to write without proof"}}
}

// run runs a command and returns its combined output and whether it
// succeeded; a toolchain that cannot start at all is reported as output.
func run(ctx context.Context, dir string, env []string, name string, args ...string) (string, bool) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

// newDiags returns the diagnostics of after that before did not have
// (compared by path, message and line).
func newDiags(before, after []Diagnostic) []Diagnostic {
	seen := map[string]int{}
	for _, d := range before {
		seen[d.Path+"\x00"+d.Message]++
	}
	var out []Diagnostic
	for _, d := range after {
		k := d.Path + "\x00" + d.Message
		if seen[k] > 0 {
			seen[k]--
			continue
		}
		out = append(out, d)
	}
	return out
}
