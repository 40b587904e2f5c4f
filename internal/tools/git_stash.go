package tools

import (
	"context"
	"fmt"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitStashIn are the arguments of git_stash.
type GitStashIn struct {
	Action           string   `json:"action,omitempty" jsonschema:"list (default), push, pop, apply or drop"`
	Message          string   `json:"message,omitempty" jsonschema:"push: a description of the entry"`
	IncludeUntracked bool     `json:"include_untracked,omitempty" jsonschema:"push: stash untracked files too"`
	KeepIndex        bool     `json:"keep_index,omitempty" jsonschema:"push: leave what is staged in place"`
	Paths            []string `json:"paths,omitempty" jsonschema:"push: stash only these repo paths"`
	Entry            int      `json:"entry,omitempty" jsonschema:"pop, apply, drop: which entry (stash@{N}; default 0, the newest)"`
	Confirm          bool     `json:"confirm,omitempty" jsonschema:"drop: go ahead (the entry's changes are lost)"`
	Base
}

// GitStashOut is the stash after the action, with what it did.
type GitStashOut struct {
	Stashes   []gitx.Stash        `json:"stashes"`
	Conflicts []gitx.ConflictFile `json:"conflicts,omitempty"`
	Status    *gitx.Status        `json:"status,omitempty"`
}

func init() {
	registerGit(Tool{
		Name: "git_stash", Group: "git",
		Summary: "Set local changes aside and bring them back: list, push (message, untracked files, only some paths), pop and apply (conflicts listed per file and hunk), drop (needs confirm: true; without it the answer lists the entry's files).",
		Doc:     "pop keeps the entry when it does not apply cleanly; resolve the conflicts, then drop it.",
		When:    []string{"switching context with uncommitted work", "testing the clean tree, then restoring the changes"},
		WhenNot: []string{"keeping work for long: git_commit on a branch"},
		Examples: []string{`{}`, `{"action": "push", "message": "wip parser", "include_untracked": true}`, `{"action": "pop"}`,
			`{"action": "drop", "entry": 1, "confirm": true}`},
	}, gitStash)
}

func gitStash(ctx context.Context, c *Call, root string, in GitStashIn) (*GitStashOut, error) {
	if in.Entry < 0 {
		return nil, errs.E(errs.InvalidArgument, "entry cannot be negative")
	}
	out := &GitStashOut{}
	var did string
	var err error
	switch in.Action {
	case "", "list":
	case "push":
		paths, err := c.gitPaths(ctx, in.Paths)
		if err != nil {
			return nil, err
		}
		var saved bool
		saved, out.Status, err = gitMutate(ctx, c, func(root string) (bool, error) {
			return gitx.StashPush(ctx, root, in.Message, in.IncludeUntracked, in.KeepIndex, paths)
		})
		if err != nil {
			return nil, err
		}
		did = "nothing to stash"
		if saved {
			did = "stashed as stash@{0}"
		}
	case "pop", "apply":
		if err := stashExists(ctx, root, in.Entry); err != nil {
			return nil, err
		}
		out.Conflicts, out.Status, err = gitMutate(ctx, c, func(root string) ([]gitx.ConflictFile, error) {
			return gitx.StashApply(ctx, root, in.Entry, in.Action == "pop", false)
		})
		if err != nil {
			return nil, err
		}
		did = fmt.Sprintf("applied stash@{%d}", in.Entry)
		if in.Action == "pop" {
			did = fmt.Sprintf("popped stash@{%d}", in.Entry)
		}
		if len(out.Conflicts) > 0 {
			did = fmt.Sprintf("stash@{%d} did not apply cleanly: %d files in conflict; the entry is kept", in.Entry, len(out.Conflicts))
		}
	case "drop":
		if err := stashExists(ctx, root, in.Entry); err != nil {
			return nil, err
		}
		if !in.Confirm {
			files, err := gitx.StashFiles(ctx, root, in.Entry)
			if err != nil {
				return nil, gitError(err)
			}
			names := make([]string, len(files))
			for i, f := range files {
				names[i] = f.Path
			}
			return nil, needConfirm(fmt.Sprintf("dropping stash@{%d}", in.Entry), discardPreview{Files: names})
		}
		if out.Status, err = c.gitMutation(ctx, func(root string) error { return gitx.StashDrop(ctx, root, in.Entry) }); err != nil {
			return nil, err
		}
		did = fmt.Sprintf("dropped stash@{%d}", in.Entry)
	default:
		return nil, mustBeOneOf("action", in.Action, "list", "push", "pop", "apply", "drop")
	}
	noun := "stash entries"
	if did != "" {
		noun = "entries"
	}
	if out.Stashes, err = listAfter(c, did, noun, func() ([]gitx.Stash, error) { return gitx.Stashes(ctx, root) }); err != nil {
		return nil, err
	}
	return out, nil
}

func stashExists(ctx context.Context, root string, n int) error {
	list, err := gitx.Stashes(ctx, root)
	if err != nil {
		return gitError(err)
	}
	if n >= len(list) {
		return &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("no stash@{%d}: the stash has %d entries", n, len(list))}
	}
	return nil
}
