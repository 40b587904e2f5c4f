package renamebench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Work is a work copy of a corpus: a git repository whose HEAD is the
// corpus as fetched. Every refactor is measured from HEAD and undone after.
type Work struct {
	Dir string
	Env []string
}

func (w *Work) git(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = w.Dir
	cmd.Env = w.Env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// Restore puts the work copy back to HEAD. The files it rewrites get HEAD's
// commit time as their modification time: a .scip file imported from disk
// judges a document changed when its file is newer than the .scip, and a
// restored file is byte for byte the HEAD version the SCIP index was built
// from, so the next import keeps it in the semantic layer rather than
// measuring a stale one (rebuilding the SCIP index instead would take
// minutes per restore). Only the rewritten files are touched, so a file
// newer than the .scip for another reason is still judged changed.
func (w *Work) Restore(ctx context.Context) error {
	dirty, err := w.git(ctx, "diff", "--name-only", "-z", "HEAD")
	if err != nil {
		return err
	}
	if _, err := w.git(ctx, "reset", "-q", "--hard", "HEAD"); err != nil {
		return err
	}
	if _, err := w.git(ctx, "clean", "-fdq"); err != nil {
		return err
	}
	if dirty = strings.TrimRight(dirty, "\x00"); dirty == "" {
		return nil
	}
	ct, err := w.git(ctx, "log", "-1", "--format=%ct", "HEAD")
	if err != nil {
		return err
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(ct), 10, 64)
	if err != nil {
		return fmt.Errorf("HEAD's commit time %q: %w", ct, err)
	}
	at := time.Unix(sec, 0)
	for _, p := range strings.Split(dirty, "\x00") {
		if err := os.Chtimes(filepath.Join(w.Dir, filepath.FromSlash(p)), at, at); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// Changed reads the files that differ from HEAD: their new contents, and the
// paths that are gone.
func (w *Work) Changed(ctx context.Context) (Contents, []string, error) {
	if _, err := w.git(ctx, "add", "-A"); err != nil {
		return nil, nil, err
	}
	out, err := w.git(ctx, "diff", "--cached", "--name-status", "--no-renames", "-z")
	if err != nil {
		return nil, nil, err
	}
	w.git(ctx, "reset", "-q")
	c := Contents{}
	var gone []string
	f := strings.Split(strings.TrimRight(out, "\x00"), "\x00")
	for i := 0; i+1 < len(f); i += 2 {
		st, p := f[i], f[i+1]
		if st == "D" {
			gone = append(gone, p)
			continue
		}
		b, err := os.ReadFile(filepath.Join(w.Dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, nil, err
		}
		c[p] = string(b)
	}
	return c, gone, nil
}

// Orig reads a file as HEAD has it ("" when HEAD has none).
func (w *Work) Orig(p string) string {
	out, err := w.git(context.Background(), "show", "HEAD:"+p)
	if err != nil {
		return ""
	}
	return out
}

// Check is a build check's outcome.
type Check struct {
	OK      bool   `json:"ok"`
	Command string `json:"command"`
	Output  string `json:"output,omitempty"`
	MS      int64  `json:"ms"`
}

// GoCheck builds and vets Go packages (patterns) of the work copy. A
// directory that holds only tests is vetted, not built (go build refuses a
// package without non-test files; go vet compiles its tests).
func (w *Work) GoCheck(ctx context.Context, build, vet []string) Check {
	t := time.Now()
	var b []string
	for _, p := range build {
		if !strings.HasPrefix(p, "./") || strings.HasSuffix(p, "...") || w.hasNonTestGo(p) {
			b = append(b, p)
		}
	}
	build = b
	for _, step := range []struct {
		verb string
		pkgs []string
	}{{"build", build}, {"vet", vet}} {
		if len(step.pkgs) == 0 {
			continue
		}
		cmd := exec.CommandContext(ctx, "go", append([]string{step.verb}, step.pkgs...)...)
		cmd.Dir = w.Dir
		cmd.Env = w.Env
		out, err := cmd.CombinedOutput()
		if err != nil {
			return Check{Command: "go " + step.verb, Output: firstLines(string(out), 12), MS: time.Since(t).Milliseconds()}
		}
	}
	return Check{OK: true, Command: "go build, go vet", MS: time.Since(t).Milliseconds()}
}

// hasNonTestGo reports whether a package directory ("./d" or ".") holds a
// Go file that is not a test.
func (w *Work) hasNonTestGo(pkg string) bool {
	ents, _ := filepath.Glob(filepath.Join(w.Dir, filepath.FromSlash(pkg), "*.go"))
	for _, e := range ents {
		if !strings.HasSuffix(e, "_test.go") {
			return true
		}
	}
	return false
}

// GoPackages turns repo paths into the package patterns of their
// directories that hold Go files now.
func (w *Work) GoPackages(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if !strings.HasSuffix(p, ".go") {
			continue
		}
		d := path.Dir(p)
		if seen[d] {
			continue
		}
		seen[d] = true
		ents, _ := filepath.Glob(filepath.Join(w.Dir, filepath.FromSlash(d), "*.go"))
		if len(ents) == 0 {
			continue
		}
		if d == "." {
			out = append(out, ".")
		} else {
			out = append(out, "./"+d)
		}
	}
	sort.Strings(out)
	return out
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
