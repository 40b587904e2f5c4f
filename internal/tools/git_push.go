package tools

import (
	"context"
	"errors"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitPushIn are the arguments of git_push.
type GitPushIn struct {
	Remote      string `json:"remote,omitempty" jsonschema:"the remote (default: the upstream's, else origin)"`
	Branch      string `json:"branch,omitempty" jsonschema:"the branch or refspec to push (default: the current branch to its upstream)"`
	SetUpstream bool   `json:"set_upstream,omitempty" jsonschema:"record the pushed branch as the upstream"`
	Force       bool   `json:"force,omitempty" jsonschema:"overwrite the remote branch (with lease: only if it is where this clone last saw it); needs confirm"`
	Tags        bool   `json:"tags,omitempty" jsonschema:"push every tag too"`
	Delete      bool   `json:"delete,omitempty" jsonschema:"delete branch on the remote; needs confirm"`
	Confirm     bool   `json:"confirm,omitempty" jsonschema:"go ahead with a force push or a delete that discards remote commits"`
	Base
}

// GitPushOut reports each ref the push touched.
type GitPushOut struct {
	Refs   []gitx.RefUpdate `json:"refs"`
	Status *gitx.Status     `json:"status"`
}

func init() {
	registerGit(Tool{
		Name: "git_push", Group: "git",
		Summary:  "Push a branch (default: the current one to its upstream) and report each ref: new, updated, forced, deleted, up_to_date or rejected with git's reason. Force pushes and remote deletes need confirm: true; without it the answer lists the remote commits they would discard.",
		Doc:      "force uses --force-with-lease, so it never overwrites commits this clone has not fetched. Hooks run as git runs them.",
		When:     []string{"publishing commits"},
		WhenNot:  []string{"bringing remote commits here: git_pull"},
		Examples: []string{`{}`, `{"remote": "origin", "branch": "feature-x", "set_upstream": true}`},
	}, gitPush)
}

func gitPush(ctx context.Context, c *Call, root string, in GitPushIn) (*GitPushOut, error) {
	if (in.Force || in.Delete) && !in.Confirm {
		lost, err := remoteLoss(ctx, root, in)
		if err != nil {
			return nil, err
		}
		if len(lost) > 0 || in.Delete {
			return nil, needConfirm("this push", discardPreview{Commits: lost})
		}
	}
	refs, st, err := gitMutate(ctx, c, func(root string) ([]gitx.RefUpdate, error) {
		return gitx.Push(ctx, root, gitx.PushOptions{Remote: in.Remote, Branch: in.Branch, SetUpstream: in.SetUpstream,
			Force: in.Force, Tags: in.Tags, Delete: in.Delete})
	})
	if err != nil {
		var e *errs.Error
		if errors.As(err, &e) && len(refs) > 0 {
			e.Details["refs"] = refs
		}
		return nil, err
	}
	c.Answer("pushed %d refs; %s", len(refs), statusLine(st))
	return &GitPushOut{Refs: refs, Status: st}, nil
}

// remoteLoss lists the commits of the remote branch that a force push or a
// delete would drop from it: those not in what is pushed.
func remoteLoss(ctx context.Context, root string, in GitPushIn) ([]gitx.Commit, error) {
	st, err := gitx.GetStatus(ctx, root)
	if err != nil {
		return nil, gitError(err)
	}
	branch, remote := in.Branch, in.Remote
	if branch == "" {
		branch = st.Branch
	}
	if remote == "" {
		remote = "origin"
		if r, _, ok := cutUpstream(st.Upstream); ok {
			remote = r
		}
	}
	tracking := "refs/remotes/" + remote + "/" + branch
	if _, err := gitx.ResolveCommit(ctx, root, tracking); err != nil {
		return nil, nil // nothing known of the remote branch
	}
	if in.Delete {
		return gitx.RevList(ctx, root, 100, tracking)
	}
	return gitx.RevList(ctx, root, 100, tracking, "^refs/heads/"+branch)
}

func cutUpstream(up string) (remote, branch string, ok bool) {
	for i := 0; i < len(up); i++ {
		if up[i] == '/' {
			return up[:i], up[i+1:], true
		}
	}
	return "", "", false
}
