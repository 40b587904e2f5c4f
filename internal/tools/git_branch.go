package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitBranchIn are the arguments of git_branch.
type GitBranchIn struct {
	Action  string `json:"action,omitempty" jsonschema:"list (default), create, delete or rename"`
	Name    string `json:"name,omitempty" jsonschema:"the branch to create, delete or rename"`
	NewName string `json:"new_name,omitempty" jsonschema:"rename: the new name"`
	Start   string `json:"start,omitempty" jsonschema:"create: the commit to start at (default HEAD)"`
	Remotes bool   `json:"remotes,omitempty" jsonschema:"list: remote-tracking branches too"`
	Confirm bool   `json:"confirm,omitempty" jsonschema:"delete: go ahead although the branch has commits no other branch holds"`
	Base
}

// GitBranchOut lists branches after the action.
type GitBranchOut struct {
	Branches []gitx.Branch `json:"branches"`
	// Head is the commit a created, deleted or renamed branch points to.
	Head string `json:"head,omitempty"`
}

func init() {
	registerGit(Tool{
		Name: "git_branch", Group: "git",
		Summary: "List branches (with upstream, ahead/behind and last commit), or create, delete or rename one. Deleting a branch whose commits would be lost needs confirm: true; without it the answer lists those commits.",
		Doc:     "Names are checked with git check-ref-format and may not start with '-'. Creating does not switch to the branch (git_checkout with create does).",
		When:    []string{"seeing what branches exist and how far they are from their upstream", "making, renaming or removing a branch"},
		WhenNot: []string{"switching branches: git_checkout"},
		Examples: []string{`{}`, `{"action": "create", "name": "fix-retry", "start": "main"}`, `{"action": "delete", "name": "old-experiment"}`,
			`{"action": "rename", "name": "wip", "new_name": "feature-x"}`},
	}, gitBranch)
}

func gitBranch(ctx context.Context, c *Call, root string, in GitBranchIn) (*GitBranchOut, error) {
	out := &GitBranchOut{}
	var done string
	switch in.Action {
	case "", "list":
	case "create", "delete", "rename":
		if in.Name == "" {
			return nil, errs.E(errs.InvalidArgument, "%s needs name", in.Action)
		}
		var head string
		var err error
		switch in.Action {
		case "create":
			_, err = c.gitMutation(ctx, func(root string) error { return gitx.CreateBranch(ctx, root, in.Name, in.Start) })
			done = "created " + in.Name
		case "delete":
			if err := gitx.CheckRev("branch name", in.Name); err != nil {
				return nil, gitError(err)
			}
			if head, err = gitx.ResolveCommit(ctx, root, "refs/heads/"+in.Name); err != nil {
				return nil, gitError(err)
			}
			if !in.Confirm {
				lost, err := gitx.OnlyOn(ctx, root, in.Name, 100)
				if err != nil {
					return nil, gitError(err)
				}
				if len(lost) > 0 {
					return nil, needConfirm("deleting "+in.Name, discardPreview{Commits: lost})
				}
			}
			_, err = c.gitMutation(ctx, func(root string) error { return gitx.DeleteBranch(ctx, root, in.Name, true) })
			done = "deleted " + in.Name + " (was " + short(head) + ")"
		case "rename":
			if in.NewName == "" {
				return nil, errs.E(errs.InvalidArgument, "rename needs new_name")
			}
			_, err = c.gitMutation(ctx, func(root string) error { return gitx.RenameBranch(ctx, root, in.Name, in.NewName) })
			done = "renamed " + in.Name + " to " + in.NewName
		}
		if err != nil {
			return nil, err
		}
		if head == "" {
			name := in.Name
			if in.Action == "rename" {
				name = in.NewName
			}
			head, _ = gitx.ResolveCommit(ctx, root, "refs/heads/"+name)
		}
		out.Head = head
	default:
		return nil, mustBeOneOf("action", in.Action, "list", "create", "delete", "rename")
	}
	bs, err := listAfter(c, done, "branches", func() ([]gitx.Branch, error) { return gitx.Branches(ctx, root, in.Remotes) })
	if err != nil {
		return nil, err
	}
	out.Branches = bs
	return out, nil
}
