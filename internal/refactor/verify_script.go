package refactor

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
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
	n := 0
	var sources []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root && tsPrune[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !tsFile(d.Name()) {
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
		return writeUnder(tmp, rel, data)
	})
	if err != nil {
		return []VerifyCheck{{Language: "typescript", Targets: []string{}, OK: true, Skipped: "not verified: " + err.Error()}}, nil
	}
	for _, c := range changes {
		dst := filepath.Join(tmp, filepath.FromSlash(c.Path))
		if c.Content == nil {
			os.Remove(dst)
			continue
		}
		if err := writeUnder(tmp, filepath.FromSlash(c.Path), c.Content); err != nil {
			return []VerifyCheck{{Language: "typescript", Targets: []string{}, Skipped: err.Error()}}, nil
		}
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

// verifyPython compiles the changed Python files with py_compile: their
// syntax, not their types or imports (the report says so).
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
	rep.Warnings = append(rep.Warnings, "python: syntax checked (py_compile); imports and types are not")
	return checks, diags
}
