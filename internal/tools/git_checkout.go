package tools

import (
	"context"
	"errors"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitCheckoutIn are the arguments of git_checkout.
type GitCheckoutIn struct {
	Rev     string   `json:"rev,omitempty" jsonschema:"the branch to switch to, or a commit (detached); with paths, where their content comes from (default: the index)"`
	Create  string   `json:"create,omitempty" jsonschema:"create this branch at rev (default HEAD) and switch to it"`
	Paths   []string `json:"paths,omitempty" jsonschema:"restore these repo paths instead of switching (discards their local changes)"`
	Confirm bool     `json:"confirm,omitempty" jsonschema:"go ahead although local changes are discarded"`
	Base
}

// GitCheckoutOut is where HEAD is after a checkout.
type GitCheckoutOut struct {
	From   string       `json:"from,omitempty"`
	Head   string       `json:"head"`
	Branch string       `json:"branch,omitempty"`
	Status *gitx.Status `json:"status"`
}

func init() {
	registerGit(Tool{
		Name: "git_checkout", Group: "git",
		Summary: "Switch to a branch or commit (create: a new branch), or restore paths from the index or a revision. Discarding local changes needs confirm: true; without it the answer lists the files that would lose them.",
		Doc: "A switch keeps local changes that do not collide; when git refuses because they would be overwritten, the error lists those files (details.would_discard) and confirm: true forces the switch, discarding every local change to tracked files. " +
			"Restoring paths that have local changes needs confirm too. The index follows HEAD before the call answers.",
		When:     []string{"moving to another branch or commit", "dropping the local changes of some files"},
		WhenNot:  []string{"creating a branch without switching: git_branch", "moving the branch itself: git_reset"},
		Examples: []string{`{"rev": "main"}`, `{"create": "fix-retry"}`, `{"paths": ["src/server.go"], "confirm": true}`},
	}, gitCheckout)
}

func gitCheckout(ctx context.Context, c *Call, root string, in GitCheckoutIn) (*GitCheckoutOut, error) {
	from, _ := gitx.Head(ctx, root)
	if len(in.Paths) > 0 {
		if in.Create != "" {
			return nil, errs.E(errs.InvalidArgument, "give create or paths, not both")
		}
		paths, err := c.gitPaths(ctx, in.Paths)
		if err != nil {
			return nil, err
		}
		if !in.Confirm {
			st, err := gitx.GetStatus(ctx, root, paths...)
			if err != nil {
				return nil, gitError(err)
			}
			if files := changedFiles(st); len(files) > 0 {
				return nil, needConfirm("restoring these paths", discardPreview{Files: files})
			}
		}
		st, err := c.gitMutation(ctx, func(root string) error { return gitx.RestorePaths(ctx, root, in.Rev, paths) })
		if err != nil {
			return nil, err
		}
		c.Answer("restored %d paths; %s", len(paths), statusLine(st))
		return checkedOut(from, st), nil
	}
	if in.Rev == "" && in.Create == "" {
		return nil, errs.E(errs.InvalidArgument, "name a rev to switch to, a branch to create, or paths to restore")
	}
	// Without confirm the switch is not forced: git keeps local changes
	// that do not collide, and refuses, naming the files, when they would
	// be lost.
	st, err := c.gitMutation(ctx, func(root string) error { return gitx.Switch(ctx, root, in.Rev, in.Create, in.Confirm) })
	if files := wouldOverwrite(err); len(files) > 0 && !in.Confirm {
		return nil, needConfirm("this checkout", discardPreview{Files: files})
	}
	if err != nil {
		return nil, err
	}
	c.Answer("HEAD %s -> %s; %s", short(from), short(st.Head), statusLine(st))
	return checkedOut(from, st), nil
}

func checkedOut(from string, st *gitx.Status) *GitCheckoutOut {
	return &GitCheckoutOut{From: from, Head: st.Head, Branch: st.Branch, Status: st}
}

// wouldOverwrite lists the files whose local changes made git refuse an
// operation (none when it did not refuse for them).
func wouldOverwrite(err error) []string {
	var e *errs.Error
	if !errors.As(err, &e) {
		return nil
	}
	files, _ := e.Details["would_overwrite"].([]string)
	return files
}
