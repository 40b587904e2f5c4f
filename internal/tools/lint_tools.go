package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/lint"
)

// LintToolsIn are the arguments of lint_tools.
type LintToolsIn struct {
	Base
}

// LintToolsOut lists the linters that apply to the repository.
type LintToolsOut struct {
	Linters []lint.Linter `json:"linters"`
}

func init() {
	Register(Tool{
		Name: "lint_tools", Group: "test",
		Summary:  "The linters that apply to the repository, per project: found from their configuration files (eslint.config.*, .eslintrc*, biome.json, tsconfig.json, ruff.toml or pyproject [tool.ruff], .flake8, .golangci.yml) and from what is installed (go vet for every Go module, staticcheck, golangci-lint, ruff, clippy), each with its program and whether it is installed.",
		When:     []string{"before lint_check: which linters would run, and which are missing"},
		WhenNot:  []string{"running them: lint_check"},
		Examples: []string{`{}`},
	}, lintTools)
}

func lintTools(ctx context.Context, c *Call, in LintToolsIn) (*LintToolsOut, error) {
	ls, err := c.linters(ctx)
	if err != nil {
		return nil, err
	}
	missing := 0
	for _, l := range ls {
		if !l.Available {
			missing++
		}
	}
	c.Answer("%d linters apply (%d not installed)", len(ls), missing)
	if len(ls) > 0 {
		c.Next("lint_check", map[string]any{}, "lint the changed files")
	}
	return &LintToolsOut{Linters: ls}, nil
}

// linters detects the repository's linters from its files.
func (c *Call) linters(ctx context.Context) ([]lint.Linter, error) {
	files, err := c.repoFiles(ctx)
	if err != nil {
		return nil, err
	}
	ls := lint.Detect(c.Env.Paths.Root, files)
	if ls == nil {
		ls = []lint.Linter{}
	}
	return ls, nil
}
