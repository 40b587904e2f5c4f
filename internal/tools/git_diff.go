package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitDiffIn are the arguments of git_diff.
type GitDiffIn struct {
	Base         string   `json:"base,omitempty" jsonschema:"revision to compare from (default: the index, or HEAD with staged)"`
	Target       string   `json:"target,omitempty" jsonschema:"revision to compare to (default: the working tree, or the index with staged)"`
	Staged       bool     `json:"staged,omitempty" jsonschema:"compare the index (what the next commit holds) instead of the working tree"`
	Paths        []string `json:"paths,omitempty" jsonschema:"restrict to these repo paths"`
	ContextLines int      `json:"context_lines,omitempty" jsonschema:"lines of context around each change (default 3)"`
	Common
}

func init() {
	registerGit(Tool{
		Name: "git_diff", Group: "git",
		Summary: "A structured diff: files with status, rename source, mode and binary flags, counts, and hunks whose lines carry their old and new line numbers. Working tree vs index (default), staged, or between revisions.",
		Doc: "base alone compares the working tree (or the index with staged) with base; base and target compare two revisions. Untracked files are not part of a diff (git_status lists them). " +
			"Large diffs are cut to max_chars: provenance.truncations says which hunks were left out; narrow with paths.",
		When:     []string{"reviewing the lines a change touches before committing", "reading what a commit range changed line by line"},
		WhenNot:  []string{"which symbols changed and whether it breaks callers: semantic_diff", "one commit with its message: git_show"},
		Examples: []string{`{}`, `{"staged": true}`, `{"base": "main", "target": "HEAD", "paths": ["src/api.go"]}`},
	}, gitDiff)
}

func gitDiff(ctx context.Context, c *Call, root string, in GitDiffIn) (*gitx.Diff, error) {
	if in.Target != "" && in.Base == "" {
		return nil, errs.E(errs.InvalidArgument, "target needs base")
	}
	if in.Target != "" && in.Staged {
		return nil, errs.E(errs.InvalidArgument, "staged compares the index; give it without target")
	}
	paths, err := c.gitPaths(ctx, in.Paths)
	if err != nil {
		return nil, err
	}
	ctxLines := in.ContextLines
	if ctxLines < 0 {
		return nil, errs.E(errs.InvalidArgument, "context_lines cannot be negative")
	}
	if ctxLines == 0 {
		ctxLines = 3
	}
	d, err := gitx.GetDiff(ctx, root, gitx.DiffOptions{Base: in.Base, Target: in.Target, Staged: in.Staged, Paths: paths, Context: ctxLines})
	if err != nil {
		return nil, gitError(err)
	}
	c.withhold(d)
	c.Answer("%d files changed, +%d -%d", d.Stats.FilesChanged, d.Stats.Insertions, d.Stats.Deletions)
	if d.Stats.FilesChanged > 0 {
		c.Next("semantic_diff", diffArgs(in), "the structural changes and their blast radius")
	}
	return d, nil
}

func diffArgs(in GitDiffIn) map[string]any {
	m := map[string]any{}
	if in.Base != "" {
		m["base"] = in.Base
	}
	if in.Target != "" {
		m["target"] = in.Target
	}
	return m
}
