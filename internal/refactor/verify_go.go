package refactor

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// goPos matches a compiler or vet position at the start of a line.
var goPos = regexp.MustCompile(`^(?:vet: )?([^\s:][^:]*\.go):(\d+)(?::(\d+))?: (.*)$`)

// verifyGo builds and vets (unless buildOnly) the affected packages with the
// changed files laid over the tree (go build -overlay), module by module.
func verifyGo(ctx context.Context, gobin, root string, changes []Change, extra []string, buildOnly bool, rep *VerifyReport) ([]VerifyCheck, []Diagnostic) {
	tmp, err := os.MkdirTemp("", "cairn-verify-go-")
	if err != nil {
		return []VerifyCheck{{Language: "go", Targets: []string{}, Skipped: "cannot make a temporary directory: " + err.Error()}}, nil
	}
	defer os.RemoveAll(tmp)
	if real, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = real // positions come back with the real path
	}
	overlay := map[string]string{}
	back := map[string]string{} // overlay file -> the repo path it stands for
	changed := map[string]*Change{}
	dirs := map[string]bool{}
	for i := range changes {
		c := &changes[i]
		abs := filepath.Join(root, filepath.FromSlash(c.Path))
		changed[c.Path] = c
		if c.Content == nil {
			overlay[abs] = ""
		} else {
			f := filepath.Join(tmp, fmt.Sprintf("%d_%s", i, path.Base(c.Path)))
			if err := os.WriteFile(f, c.Content, 0o644); err != nil {
				return []VerifyCheck{{Language: "go", Targets: []string{}, Skipped: "cannot write the overlay: " + err.Error()}}, nil
			}
			overlay[abs] = f
			back[f] = c.Path
		}
		if strings.HasSuffix(c.Path, ".go") {
			dirs[path.Dir(c.Path)] = true
		}
	}
	for _, d := range extra {
		dirs[d] = true
	}
	ovPath := filepath.Join(tmp, "overlay.json")
	data, _ := json.Marshal(map[string]any{"Replace": overlay})
	if err := os.WriteFile(ovPath, data, 0o644); err != nil {
		return []VerifyCheck{{Language: "go", Targets: []string{}, Skipped: "cannot write the overlay: " + err.Error()}}, nil
	}
	// Group the packages that still hold Go files by module.
	modules := map[string][]string{}
	for d := range dirs {
		if !hasGoFiles(root, d, changed) {
			continue
		}
		mod, ok := moduleOf(root, d, changed)
		if !ok {
			rep.Warnings = append(rep.Warnings, d+": not verified, no go.mod above it")
			continue
		}
		rel := "."
		if d != mod && mod != "." {
			rel = "./" + strings.TrimPrefix(d, mod+"/")
		} else if mod == "." && d != "." {
			rel = "./" + d
		}
		modules[mod] = append(modules[mod], rel)
	}
	mods := slices.Sorted(maps.Keys(modules))
	var checks []VerifyCheck
	var diags []Diagnostic
	env := []string{"GOTOOLCHAIN=local"}
	for _, mod := range mods {
		pkgs := modules[mod]
		sort.Strings(pkgs)
		modDir := filepath.Join(root, filepath.FromSlash(mod))
		steps := []string{"build", "vet"}
		if buildOnly {
			steps = steps[:1]
		}
		for _, step := range steps {
			t0 := time.Now()
			targets := pkgs
			if step == "vet" && len(existing(root, mod, pkgs)) < len(pkgs) {
				// vet runs its tool inside the directory of every package
				// it reads, and a package the change creates has none on
				// disk yet.
				rep.Warnings = append(rep.Warnings, "go vet skipped: the change creates a package directory (go build checked it)")
				break
			}
			args := append([]string{step, "-overlay=" + ovPath}, targets...)
			out, ok := run(ctx, modDir, env, gobin, args...)
			check := VerifyCheck{Language: "go", Command: "go " + step + " -overlay " + strings.Join(targets, " "), Targets: targets, OK: ok}
			if !ok {
				after, findings := parseGo(out, root, modDir, step == "vet", back)
				// What the tree reports without the change is not the change's.
				base := existing(root, mod, targets)
				bout, bok := "", true
				if len(base) > 0 {
					bout, bok = run(ctx, modDir, env, gobin, append([]string{step}, base...)...)
				}
				var before, bfind []Diagnostic
				if !bok {
					before, bfind = parseGo(bout, root, modDir, step == "vet", nil)
				}
				fresh := newDiags(before, after)
				for _, f := range newDiags(bfind, findings) {
					rep.Warnings = append(rep.Warnings, fmt.Sprintf("go vet: %s:%d: %s", f.Path, f.Line, f.Message))
				}
				switch {
				case len(fresh) > 0:
					diags = append(diags, fresh...)
				case len(after) == 0 && len(findings) == 0 && bok:
					// It failed without saying where, and the tree builds without the change.
					diags = append(diags, Diagnostic{Path: mod, Line: 0, Message: firstLines(out, 5), Tool: "go " + step})
				default:
					check.OK = true
					if !bok && len(after) > 0 {
						rep.Warnings = append(rep.Warnings, fmt.Sprintf("go %s reports errors the tree had before the change (%d); they are not the change's", step, len(after)))
					}
				}
			}
			check.MS = time.Since(t0).Milliseconds()
			checks = append(checks, check)
			if !check.OK {
				break // vet after a failed build only repeats it
			}
		}
	}
	return checks, diags
}

