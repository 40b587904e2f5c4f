package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitRemoteIn are the arguments of git_remote.
type GitRemoteIn struct {
	Action  string `json:"action,omitempty" jsonschema:"list (default), add, remove, rename or set_url"`
	Name    string `json:"name,omitempty" jsonschema:"the remote"`
	URL     string `json:"url,omitempty" jsonschema:"add, set_url: its URL or path"`
	NewName string `json:"new_name,omitempty" jsonschema:"rename: the new name"`
	Base
}

// GitRemoteOut lists the remotes after the action.
type GitRemoteOut struct {
	Remotes []gitx.Remote `json:"remotes"`
}

func init() {
	registerGit(Tool{
		Name: "git_remote", Group: "git",
		Summary:  "List remotes with their fetch and push URLs, or add, remove, rename one or change its URL.",
		When:     []string{"seeing where the repository fetches from and pushes to", "adding a remote before git_fetch or git_push"},
		WhenNot:  []string{"fetching: git_fetch"},
		Examples: []string{`{}`, `{"action": "add", "name": "upstream", "url": "https://example.com/project.git"}`, `{"action": "remove", "name": "old"}`},
	}, gitRemote)
}

func gitRemote(ctx context.Context, c *Call, root string, in GitRemoteIn) (*GitRemoteOut, error) {
	did := ""
	if in.Action != "" && in.Action != "list" {
		if in.Name == "" {
			return nil, errs.E(errs.InvalidArgument, "%s needs name", in.Action)
		}
		var fn func(root string) error
		switch in.Action {
		case "add", "set_url":
			if in.URL == "" {
				return nil, errs.E(errs.InvalidArgument, "%s needs url", in.Action)
			}
			fn = func(root string) error { return gitx.RemoteAdd(ctx, root, in.Name, in.URL) }
			if in.Action == "set_url" {
				fn = func(root string) error { return gitx.RemoteSetURL(ctx, root, in.Name, in.URL) }
			}
		case "remove":
			fn = func(root string) error { return gitx.RemoteRemove(ctx, root, in.Name) }
		case "rename":
			if in.NewName == "" {
				return nil, errs.E(errs.InvalidArgument, "rename needs new_name")
			}
			fn = func(root string) error { return gitx.RemoteRename(ctx, root, in.Name, in.NewName) }
		default:
			return nil, errs.E(errs.InvalidArgument, "action must be list, add, remove, rename or set_url, not %q", in.Action)
		}
		if _, err := c.gitMutation(ctx, fn); err != nil {
			return nil, err
		}
		did = in.Action + " " + in.Name
	}
	rs, err := listAfter(c, did, "remotes", func() ([]gitx.Remote, error) { return gitx.Remotes(ctx, root) })
	if err != nil {
		return nil, err
	}
	return &GitRemoteOut{Remotes: rs}, nil
}
