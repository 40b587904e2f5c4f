package refactor

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// tsCopyLimit bounds the files copied for a TypeScript check.
const tsCopyLimit = 20000

// tsFiles are what tsc reads of a project.
func tsFile(name string) bool {
	for _, ext := range []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// tsPrune are directories a TypeScript copy leaves out.
var tsPrune = map[string]bool{".git": true, "node_modules": true, ".cairn": true, "dist": true, "build": true}

// tsPos matches tsc's "file(line,col): error TSnnnn: message".
var tsPos = regexp.MustCompile(`^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$`)

// verifyTS runs tsc --noEmit over a copy of the project's sources with the
// changes applied (node_modules linked, not copied).
func verifyTS(ctx context.Context, tsc, root string, changes []Change, rep *VerifyReport) ([]VerifyCheck, []Diagnostic) {
	tmp, err := os.MkdirTemp("", "cairn-verify-ts-")
	if err != nil {
		return []VerifyCheck{{Language: "typescript", Targets: []string{}, Skipped: err.Error()}}, nil
	}
	defer os.RemoveAll(tmp)
	var sources []string
	err = copyTree(root, tmp, tsFile, tsPrune)
	if err != nil {
		return []VerifyCheck{{Language: "typescript", Targets: []string{}, OK: true, Skipped: "not verified: " + err.Error()}}, nil
	}
	if _, _, err := applyChanges(root, tmp, changes); err != nil {
		return []VerifyCheck{{Language: "typescript", Targets: []string{}, Skipped: err.Error()}}, nil
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules")); err == nil {
		os.Symlink(filepath.Join(root, "node_modules"), filepath.Join(tmp, "node_modules"))
	}
	args := []string{"--noEmit", "--pretty", "false"}
	target := "tsconfig.json"
	if _, err := os.Stat(filepath.Join(root, "tsconfig.json")); err != nil {
		target = "(no tsconfig.json: every .ts file)"
		filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")) && !strings.Contains(p, "node_modules") {
				rel, _ := filepath.Rel(tmp, p)
				sources = append(sources, rel)
			}
			return nil
		})
		args = append(args, "--skipLibCheck")
		args = append(args, sources...)
	} else {
		args = append(args, "-p", "tsconfig.json")
	}
	t0 := time.Now()
	out, ok := run(ctx, tmp, nil, tsc, args...)
	check := VerifyCheck{Language: "typescript", Command: "tsc " + strings.Join(args[:min(len(args), 5)], " "), Targets: []string{target}, OK: ok}
	var diags []Diagnostic
	if !ok {
		after := parseTS(out)
		fromCopy(after, tmp, root)
		bout, bok := run(ctx, root, nil, tsc, args...)
		var before []Diagnostic
		if !bok {
			before = parseTS(bout)
		}
		diags = newDiags(before, after)
		switch {
		case len(diags) > 0:
		case len(after) == 0 && bok:
			diags = append(diags, Diagnostic{Message: firstLines(out, 5), Tool: "tsc"})
		default:
			check.OK = true
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("tsc reports errors the tree had before the change (%d); they are not the change's", len(after)))
		}
	}
	check.MS = time.Since(t0).Milliseconds()
	return []VerifyCheck{check}, diags
}

func parseTS(out string) []Diagnostic {
	var ds []Diagnostic
	for _, line := range strings.Split(out, "\n") {
		m := tsPos.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		ln, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		ds = append(ds, Diagnostic{Path: filepath.ToSlash(m[1]), Line: ln, Col: col, Message: m[4] + ": " + m[5], Tool: "tsc"})
	}
	return ds
}

// fromCopy rewrites the paths of diagnostics tsc reported in the copy at
// tmp that lie outside it (files reached through the linked node_modules,
// which tsc names by their real paths, relative to tmp) as relative to
// root, the way a run in root names them: the errors a tree had before a
// change are told apart by path.
func fromCopy(ds []Diagnostic, tmp, root string) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		real = root
	}
	for i := range ds {
		if !strings.HasPrefix(ds[i].Path, "../") {
			continue
		}
		abs := filepath.Join(tmp, filepath.FromSlash(ds[i].Path))
		if rel, err := filepath.Rel(real, abs); err == nil && !strings.HasPrefix(rel, "..") {
			ds[i].Path = filepath.ToSlash(rel)
		}
	}
}

