package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/gitx"
)

// GitPullIn are the arguments of git_pull.
type GitPullIn struct {
	Remote string `json:"remote,omitempty" jsonschema:"the remote (default: the upstream's)"`
	Branch string `json:"branch,omitempty" jsonschema:"the remote branch (default: the upstream)"`
	Rebase bool   `json:"rebase,omitempty" jsonschema:"rebase local commits on top instead of merging"`
	FFOnly bool   `json:"ff_only,omitempty" jsonschema:"refuse unless it is a fast-forward"`
	Base
}

func init() {
	Register(Tool{
		Name: "git_pull", Group: "git",
		Summary:  "Fetch and integrate the upstream (merge by default, rebase or fast-forward only on request): up_to_date, fast_forward, merged, rebased, or conflicts listed per file and hunk.",
		Doc:      "A conflict leaves the worktree in the merge (or rebase) state, as git_merge and git_rebase describe.",
		When:     []string{"updating the current branch with what was pushed"},
		WhenNot:  []string{"only seeing what changed remotely: git_fetch"},
		Examples: []string{`{}`, `{"rebase": true}`, `{"remote": "origin", "branch": "main", "ff_only": true}`},
	}, gitPull)
}

func gitPull(ctx context.Context, c *Call, in GitPullIn) (*GitMergeOut, error) {
	return integrate(ctx, c, "pull", func(root string) (*gitx.MergeOutcome, error) {
		return gitx.Pull(ctx, root, gitx.PullOptions{Remote: in.Remote, Branch: in.Branch, Rebase: in.Rebase, FFOnly: in.FFOnly})
	})
}
