package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/gitx"
)

// GitFetchIn are the arguments of git_fetch.
type GitFetchIn struct {
	Remote string `json:"remote,omitempty" jsonschema:"the remote to fetch from (default: every remote)"`
	Prune  bool   `json:"prune,omitempty" jsonschema:"delete remote-tracking branches whose branch is gone"`
	Tags   bool   `json:"tags,omitempty" jsonschema:"fetch every tag too"`
	Base
}

// GitFetchOut lists the remote-tracking refs a fetch moved.
type GitFetchOut struct {
	Updated []gitx.RefUpdate `json:"updated"`
	Status  *gitx.Status     `json:"status"`
}

func init() {
	Register(Tool{
		Name: "git_fetch", Group: "git",
		Summary:  "Fetch from a remote (or all) and report each remote-tracking branch that appeared, moved or was pruned, with the status's ahead/behind.",
		Doc:      "Credentials come from git's own helpers and the SSH agent; git never prompts (a remote that needs a password fails with git's message).",
		When:     []string{"seeing what others pushed before merging or rebasing"},
		WhenNot:  []string{"fetching and integrating at once: git_pull"},
		Examples: []string{`{}`, `{"remote": "origin", "prune": true}`},
	}, gitFetch)
}

func gitFetch(ctx context.Context, c *Call, in GitFetchIn) (*GitFetchOut, error) {
	ups, st, err := gitMutate(ctx, c, func(root string) ([]gitx.RefUpdate, error) {
		return gitx.Fetch(ctx, root, in.Remote, in.Prune, in.Tags)
	})
	if err != nil {
		return nil, err
	}
	c.Answer("fetched: %d remote-tracking refs changed; %s", len(ups), statusLine(st))
	if st.Behind > 0 {
		c.Next("git_pull", map[string]any{}, "integrate the new commits")
	}
	return &GitFetchOut{Updated: ups, Status: st}, nil
}
