package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/task"
	"github.com/cairnhq/cairn/internal/testrun"
)

// TestRunIn are the arguments of test_run.
type TestRunIn struct {
	Targets          []string `json:"targets,omitempty" jsonschema:"target ids (go:pkg/api) or repo paths (a test file, a package directory, a directory above them)"`
	AffectedBy       []string `json:"affected_by,omitempty" jsonschema:"run only the targets these changed repo paths reach through the reverse import graph"`
	FailFast         bool     `json:"fail_fast,omitempty" jsonschema:"stop at the first failing target (the rest are cancelled)"`
	Workers          int      `json:"workers,omitempty" jsonschema:"targets run in parallel (default: tests.workers, else min(CPUs, 8))"`
	TargetTimeoutSec int      `json:"target_timeout_sec,omitempty" jsonschema:"one target's deadline in seconds; its whole process group is killed past it (default: tests.target_timeout_s, 300)"`
	TimeoutSec       int      `json:"timeout_sec,omitempty" jsonschema:"the whole run's deadline in seconds (default: tests.timeout_s, 1800)"`
	Base
}

// TestRunOut is a run's results and how its targets were chosen.
type TestRunOut struct {
	*testrun.Summary
	Selected []string           `json:"selected"`
	Affected *AffectedSelection `json:"affected,omitempty"`
}

func init() {
	Register(Tool{
		Name: "test_run", Group: "test", Deadline: testDeadline,
		Summary: "Run test targets (by id or path, every target, or those a change reaches with affected_by) in parallel cost-balanced batches, with per-target and global timeouts and fail-fast; structured results per target: passed, failed, skipped counts and each failure's test, message, file, line and fingerprint.",
		Doc: "Results come from each runner's machine output: go test -json, JUnit XML (pytest, node --test, Maven Surefire, Gradle), jest and vitest JSON reports, cargo test's and unittest's output, dotnet TRX, rspec JSON. " +
			"A target that overruns target_timeout_sec is killed with its whole process group and reported as timeout. status error means the runner could not run the tests (a build failure: its errors are in failures, with locations). " +
			"A fingerprint names a failure across runs (numbers in the message blanked), so the same failure can be recognised after a change. " +
			"Progress notifications report every target as it ends. Run times are remembered per target to balance later batches.",
		When:     []string{"checking a change: affected_by with the changed files", "running chosen tests and reading failures with their locations"},
		WhenNot:  []string{"only listing what would run: test_discover", "lint and type errors: lint_check"},
		Examples: []string{`{"affected_by": ["pkg/api/types.go"]}`, `{"targets": ["go:pkg/api"], "fail_fast": true}`, `{"targets": ["tests/test_utils.py"], "target_timeout_sec": 60}`},
	}, testRun)
}

// testDeadline is test_run's default deadline: the configured run timeout
// and a minute to report, not the query timeout.
func testDeadline(cfg config.Config) time.Duration {
	return time.Duration(cfg.Tests.TimeoutS+60) * time.Second
}

func testRun(ctx context.Context, c *Call, in TestRunIn) (*TestRunOut, error) {
	out := &TestRunOut{Selected: []string{}}
	targets, sel, err := chooseTargets(ctx, c, in.Targets, in.AffectedBy)
	if err != nil {
		return nil, err
	}
	out.Affected = sel
	for _, t := range targets {
		out.Selected = append(out.Selected, t.ID)
		if !t.Available {
			return nil, &errs.Error{Kind: errs.IndexUnavailable, Msg: fmt.Sprintf("test runner %s is not installed (needed by %s)", t.Runner, t.ID),
				Fixes: []string{"install " + t.Cmd[0] + ", or choose another runner with tests.runners"}}
		}
	}
	cfg := c.Env.Config.Tests
	timeout := time.Duration(cfg.TimeoutS) * time.Second
	if in.TimeoutSec > 0 {
		timeout = time.Duration(in.TimeoutSec) * time.Second
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	opts := testrun.RunOptions{Root: c.Env.Paths.Root, Workers: cmpOr(in.Workers, cfg.Workers), FailFast: in.FailFast,
		TargetTimeout: time.Duration(cmpOr(in.TargetTimeoutSec, cfg.TargetTimeoutS)) * time.Second, Durations: c.durations()}
	if progress := progressFor(ctx, c.Env); progress != nil {
		opts.Progress = func(done, total int, r testrun.Result) {
			progress(index.Progress{Phase: "testing", Done: done, Total: total, Item: r.TargetID + " " + r.Status})
		}
	}
	sum := testrun.Run(rctx, targets, opts)
	out.Summary = sum
	if rctx.Err() != nil && ctx.Err() == nil {
		c.Warn("the run's deadline (%s) passed: targets not finished were cancelled", timeout)
	}
	if len(targets) == 0 {
		c.Answer("no test targets to run")
		return out, nil
	}
	counts := map[string]int{}
	for _, r := range sum.Targets {
		counts[r.Status]++
	}
	c.Answer("%s: %d targets (%s); %d tests passed, %d failed, %d skipped in %.1fs", sum.Status, len(sum.Targets), countsText(counts),
		sum.Passed, sum.Failed, sum.Skipped, float64(sum.DurationMS)/1000)
	for _, r := range sum.Targets {
		if len(r.Failures) > 0 && r.Failures[0].Path != "" {
			f := r.Failures[0]
			c.Next("read_source", map[string]any{"path": f.Path, "start_line": max(1, f.Line-10), "end_line": f.Line + 10}, "the first failure of "+r.TargetID)
			break
		}
	}
	return out, nil
}

func cmpOr(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

// TestFailures gives the open task the run's failing tests, so that the
// same failures after a mutation are flagged as no progress. A target that
// could not run (a build error, a timeout) without naming a failing test
// counts as one failure of the target, with its status as the message.
func (o *TestRunOut) TestFailures() ([]task.Failure, bool) {
	if o == nil || o.Summary == nil {
		return nil, false
	}
	var out []task.Failure
	ran := false
	for _, r := range o.Targets {
		switch {
		case r.Status == testrun.StatusCancelled || r.Status == testrun.StatusSkipped:
			continue
		case len(r.Failures) > 0:
			for _, f := range r.Failures {
				out = append(out, task.Failure{Test: f.Test, Message: f.Message})
			}
		case r.Status != testrun.StatusPassed:
			out = append(out, task.Failure{Test: r.TargetID, Message: r.Status})
		}
		ran = true
	}
	return out, ran
}
