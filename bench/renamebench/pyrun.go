package renamebench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// pyMoveCandidates are the Python modules a move may take: every module of
// the package tree but package initialisers, tests, migrations and
// translations, each moved into a new sibling package directory "moved".
func pyMoveCandidates(dir string) ([]MoveOutcome, error) {
	var cands []MoveOutcome
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "tests", "migrations", "locale", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".py") || d.Name() == "__init__.py" || d.Name() == "__main__.py" {
			return nil
		}
		cands = append(cands, MoveOutcome{From: rel, To: path.Join(path.Dir(rel), "moved", path.Base(rel))})
		return nil
	})
	return cands, err
}

// pyrightDiag is one diagnostic of `pyright --outputjson`.
type pyrightDiag struct {
	File     string `json:"file"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Rule     string `json:"rule"`
}

// Pyright checks files (repo paths) with pyright and counts its errors by
// file, rule and message (lines left out: a move shifts them). as maps a
// path to the name it is counted under (a moved file under its old path).
func (w *Work) Pyright(ctx context.Context, files []string, as map[string]string) (map[string]int, error) {
	args := []string{"--outputjson"}
	args = append(args, files...)
	cmd := exec.CommandContext(ctx, "pyright", args...)
	cmd.Dir, cmd.Env = w.Dir, w.Env
	out, err := cmd.Output()
	var res struct {
		Diagnostics []pyrightDiag `json:"generalDiagnostics"`
	}
	if jerr := json.Unmarshal(out, &res); jerr != nil {
		return nil, fmt.Errorf("pyright: %v (%v): %s", jerr, err, firstLines(string(out), 5))
	}
	errs := map[string]int{}
	for _, d := range res.Diagnostics {
		if d.Severity != "error" {
			continue
		}
		rel, rerr := filepath.Rel(w.Dir, d.File)
		if rerr != nil {
			rel = d.File
		}
		rel = filepath.ToSlash(rel)
		if old, ok := as[rel]; ok {
			rel = old
		}
		errs[rel+" "+d.Rule+" "+d.Message]++
	}
	return errs, nil
}

// pyCheck judges a Python move after it is applied: the files it changed,
// the moved modules and every file that names the module (git grep),
// checked with pyright, against the same files before it (restored from
// HEAD). An error pyright did not report before
// (imports that no longer resolve, names no longer found) breaks the build;
// every changed file must also still compile.
func (w *Work) pyCheck(ctx context.Context, got Contents, m MoveOutcome) Check {
	t := time.Now()
	c := Check{OK: true, Command: "pyright (the changed files, before and after) and py_compile"}
	var after []string
	for p := range got {
		if strings.HasSuffix(p, ".py") {
			after = append(after, p)
		}
	}
	// Also every file that names the module, changed by the move or not:
	// an importer the move missed breaks there.
	name := strings.TrimSuffix(path.Base(m.From), ".py")
	if out, err := w.git(ctx, "grep", "-lw", "--untracked", name, "--", "*.py"); err == nil {
		for _, p := range strings.Fields(string(out)) {
			if !slices.Contains(after, p) {
				after = append(after, p)
			}
		}
	}
	sort.Strings(after)
	moved := map[string]string{m.To: m.From} // a Python move moves one file
	fail := func(msg string) Check {
		c.OK, c.Output, c.MS = false, msg, time.Since(t).Milliseconds()
		return c
	}
	if len(after) > 0 {
		compile := exec.CommandContext(ctx, "python3", append([]string{"-m", "py_compile"}, after...)...)
		compile.Dir, compile.Env = w.Dir, w.Env
		if out, err := compile.CombinedOutput(); err != nil {
			return fail("py_compile: " + firstLines(string(out), 8))
		}
	}
	errsAfter, err := w.Pyright(ctx, after, moved)
	if err != nil {
		return fail(err.Error())
	}
	if err := w.Restore(ctx); err != nil {
		return fail(err.Error())
	}
	var before []string
	for _, p := range after {
		if old, ok := moved[p]; ok {
			p = old
		}
		if w.Orig(p) != "" {
			before = append(before, p)
		}
	}
	errsBefore, err := w.Pyright(ctx, before, nil)
	if err != nil {
		return fail(err.Error())
	}
	if fresh := newErrors(errsAfter, errsBefore); len(fresh) > 0 {
		return fail(firstLines(strings.Join(fresh, "\n"), 12))
	}
	c.MS = time.Since(t).Milliseconds()
	return c
}
