package tools

import (
	"context"
	"maps"
	"slices"
	"sort"

	"github.com/cairnhq/cairn/internal/testrun"
)

// TestDiscoverIn are the arguments of test_discover.
type TestDiscoverIn struct {
	Paths      []string `json:"paths,omitempty" jsonschema:"only targets under these repo paths"`
	AffectedBy []string `json:"affected_by,omitempty" jsonschema:"only targets whose tests these changed repo paths reach (through the reverse import graph)"`
	Common
}

// TestDiscoverOut lists targets with the runners that run them.
type TestDiscoverOut struct {
	Targets []testrun.Target `json:"targets"`
	// Runners counts targets per runner.
	Runners map[string]int `json:"runners"`
	// Unavailable lists runners whose program is not installed.
	Unavailable []string           `json:"unavailable_runners"`
	Affected    *AffectedSelection `json:"affected,omitempty"`
}

func init() {
	Register(Tool{
		Name: "test_discover", Group: "test",
		Summary: "Test targets with stable ids (a Go package, a Python or JS test file, a crate, a Maven or Gradle module, a .NET test project, a spec file), each with its runner, how the runner was chosen (config, marker file, language default), its command and its estimated cost; affected_by keeps the targets a change reaches.",
		Doc: "Runners: go test, pytest (unittest when pytest is not installed), jest, vitest, node --test, cargo test, Maven, Gradle, dotnet test, rspec. " +
			"The choice per language follows tests.runners in the configuration (\"python=unittest\"), then marker files (vitest.config.*, jest.config.*, package.json, pytest.ini, pyproject.toml [tool.pytest], Cargo.toml, pom.xml, build.gradle, *.csproj, .rspec), then the language's default. " +
			"estimated_cost is the median of the target's last run times in seconds (1 when never run); test_run balances its batches by it.",
		When:     []string{"before running tests: what exists and how it would run", "which tests a change reaches (affected_by)"},
		WhenNot:  []string{"running them: test_run", "the import paths by which a change reaches a test: affected_tests"},
		Examples: []string{`{}`, `{"paths": ["pkg/api"]}`, `{"affected_by": ["pkg/api/types.go"]}`},
	}, testDiscover)
}

func testDiscover(ctx context.Context, c *Call, in TestDiscoverIn) (*TestDiscoverOut, error) {
	out := &TestDiscoverOut{Targets: []testrun.Target{}, Runners: map[string]int{}, Unavailable: []string{}}
	targets, sel, err := chooseTargets(ctx, c, in.Paths, in.AffectedBy)
	if err != nil {
		return nil, err
	}
	out.Affected = sel
	missing := map[string]bool{}
	for _, t := range targets {
		out.Runners[t.Runner]++
		if !t.Available && !missing[t.Runner] {
			missing[t.Runner] = true
			out.Unavailable = append(out.Unavailable, t.Runner)
		}
	}
	sort.Strings(out.Unavailable)
	limit := c.Clamp("limit", in.Limit, EntriesBudget)
	out.Targets = shorten(c, "targets", targets, limit)
	c.Answer("%d test targets (%s)", len(targets), countsText(out.Runners))
	if len(out.Unavailable) > 0 {
		c.Warn("runners not installed: %v", out.Unavailable)
	}
	if len(targets) > 0 {
		c.Next("test_run", map[string]any{"targets": []string{targets[0].ID}}, "run a target")
	}
	return out, nil
}

// countsText spells a count map in key order: "go 3, pytest 1".
func countsText(m map[string]int) string {
	keys := slices.Sorted(maps.Keys(m))
	s := ""
	for i, k := range keys {
		if i > 0 {
			s += ", "
		}
		s += k + " " + itoa(m[k])
	}
	if s == "" {
		return "none"
	}
	return s
}