// writeUnder writes a file below dir, making its directories.
func writeUnder(dir, rel string, data []byte) error {
	dst := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// pyCheck compiles every file named on its command line and prints one
// JSON line per syntax error: py_compile without writing bytecode anywhere.
const pyCheck = `
import json, py_compile, sys, tempfile, os
out = os.path.join(tempfile.mkdtemp(), "x.pyc")
for i in range(1, len(sys.argv), 2):
    src, name = sys.argv[i], sys.argv[i + 1]
    try:
        py_compile.compile(src, cfile=out, dfile=name, doraise=True)
    except py_compile.PyCompileError as e:
        v = e.exc_value
        print(json.dumps({"path": name, "line": getattr(v, "lineno", 0) or 0, "col": getattr(v, "offset", 0) or 0,
                          "message": e.exc_type_name + ": " + str(getattr(v, "msg", v))}))
`

// verifyPython compiles the changed Python files with py_compile, then,
// when pyright is installed, type-checks the project with the changes
// (imports that no longer resolve, names no longer defined); without
// pyright the report says imports and types were not checked.
func verifyPython(ctx context.Context, python, root string, changes []Change, rep *VerifyReport) ([]VerifyCheck, []Diagnostic) {
	tmp, err := os.MkdirTemp("", "cairn-verify-py-")
	if err != nil {
		return []VerifyCheck{{Language: "python", Targets: []string{}, Skipped: err.Error()}}, nil
	}
	defer os.RemoveAll(tmp)
	args := []string{"-c", pyCheck}
	var targets []string
	for i, c := range changes {
		if c.Content == nil {
			continue
		}
		f := filepath.Join(tmp, strconv.Itoa(i)+".py")
		if err := os.WriteFile(f, c.Content, 0o644); err != nil {
			return []VerifyCheck{{Language: "python", Targets: []string{}, Skipped: err.Error()}}, nil
		}
		args = append(args, f, c.Path)
		targets = append(targets, c.Path)
	}
	if len(targets) == 0 {
		return nil, nil
	}
	t0 := time.Now()
	out, ok := run(ctx, tmp, nil, python, args...)
	check := VerifyCheck{Language: "python", Command: "python3 -m py_compile", Targets: targets, OK: ok}
	var diags []Diagnostic
	for _, line := range strings.Split(out, "\n") {
		var d Diagnostic
		if json.Unmarshal([]byte(line), &d) == nil && d.Path != "" {
			d.Tool = "py_compile"
			diags = append(diags, d)
		}
	}
	if !ok && len(diags) == 0 {
		diags = append(diags, Diagnostic{Message: firstLines(out, 5), Tool: "python3"})
	}
	check.OK = ok && len(diags) == 0
	check.MS = time.Since(t0).Milliseconds()
	checks := []VerifyCheck{check}
	if !check.OK {
		return checks, diags
	}
	pyright, found := findNodeTool(root, "pyright")
	if !found {
		rep.Warnings = append(rep.Warnings, "python: syntax checked (py_compile); imports and types are not (pyright is not installed)")
		return checks, diags
	}
	pc, fresh := verifyPyright(ctx, pyright, root, changes)
	if pc.Skipped != "" {
		rep.Warnings = append(rep.Warnings, "python: imports and types not checked: "+pc.Skipped)
	}
	return append(checks, pc), fresh
}

// pyFile are the files pyright reads of a project: sources, stubs and its
// configuration.
func pyFile(name string) bool {
	return strings.HasSuffix(name, ".py") || strings.HasSuffix(name, ".pyi") ||
		name == "pyrightconfig.json" || name == "pyproject.toml"
}

// pyPrune are directories a Python copy leaves out.
var pyPrune = map[string]bool{".git": true, "node_modules": true, ".cairn": true, "__pycache__": true, ".venv": true, "venv": true, ".tox": true}

// pyrightOut is what `pyright --outputjson` prints.
type pyrightOut struct {
	Diagnostics []struct {
		File     string `json:"file"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		Rule     string `json:"rule"`
		Range    struct {
			Start struct {
				Line      int `json:"line"`
				Character int `json:"character"`
			} `json:"start"`
		} `json:"range"`
	} `json:"generalDiagnostics"`
}

// pyrightErrors runs pyright over the project at dir and returns its errors
// with repo paths (relative to dir).
func pyrightErrors(ctx context.Context, pyright, dir string) ([]Diagnostic, error) {
	cmd := exec.CommandContext(ctx, pyright, "--outputjson")
	cmd.Dir = dir
	out, _ := cmd.Output() // exits 1 when it reports errors
	var res pyrightOut
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("pyright printed no report: %s", firstLines(string(out), 3))
	}
	var ds []Diagnostic
	for _, d := range res.Diagnostics {
		if d.Severity != "error" {
			continue
		}
		rel, err := filepath.Rel(dir, d.File)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		msg := d.Message
		if d.Rule != "" {
			msg += " (" + d.Rule + ")"
		}
		ds = append(ds, Diagnostic{Path: filepath.ToSlash(rel), Line: d.Range.Start.Line + 1, Col: d.Range.Start.Character + 1, Message: msg, Tool: "pyright"})
	}
	return ds, nil
}

// verifyPyright type-checks the project with pyright over a copy of its
// Python files with the changes applied: only errors the tree did not have
// refuse the change. An error in a file the change creates counts as old
// when a file it removes had it (a moved module keeps its errors).
func verifyPyright(ctx context.Context, pyright, root string, changes []Change) (VerifyCheck, []Diagnostic) {
	check := VerifyCheck{Language: "python", Command: "pyright --outputjson", Targets: []string{"the project"}, OK: true}
	tmp, err := os.MkdirTemp("", "cairn-verify-pyright-")
	if err != nil {
		check.Skipped = err.Error()
		return check, nil
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(root, tmp, pyFile, pyPrune); err != nil {
		check.Skipped = "not verified: " + err.Error()
		return check, nil
	}
	created, removed, err := applyChanges(root, tmp, changes)
	if err != nil {
		check.Skipped = err.Error()
		return check, nil
	}
	t0 := time.Now()
	defer func() { check.MS = time.Since(t0).Milliseconds() }()
	after, err := pyrightErrors(ctx, pyright, tmp)
	if err != nil {
		check.OK, check.Skipped = true, "not verified: "+err.Error()
		return check, nil
	}
	if len(after) == 0 {
		return check, nil
	}
	before, err := pyrightErrors(ctx, pyright, root)
	if err != nil {
		check.OK, check.Skipped = true, "not verified: "+err.Error()
		return check, nil
	}
	// The errors of removed files may reappear in created ones.
	var moved []Diagnostic
	for _, d := range before {
		if removed[d.Path] {
			moved = append(moved, d)
		}
	}
	var fresh []Diagnostic
	for _, d := range newDiags(before, after) {
		if created[d.Path] {
			if i := slices.IndexFunc(moved, func(m Diagnostic) bool { return m.Message == d.Message }); i >= 0 {
				moved = slices.Delete(moved, i, i+1)
				continue
			}
		}
		fresh = append(fresh, d)
	}
	check.OK = len(fresh) == 0
	return check, fresh
}

// applyChanges writes the changes into the copy at dir and returns the
// files they create and remove (against root).
func applyChanges(root, dir string, changes []Change) (created, removed map[string]bool, err error) {
	created, removed = map[string]bool{}, map[string]bool{}
	for _, c := range changes {
		if c.Content == nil {
			os.Remove(filepath.Join(dir, filepath.FromSlash(c.Path)))
			removed[c.Path] = true
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(c.Path))); err != nil {
			created[c.Path] = true
		}
		if err := writeUnder(dir, filepath.FromSlash(c.Path), c.Content); err != nil {
			return nil, nil, err
		}
	}
	return created, removed, nil
}

// copyTree copies the files of root that keep names into dir, leaving out
// the directories prune names; at most tsCopyLimit files.
func copyTree(root, dir string, keep func(string) bool, prune map[string]bool) error {
	n := 0
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root && prune[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !keep(d.Name()) {
			return nil
		}
		if n++; n > tsCopyLimit {
			return fmt.Errorf("more than %d files to copy", tsCopyLimit)
		}
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		return writeUnder(dir, rel, data)
	})
}
