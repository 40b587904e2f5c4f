package tools

import (
	"context"
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/lint"
	"github.com/cairnhq/cairn/internal/mutate"
)

// LintCheckIn are the arguments of lint_check.
type LintCheckIn struct {
	Paths   []string `json:"paths,omitempty" jsonschema:"repo paths (files or directories) to lint; default: the files changed in the working tree"`
	All     bool     `json:"all,omitempty" jsonschema:"lint every project whole instead of the changed files"`
	Linters []string `json:"linters,omitempty" jsonschema:"only these linters (names from lint_tools: go-vet, eslint, ruff, ...)"`
	Fix     bool     `json:"fix,omitempty" jsonschema:"apply the fixes the linters offer (eslint, ruff) through the mutation engine, then lint again"`
	Common
}

// LintCheckOut is what the linters found.
type LintCheckOut struct {
	// Scope is how the paths were chosen: paths, changed or all.
	Scope       string            `json:"scope"`
	Paths       []string          `json:"paths"`
	Runs        []lint.Run        `json:"runs"`
	Diagnostics []lint.Diagnostic `json:"diagnostics"`
	Total       int               `json:"total"`
	BySeverity  map[string]int    `json:"by_severity"`
	// Fixed lists the files fixes were applied to, with the write's delta.
	Fixed *mutate.Result `json:"fixed,omitempty"`
}

func init() {
	Register(Tool{
		Name: "lint_check", Group: "test", Deadline: testDeadline,
		Summary: "Run the repository's linters on paths, on the files changed in the working tree (default), or on everything (all); diagnostics with file, line, column, rule, severity and message, from each linter's machine output; fix: true applies the fixes eslint and ruff offer and lints again.",
		Doc: "Linters come from lint_tools; those not installed are reported as skipped. Project-wide linters (go vet per package, tsc, clippy) run on the projects holding the paths and report only the paths asked for. " +
			"Fixes are written through the mutation engine, all or nothing, guarded by each file's hash, and edit_undo reverts them.",
		When:     []string{"checking changed files before committing", "finding a rule's violations across the repository (all)"},
		WhenNot:  []string{"failing tests: test_run", "which linters exist: lint_tools"},
		Examples: []string{`{}`, `{"paths": ["web/src"], "linters": ["eslint"]}`, `{"all": true}`, `{"paths": ["app.py"], "fix": true}`},
	}, lintCheck)
}

