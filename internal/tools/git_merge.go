package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitMergeIn are the arguments of git_merge.
type GitMergeIn struct {
	Rev     string `json:"rev,omitempty" jsonschema:"the branch or commit to merge into the current branch"`
	Message string `json:"message,omitempty" jsonschema:"the merge commit's message (default: git's)"`
	NoFF    bool   `json:"no_ff,omitempty" jsonschema:"always create a merge commit"`
	FFOnly  bool   `json:"ff_only,omitempty" jsonschema:"refuse unless the merge is a fast-forward"`
	Squash  bool   `json:"squash,omitempty" jsonschema:"stage the merged changes without committing or recording the merge"`
	Abort   bool   `json:"abort,omitempty" jsonschema:"abandon the merge in progress and restore the state before it"`
	Base
}

// GitMergeOut is a merge's outcome and the state after it.
type GitMergeOut struct {
	*gitx.MergeOutcome
	Status *gitx.Status `json:"status"`
}

func init() {
	Register(Tool{
		Name: "git_merge", Group: "git",
		Summary: "Merge a branch or commit into the current branch: fast_forward, merged, up_to_date, squashed, or conflicts, listed per file with each conflicted hunk's line span and both sides' text. abort: true abandons a merge in progress.",
		Doc: "A conflict is an answer, not an error: the worktree stays in the merge state (git_status shows state merge). " +
			"Resolve the files (write_source), then git_commit with all: true concludes the merge, or git_merge with abort: true undoes it. Hooks do not run.",
		When:     []string{"bringing another branch's commits into this one"},
		WhenNot:  []string{"replaying this branch's commits on top of another: git_rebase", "fetching and merging a remote branch: git_pull"},
		Examples: []string{`{"rev": "feature-x"}`, `{"rev": "feature-x", "no_ff": true, "message": "Merge feature X"}`, `{"abort": true}`},
	}, gitMerge)
}

func gitMerge(ctx context.Context, c *Call, in GitMergeIn) (*GitMergeOut, error) {
	if in.Abort {
		if in.Rev != "" {
			return nil, errs.E(errs.InvalidArgument, "give rev or abort, not both")
		}
		st, err := c.gitMutation(ctx, func(root string) error {
			if gitx.OperationState(ctx, root) != "merge" {
				return &errs.Error{Kind: errs.Precondition, Msg: "no merge is in progress"}
			}
			return gitx.MergeAbort(ctx, root)
		})
		if err != nil {
			return nil, err
		}
		c.Answer("merge aborted; %s", statusLine(st))
		return &GitMergeOut{MergeOutcome: &gitx.MergeOutcome{Result: "aborted", Conflicts: []gitx.ConflictFile{}}, Status: st}, nil
	}
	if in.Rev == "" {
		return nil, errs.E(errs.InvalidArgument, "name the rev to merge")
	}
	out, err := integrate(ctx, c, "merge of "+in.Rev, func(root string) (*gitx.MergeOutcome, error) {
		return gitx.Merge(ctx, root, gitx.MergeOptions{Rev: in.Rev, Message: in.Message, NoFF: in.NoFF, FFOnly: in.FFOnly, Squash: in.Squash})
	})
	if err != nil {
		return nil, err
	}
	if out.Result == "conflicts" {
		c.Next("git_merge", map[string]any{"abort": true}, "abandon the merge")
	}
	return out, nil
}

// integrate runs a merge or a pull and answers with its outcome.
func integrate(ctx context.Context, c *Call, what string, op func(root string) (*gitx.MergeOutcome, error)) (*GitMergeOut, error) {
	res, st, err := gitMutate(ctx, c, op)
	if err != nil {
		return nil, err
	}
	switch {
	case res.Result == "conflicts":
		hunks := 0
		for _, f := range res.Conflicts {
			hunks += len(f.Hunks)
		}
		c.Answer("%s stopped: %d files in conflict (%d hunks); resolve them and commit, or abort", what, len(res.Conflicts), hunks)
		c.Next("git_commit", map[string]any{"message": "<message>", "all": true}, "conclude once the conflicts are resolved")
	case res.Commit != "":
		c.Answer("%s: %s at %s; %s", what, res.Result, short(res.Commit), statusLine(st))
	default:
		c.Answer("%s: %s; %s", what, res.Result, statusLine(st))
	}
	return &GitMergeOut{MergeOutcome: res, Status: st}, nil
}