// parseGo reads go build / go vet output: compile errors (and vet's type
// errors) as diagnostics, vet's analyzer findings apart.
func parseGo(out, root, dir string, vet bool, back map[string]string) (errs, findings []Diagnostic) {
	tool := "go build"
	if vet {
		tool = "go vet"
	}
	for _, line := range strings.Split(out, "\n") {
		m := goPos.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		p := m[1]
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		rel, err := filepath.Rel(root, p)
		if repo, ok := back[p]; ok {
			rel, err = repo, nil
		}
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		ln, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		d := Diagnostic{Path: filepath.ToSlash(rel), Line: ln, Col: col, Message: m[4], Tool: tool}
		if vet && !strings.HasPrefix(strings.TrimSpace(line), "vet: ") {
			findings = append(findings, d)
			continue
		}
		errs = append(errs, d)
	}
	return errs, findings
}

// hasGoFiles reports whether a directory holds Go files once the change is
// made.
func hasGoFiles(root, dir string, changed map[string]*Change) bool {
	for p, c := range changed {
		if path.Dir(p) == dir && strings.HasSuffix(p, ".go") && c.Content != nil {
			return true
		}
	}
	ents, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
	for _, e := range ents {
		p := path.Join(dir, e.Name())
		if strings.HasSuffix(e.Name(), ".go") && !e.IsDir() {
			if c, ok := changed[p]; !ok || c.Content != nil {
				return true
			}
		}
	}
	return false
}

// moduleOf finds the directory of the go.mod that owns dir (a repo path;
// "." for the root), on disk or among the changes.
func moduleOf(root, dir string, changed map[string]*Change) (string, bool) {
	for d := dir; ; d = path.Dir(d) {
		gm := path.Join(d, "go.mod")
		if c, ok := changed[gm]; ok && c.Content != nil {
			return d, true
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(gm))); err == nil {
			return d, true
		}
		if d == "." || d == "/" || d == "" {
			return "", false
		}
	}
}

// existing keeps the package patterns whose directories exist on disk now
// (a baseline build cannot name a package the change creates).
func existing(root, mod string, pkgs []string) []string {
	var out []string
	for _, p := range pkgs {
		if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(mod), filepath.FromSlash(p))); err == nil && st.IsDir() {
			out = append(out, p)
		}
	}
	return out
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "; ")
}
