package tools

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitCommitIn are the arguments of git_commit.
type GitCommitIn struct {
	Message    string   `json:"message" jsonschema:"the commit message (first line: the subject)"`
	Paths      []string `json:"paths,omitempty" jsonschema:"stage these repo paths first (all their changes, deletions included)"`
	All        bool     `json:"all,omitempty" jsonschema:"stage every change of the worktree first, untracked files included"`
	Author     string   `json:"author,omitempty" jsonschema:"the author as 'Name <email>' (default: git's configured identity)"`
	AllowEmpty bool     `json:"allow_empty,omitempty" jsonschema:"commit even when nothing changed"`
	Amend      bool     `json:"amend,omitempty" jsonschema:"replace the last commit (its message by this one) instead of adding one"`
	Base
}

// GitCommitOut is the new commit and the state after it.
type GitCommitOut struct {
	Commit *gitx.Commit `json:"commit"`
	Status *gitx.Status `json:"status"`
}

func init() {
	Register(Tool{
		Name: "git_commit", Group: "git",
		Summary: "Commit what is staged, optionally staging paths (or everything) first. Returns the new commit with the paths it touched, and the new status.",
		Doc: "Hooks do not run (--no-verify): checks belong to test_run and lint_check, which report structured results. " +
			"The message is passed to git on its standard input, never as an argument.",
		When:     []string{"recording a change once tests pass"},
		WhenNot:  []string{"choosing what to stage without committing: git_stage"},
		Examples: []string{`{"message": "Fix the retry loop"}`, `{"message": "Add the parser", "paths": ["parser.go", "parser_test.go"]}`},
	}, gitCommit)
}

func gitCommit(ctx context.Context, c *Call, in GitCommitIn) (*GitCommitOut, error) {
	if strings.TrimSpace(in.Message) == "" {
		return nil, errs.E(errs.InvalidArgument, "a commit needs a message")
	}
	paths, err := c.stagedPaths(ctx, in.Paths, in.All)
	if err != nil {
		return nil, err
	}
	id, st, err := gitMutate(ctx, c, func(root string) (string, error) {
		if len(paths) > 0 || in.All {
			if err := gitx.Stage(ctx, root, paths); err != nil {
				return "", err
			}
		}
		if !in.AllowEmpty && !in.Amend && gitx.OperationState(ctx, root) != "merge" {
			if s, err := gitx.GetStatus(ctx, root); err == nil && len(s.Staged) == 0 {
				return "", &errs.Error{Kind: errs.Precondition, Msg: "nothing is staged to commit",
					Fixes: []string{"git_stage the changes first, or pass paths or all"}}
			}
		}
		return gitx.CommitIndex(ctx, root, gitx.CommitOptions{Message: in.Message, Author: in.Author, AllowEmpty: in.AllowEmpty, Amend: in.Amend})
	})
	if err != nil {
		return nil, err
	}
	cm, err := gitx.ShowCommit(ctx, c.Env.Paths.Root, id)
	if err != nil {
		return nil, gitError(err)
	}
	c.Answer("committed %s %s (%d files); %s", cm.ShortOID, cm.Subject, len(cm.Files), statusLine(st))
	c.Next("git_push", map[string]any{}, "publish the commit")
	return &GitCommitOut{Commit: cm, Status: st}, nil
}
