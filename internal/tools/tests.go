package tools

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/testrun"
)

// What test_discover and test_run share: the repository's targets, the
// selection of targets by id, path or changed files, and the test files a
// change reaches (the one place the tests group asks the affected-tests
// engine).

// repoFiles lists the repository's files as the index sees them (tracked
// and untracked, ignored files and pruned directories left out).
func (c *Call) repoFiles(ctx context.Context) ([]string, error) {
	sc, err := scan.Scan(ctx, scan.Options{Paths: c.Env.Paths, Exclude: c.Env.Config.Index.Exclude})
	if err != nil {
		return nil, err
	}
	files := make([]string, len(sc.Files))
	for i, f := range sc.Files {
		files[i] = f.Path
	}
	return files, nil
}

// discoverTargets lists the repository's test targets.
func (c *Call) discoverTargets(ctx context.Context) ([]testrun.Target, error) {
	files, err := c.repoFiles(ctx)
	if err != nil {
		return nil, err
	}
	ts, err := testrun.Discover(testrun.Options{Root: c.Env.Paths.Root, Files: files, Runners: c.Env.Config.Tests.Runners, Exclude: c.Env.Config.Tests.Exclude})
	if err != nil {
		return nil, &errs.Error{Kind: errs.InvalidArgument, Msg: "config: " + err.Error()}
	}
	d := c.durations()
	for i := range ts {
		ts[i].Cost = d.Cost(ts[i].ID)
	}
	return ts, nil
}

// durations is the run-time history of the repository's targets.
func (c *Call) durations() *testrun.Durations {
	p := ""
	if c.Env.Paths.StateDir != "" {
		p = filepath.Join(c.Env.Paths.StateDir, "testrun", "durations.json")
	}
	return testrun.OpenDurations(p)
}

// selectTargets keeps the targets named by id, or covering a repo path (a
// test file, a package directory, or a directory above them).
func selectTargets(ctx context.Context, c *Call, all []testrun.Target, names []string) ([]testrun.Target, error) {
	var out []testrun.Target
	seen := map[string]bool{}
	for _, n := range names {
		found := false
		p := ""
		if !strings.Contains(n, ":") {
			rp, err := scan.Contain(ctx, c.Env.Paths.Root, n)
			if err != nil {
				return nil, err
			}
			p = string(rp)
		}
		for _, t := range all {
			if !covers(t, n, p) {
				continue
			}
			found = true
			if !seen[t.ID] {
				seen[t.ID] = true
				out = append(out, t)
			}
		}
		if !found {
			return nil, &errs.Error{Kind: errs.NotFound, Msg: "no test target is " + n, Fixes: []string{"test_discover lists the targets"}}
		}
	}
	return out, nil
}

func covers(t testrun.Target, name, p string) bool {
	if t.ID == name {
		return true
	}
	if p == "" {
		return false
	}
	if p == "." || t.Path == p || strings.HasPrefix(t.Path, p+"/") {
		return true
	}
	for _, f := range t.Files {
		if f == p {
			return true
		}
	}
	return false
}

// chooseTargets lists the repository's targets, narrowed to those named
// (ids or paths), then to those the changed files reach.
func chooseTargets(ctx context.Context, c *Call, names, affectedBy []string) ([]testrun.Target, *AffectedSelection, error) {
	targets, err := c.discoverTargets(ctx)
	if err != nil {
		return nil, nil, err
	}
	if len(names) > 0 {
		if targets, err = selectTargets(ctx, c, targets, names); err != nil {
			return nil, nil, err
		}
	}
	if len(affectedBy) == 0 {
		return targets, nil, nil
	}
	sel, err := affectedTestFiles(ctx, c, affectedBy)
	if err != nil {
		return nil, nil, err
	}
	return targetsOfFiles(targets, sel.TestFiles), sel, nil
}

// AffectedSelection says which test files a set of changed files reaches
// and how sure the import graph is.
type AffectedSelection struct {
	Changed    []string `json:"changed_files"`
	TestFiles  []string `json:"test_files"`
	Confidence string   `json:"confidence"`
	Reasons    []string `json:"reasons,omitempty"`
}

// affectedTestFiles asks the affected-tests engine which test files the
// changed files reach (every page of them).
func affectedTestFiles(ctx context.Context, c *Call, changed []string) (*AffectedSelection, error) {
	if err := c.freshen(ctx); err != nil {
		return nil, err
	}
	sel := &AffectedSelection{TestFiles: []string{}}
	for _, f := range changed {
		rp, err := scan.Contain(ctx, c.Env.Paths.Root, f)
		if err != nil {
			return nil, err
		}
		sel.Changed = append(sel.Changed, string(rp))
	}
	for offset := 0; ; {
		res, err := change.AffectedTests(ctx, c.Engine(), c.Env.Changes, change.AffectedParams{Files: sel.Changed, MaxDepth: 3, Limit: 500, Offset: offset})
		if err != nil {
			return nil, err
		}
		for _, t := range res.Tests {
			sel.TestFiles = append(sel.TestFiles, t.Path)
		}
		sel.Confidence, sel.Reasons = res.Confidence, res.Reasons
		if !res.More {
			break
		}
		offset = res.NextOffset
	}
	return sel, nil
}

// targetsOfFiles keeps the targets that run one of the files.
func targetsOfFiles(all []testrun.Target, files []string) []testrun.Target {
	want := map[string]bool{}
	for _, f := range files {
		want[f] = true
	}
	var out []testrun.Target
	for _, t := range all {
		for _, f := range t.Files {
			if want[f] {
				out = append(out, t)
				break
			}
		}
	}
	return out
}
