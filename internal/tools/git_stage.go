package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitStageIn are the arguments of git_stage.
type GitStageIn struct {
	Paths   []string `json:"paths,omitempty" jsonschema:"repo paths to stage (or unstage); with all, none"`
	All     bool     `json:"all,omitempty" jsonschema:"every change of the worktree, including deletions and untracked files"`
	Unstage bool     `json:"unstage,omitempty" jsonschema:"take the paths out of the index instead, keeping the working tree"`
	Base
}

// GitStatusOut is the new state after a change to the index or HEAD.
type GitStatusOut struct {
	Status *gitx.Status `json:"status"`
}

func init() {
	Register(Tool{
		Name: "git_stage", Group: "git",
		Summary:  "Stage paths (or all changes) for the next commit, deletions included; unstage: true takes them out of the index again. Returns the new status.",
		When:     []string{"choosing what the next commit holds"},
		WhenNot:  []string{"staging and committing in one call: git_commit with paths", "discarding working-tree changes: git_checkout with paths"},
		Examples: []string{`{"paths": ["src/server.go"]}`, `{"all": true}`, `{"paths": ["notes.txt"], "unstage": true}`},
	}, gitStage)
}

func gitStage(ctx context.Context, c *Call, in GitStageIn) (*GitStatusOut, error) {
	if len(in.Paths) == 0 && !in.All {
		return nil, errs.E(errs.InvalidArgument, "name paths, or pass all: true")
	}
	paths, err := c.stagedPaths(ctx, in.Paths, in.All)
	if err != nil {
		return nil, err
	}
	st, err := c.gitMutation(ctx, func(root string) error {
		if in.Unstage {
			return gitx.Unstage(ctx, root, paths)
		}
		return gitx.Stage(ctx, root, paths)
	})
	if err != nil {
		return nil, err
	}
	c.Answer("%s", statusLine(st))
	if len(st.Staged) > 0 {
		c.Next("git_commit", map[string]any{"message": "<message>"}, "commit what is staged")
	}
	return &GitStatusOut{Status: st}, nil
}
