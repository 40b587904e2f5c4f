package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/gitx"
)

// GitStatusIn are the arguments of git_status.
type GitStatusIn struct {
	Paths []string `json:"paths,omitempty" jsonschema:"restrict to these repo paths"`
	Base
}

func init() {
	registerGit(Tool{
		Name: "git_status", Group: "git",
		Summary: "The worktree's git status: branch, HEAD, upstream ahead/behind, staged, unstaged and untracked files, conflicts with their stages, and the operation under way (merge, rebase, cherry-pick, revert, bisect).",
		Doc: "Read from git status --porcelain=v2 without taking git's optional locks, so it never rewrites .git/index. " +
			"state is none, merge, rebase, am, cherry-pick, revert or bisect; during a rebase git_rebase reports its steps.",
		When:     []string{"before committing, checking out or merging: what is changed, staged and in conflict"},
		WhenNot:  []string{"the changed lines themselves: git_diff", "structural changes (symbols added, signatures changed): semantic_diff"},
		Examples: []string{`{}`, `{"paths": ["src"]}`},
	}, gitStatus)
}

func gitStatus(ctx context.Context, c *Call, root string, in GitStatusIn) (*gitx.Status, error) {
	paths, err := c.gitPaths(ctx, in.Paths)
	if err != nil {
		return nil, err
	}
	st, err := gitx.GetStatus(ctx, root, paths...)
	if err != nil {
		return nil, gitError(err)
	}
	c.Answer("%s", statusLine(st))
	switch {
	case len(st.Conflicts) > 0:
		c.Next("git_diff", map[string]any{}, "see the conflicted hunks")
	case len(st.Staged) > 0:
		c.Next("git_commit", map[string]any{"message": "<message>"}, "commit what is staged")
	case len(st.Unstaged)+len(st.Untracked) > 0:
		c.Next("git_diff", map[string]any{}, "see the unstaged changes")
	}
	return st, nil
}
