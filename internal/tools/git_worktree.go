package tools

import (
	"context"
	"path/filepath"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitWorktreeIn are the arguments of git_worktree.
type GitWorktreeIn struct {
	Action  string `json:"action,omitempty" jsonschema:"list (default), add, remove, lock, unlock or prune"`
	Path    string `json:"path,omitempty" jsonschema:"the worktree's directory (relative paths are taken from the repository root)"`
	Rev     string `json:"rev,omitempty" jsonschema:"add: the commit or branch to check out (default HEAD)"`
	Branch  string `json:"branch,omitempty" jsonschema:"add: create this branch there"`
	Reason  string `json:"reason,omitempty" jsonschema:"lock: why"`
	Confirm bool   `json:"confirm,omitempty" jsonschema:"remove: go ahead although the worktree has local changes (they are lost)"`
	Base
}

// GitWorktreeOut lists the worktrees after the action.
type GitWorktreeOut struct {
	Worktrees []gitx.Worktree `json:"worktrees"`
}

func init() {
	registerGit(Tool{
		Name: "git_worktree", Group: "git",
		Summary:  "Worktrees of the repository (path, HEAD, branch, locked, prunable); add one for a branch or commit, remove one (needs confirm: true when it has local changes; without it the answer lists them), lock, unlock or prune.",
		Doc:      "Every worktree of a repository shares Cairn's content-addressed facts, so indexing a new one parses only what it has that no other had.",
		When:     []string{"working on two branches at once without stashing"},
		WhenNot:  []string{"switching the current worktree: git_checkout"},
		Examples: []string{`{}`, `{"action": "add", "path": "../review", "rev": "main"}`, `{"action": "remove", "path": "../review"}`},
	}, gitWorktree)
}

func gitWorktree(ctx context.Context, c *Call, root string, in GitWorktreeIn) (*GitWorktreeOut, error) {
	path := in.Path
	if path != "" && !filepath.IsAbs(path) {
		path = filepath.Join(root, filepath.FromSlash(path))
	}
	did := ""
	switch in.Action {
	case "", "list":
	case "add", "remove", "lock", "unlock", "prune":
		if in.Path == "" && in.Action != "prune" {
			return nil, errs.E(errs.InvalidArgument, "%s needs path", in.Action)
		}
		if err := gitx.CheckPaths([]string{in.Path}); in.Path != "" && err != nil {
			return nil, gitError(err)
		}
		if in.Action == "remove" && !in.Confirm {
			st, err := gitx.GetStatus(ctx, path)
			if err != nil {
				return nil, gitError(err)
			}
			if files := append(changedFiles(st), st.Untracked...); len(files) > 0 {
				return nil, needConfirm("removing "+in.Path, discardPreview{Files: files})
			}
		}
		_, err := c.gitMutation(ctx, func(root string) error {
			if in.Action == "add" {
				return gitx.WorktreeAdd(ctx, root, path, in.Rev, in.Branch)
			}
			return gitx.WorktreeRun(ctx, root, in.Action, path, in.Confirm, in.Reason)
		})
		if err != nil {
			return nil, err
		}
		did = in.Action + " " + in.Path
	default:
		return nil, mustBeOneOf("action", in.Action, "list", "add", "remove", "lock", "unlock", "prune")
	}
	wts, err := listAfter(c, did, "worktrees", func() ([]gitx.Worktree, error) { return gitx.Worktrees(ctx, root) })
	if err != nil {
		return nil, err
	}
	return &GitWorktreeOut{Worktrees: wts}, nil
}
