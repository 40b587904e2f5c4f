package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitSubmoduleIn are the arguments of git_submodule.
type GitSubmoduleIn struct {
	Action    string   `json:"action,omitempty" jsonschema:"status (default), add, init, update, sync or deinit"`
	URL       string   `json:"url,omitempty" jsonschema:"add: the submodule's repository URL or path"`
	Path      string   `json:"path,omitempty" jsonschema:"add: where to put it (repo path)"`
	Branch    string   `json:"branch,omitempty" jsonschema:"add: the branch to track"`
	Paths     []string `json:"paths,omitempty" jsonschema:"init, update, sync, deinit: only these submodules"`
	Recursive bool     `json:"recursive,omitempty" jsonschema:"status, update, sync: nested submodules too"`
	Confirm   bool     `json:"confirm,omitempty" jsonschema:"deinit: go ahead although submodules have local changes"`
	Base
}

// GitSubmoduleOut lists the submodules after the action.
type GitSubmoduleOut struct {
	Submodules []gitx.Submodule `json:"submodules"`
	Status     *gitx.Status     `json:"status,omitempty"`
}

func init() {
	registerGit(Tool{
		Name: "git_submodule", Group: "git",
		Summary:  "Submodules with their recorded commit, URL and state (uninitialized, in_sync, modified, conflict); add one, or init, update (initialising as needed), sync or deinit them.",
		Doc:      "deinit removes a submodule's working tree; with local changes in it git refuses and confirm: true forces it.",
		When:     []string{"checking out or updating a repository's submodules", "adding a dependency as a submodule"},
		WhenNot:  []string{"several checkouts of this repository: git_worktree"},
		Examples: []string{`{}`, `{"action": "update", "recursive": true}`, `{"action": "add", "url": "https://example.com/lib.git", "path": "third_party/lib"}`},
	}, gitSubmodule)
}

func gitSubmodule(ctx context.Context, c *Call, root string, in GitSubmoduleIn) (*GitSubmoduleOut, error) {
	out := &GitSubmoduleOut{}
	did := ""
	switch in.Action {
	case "", "status":
	case "add":
		if in.URL == "" || in.Path == "" {
			return nil, errs.E(errs.InvalidArgument, "add needs url and path")
		}
		path, err := c.gitPath(ctx, in.Path)
		if err != nil {
			return nil, err
		}
		out.Status, err = c.gitMutation(ctx, func(root string) error { return gitx.SubmoduleAdd(ctx, root, in.URL, path, in.Branch) })
		if err != nil {
			return nil, err
		}
		did = "added " + path
	case "init", "update", "sync", "deinit":
		paths, err := c.gitPaths(ctx, in.Paths)
		if err != nil {
			return nil, err
		}
		out.Status, err = c.gitMutation(ctx, func(root string) error {
			return gitx.SubmoduleRun(ctx, root, in.Action, paths, in.Recursive, in.Confirm)
		})
		if err != nil {
			return nil, err
		}
		did = in.Action + " done"
	default:
		return nil, errs.E(errs.InvalidArgument, "action must be status, add, init, update, sync or deinit, not %q", in.Action)
	}
	subs, err := listAfter(c, did, "submodules", func() ([]gitx.Submodule, error) { return gitx.Submodules(ctx, root, in.Recursive) })
	if err != nil {
		return nil, err
	}
	out.Submodules = subs
	return out, nil
}