// lintExts are the files each linter reads.
var lintExts = map[string][]string{
	"go-vet": {".go"}, "staticcheck": {".go"}, "golangci-lint": {".go"},
	"ruff": {".py", ".pyi"}, "flake8": {".py"},
	"eslint": {".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"},
	"biome":  {".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".json", ".jsonc"},
	"tsc":    {".ts", ".tsx", ".mts", ".cts"}, "clippy": {".rs"},
}

func lintCheck(ctx context.Context, c *Call, in LintCheckIn) (*LintCheckOut, error) {
	ls, err := c.linters(ctx)
	if err != nil {
		return nil, err
	}
	out := &LintCheckOut{Paths: []string{}, Runs: []lint.Run{}, Diagnostics: []lint.Diagnostic{}, BySeverity: map[string]int{}}
	switch {
	case in.All && len(in.Paths) > 0:
		return nil, errs.E(errs.InvalidArgument, "give paths or all, not both")
	case in.All:
		out.Scope = "all"
	case len(in.Paths) > 0:
		out.Scope = "paths"
		if out.Paths, err = c.gitPaths(ctx, in.Paths); err != nil {
			return nil, err
		}
	default:
		out.Scope = "changed"
		if out.Paths, err = changedPaths(ctx, c); err != nil {
			return nil, err
		}
	}
	only := map[string]bool{}
	for _, n := range in.Linters {
		only[n] = true
	}
	diags := c.runLinters(ctx, ls, only, out)
	if in.Fix {
		if err := c.editsAllowed(); err != nil {
			return nil, err
		}
		fixed, err := lint.ApplyFixes(c.Env.Paths.Root, diags)
		if err != nil {
			return nil, err
		}
		if len(fixed) > 0 {
			var edits []mutate.FileEdit
			for _, f := range fixed {
				content := string(f.New)
				edits = append(edits, mutate.FileEdit{Path: f.Path, Action: "update", Content: &content, ExpectedSHA256: mutate.SHA(f.Old)})
			}
			res, err := c.write(ctx, mutate.Request{Edits: edits})
			if err != nil {
				return nil, err
			}
			out.Fixed = res
			out.Runs = out.Runs[:0]
			diags = c.runLinters(ctx, ls, only, out) // what the fixes left
			c.Next("edit_undo", map[string]any{}, "revert the fixes")
		}
	}
	out.Total = len(diags)
	for _, d := range diags {
		out.BySeverity[d.Severity]++
	}
	limit := c.Clamp("limit", in.Limit, EntriesBudget)
	out.Diagnostics = shorten(c, "diagnostics", diags, limit)
	ran := 0
	for _, r := range out.Runs {
		if r.Status == "skipped" {
			c.Warn("%s in %s skipped: %s", r.Linter, r.Dir, r.Error)
		} else {
			ran++
		}
		if r.Status == "error" {
			c.Warn("%s in %s failed: %s", r.Linter, r.Dir, firstLines(r.Error, 3))
		}
	}
	fixedNote := ""
	if out.Fixed != nil {
		fixedNote = "; fixed " + itoa(out.Fixed.FilesChanged) + " files"
	}
	c.Answer("%d diagnostics (%d errors, %d warnings) from %d linters on %s%s", out.Total, out.BySeverity["error"], out.BySeverity["warning"], ran, scopeText(out), fixedNote)
	return out, nil
}

// runLinters runs every applicable linter on the scope and collects the
// diagnostics.
func (c *Call) runLinters(ctx context.Context, ls []lint.Linter, only map[string]bool, out *LintCheckOut) []lint.Diagnostic {
	diags := []lint.Diagnostic{}
	for _, l := range ls {
		if len(only) > 0 && !only[l.Name] {
			continue
		}
		var paths []string
		if out.Scope != "all" {
			paths = inProject(l, out.Paths)
			if len(paths) == 0 {
				continue
			}
		}
		r := lint.Check(ctx, c.Env.Paths.Root, l, paths)
		diags = append(diags, r.Diagnostics...)
		out.Runs = append(out.Runs, r)
	}
	return diags
}

// inProject keeps the paths a linter reads inside its project.
func inProject(l lint.Linter, paths []string) []string {
	var out []string
	for _, p := range paths {
		if l.Dir != "." && p != l.Dir && !strings.HasPrefix(p, l.Dir+"/") {
			continue
		}
		ext := path.Ext(p)
		if ext == "" { // a directory
			out = append(out, p)
			continue
		}
		for _, e := range lintExts[l.Name] {
			if e == ext {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// changedPaths are the files of the working tree that differ from HEAD:
// staged, unstaged and untracked, deleted ones left out.
func changedPaths(ctx context.Context, c *Call) ([]string, error) {
	root, err := c.gitRoot()
	if err != nil {
		return nil, err
	}
	st, err := gitx.GetStatus(ctx, root)
	if err != nil {
		return nil, gitError(err)
	}
	out := uniquePaths{list: []string{}}
	for _, list := range [][]gitx.FileChange{st.Staged, st.Unstaged} {
		for _, f := range list {
			if f.Status != "deleted" {
				out.add(f.Path)
			}
		}
	}
	out.add(st.Untracked...)
	return out.list, nil
}

func scopeText(out *LintCheckOut) string {
	switch out.Scope {
	case "all":
		return "every project"
	case "changed":
		return itoa(len(out.Paths)) + " changed files"
	}
	return itoa(len(out.Paths)) + " paths"
}
