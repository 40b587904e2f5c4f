package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitResetIn are the arguments of git_reset.
type GitResetIn struct {
	Mode    string   `json:"mode,omitempty" jsonschema:"soft (keep index and files), mixed (default: reset the index, keep files) or hard (reset index and files: discards local changes)"`
	Rev     string   `json:"rev,omitempty" jsonschema:"the commit to move HEAD and the branch to (default HEAD)"`
	Paths   []string `json:"paths,omitempty" jsonschema:"reset only these index entries to rev (mixed; the branch does not move)"`
	Confirm bool     `json:"confirm,omitempty" jsonschema:"go ahead with a hard reset that discards local changes or commits"`
	Base
}

// GitResetOut is what a reset moved and left.
type GitResetOut struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Left are the commits no longer on the branch (still in the reflog).
	Left   []gitx.Commit `json:"left_commits"`
	Status *gitx.Status  `json:"status"`
}

func init() {
	registerGit(Tool{
		Name: "git_reset", Group: "git",
		Summary:  "Move HEAD and the current branch to a commit (soft, mixed or hard), or reset index entries of paths. A hard reset that would discard local changes needs confirm: true; without it the answer lists the files and commits it would discard.",
		Doc:      "The commits that leave the branch are listed in left_commits (git's reflog still has them).",
		When:     []string{"undoing commits (soft keeps their changes staged)", "throwing away every local change (hard, with confirm)"},
		WhenNot:  []string{"unstaging a few paths: git_stage with unstage", "discarding changes of a few files: git_checkout with paths"},
		Examples: []string{`{"rev": "HEAD~1", "mode": "soft"}`, `{"mode": "hard", "confirm": true}`},
	}, gitReset)
}

func gitReset(ctx context.Context, c *Call, root string, in GitResetIn) (*GitResetOut, error) {
	mode := in.Mode
	if mode == "" {
		mode = "mixed"
	}
	if mode != "soft" && mode != "mixed" && mode != "hard" {
		return nil, mustBeOneOf("mode", mode, "soft", "mixed", "hard")
	}
	if len(in.Paths) > 0 && mode != "mixed" {
		return nil, errs.E(errs.InvalidArgument, "paths are reset in the index only (mode mixed)")
	}
	rev := in.Rev
	if rev == "" {
		rev = "HEAD"
	}
	paths, err := c.gitPaths(ctx, in.Paths)
	if err != nil {
		return nil, err
	}
	from, _ := gitx.Head(ctx, root)
	to, err := gitx.ResolveCommit(ctx, root, rev)
	if err != nil {
		return nil, gitError(err)
	}
	left := []gitx.Commit{}
	if len(paths) == 0 && from != "" {
		if left, err = gitx.RevList(ctx, root, 100, from, "^"+to); err != nil {
			return nil, gitError(err)
		}
	}
	if mode == "hard" && !in.Confirm {
		st, err := gitx.GetStatus(ctx, root)
		if err != nil {
			return nil, gitError(err)
		}
		if p := (discardPreview{Files: changedFiles(st), Commits: left}); p.items() > 0 {
			return nil, needConfirm("a hard reset to "+short(to), p)
		}
	}
	st, err := c.gitMutation(ctx, func(root string) error { return gitx.Reset(ctx, root, mode, to, paths) })
	if err != nil {
		return nil, err
	}
	c.Answer("reset (%s) %s -> %s; %d commits left the branch; %s", mode, short(from), short(to), len(left), statusLine(st))
	return &GitResetOut{From: from, To: to, Left: left, Status: st}, nil
}
