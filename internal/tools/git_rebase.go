package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
)

// GitRebaseIn are the arguments of git_rebase.
type GitRebaseIn struct {
	Action   string            `json:"action,omitempty" jsonschema:"plan (default), execute, continue, skip, abort or status"`
	Upstream string            `json:"upstream,omitempty" jsonschema:"plan, execute: the branch to rebase onto; the commits of HEAD not in it are replayed"`
	Onto     string            `json:"onto,omitempty" jsonschema:"plan, execute: replay onto this commit instead of upstream"`
	Steps    []gitx.RebaseStep `json:"steps,omitempty" jsonschema:"execute: the plan's steps, edited: action pick, reword, edit, squash, fixup or drop per commit, in the order to apply; message for reword and squash (default: every commit picked)"`
	Base
}

// GitRebaseOut is a plan, or where a rebase stands, with the status.
type GitRebaseOut struct {
	Plan   *gitx.RebasePlan  `json:"plan,omitempty"`
	State  *gitx.RebaseState `json:"state,omitempty"`
	Status *gitx.Status      `json:"status,omitempty"`
}

func init() {
	registerGit(Tool{
		Name: "git_rebase", Group: "git",
		Summary: "Replay the current branch's commits onto another: plan lists them as steps; execute applies the steps (pick, reword, edit, squash, fixup, drop, reordered as given); continue, skip and abort drive a rebase that stopped. Every answer has a structured state: done, conflict (with the files and hunks), edit_pause, aborted.",
		Doc: "A conflict stops the rebase with state conflict, the step it reached and the commit being applied; resolve the files (write_source, then git_stage) and continue, skip the commit, or abort to restore the branch. " +
			"edit steps stop with state edit_pause for changes before continue. Hooks do not run.",
		When:     []string{"updating a branch on top of its base", "reordering, squashing, rewording or dropping commits before publishing"},
		WhenNot:  []string{"combining branches without rewriting: git_merge"},
		Examples: []string{`{"upstream": "main"}`, `{"action": "execute", "upstream": "main"}`, `{"action": "continue"}`, `{"action": "abort"}`},
	}, gitRebase)
}

func gitRebase(ctx context.Context, c *Call, root string, in GitRebaseIn) (*GitRebaseOut, error) {
	action := in.Action
	if action == "" {
		action = "plan"
	}
	if (action == "plan" || action == "execute") && in.Upstream == "" {
		return nil, errs.E(errs.InvalidArgument, "%s needs upstream", action)
	}
	switch action {
	case "plan":
		p, err := gitx.PlanRebase(ctx, root, in.Upstream, in.Onto)
		if err != nil {
			return nil, gitError(err)
		}
		c.Answer("rebase onto %s would replay %d commits", short(p.Onto), len(p.Steps))
		c.Next("git_rebase", map[string]any{"action": "execute", "upstream": in.Upstream}, "replay them (edit steps to reorder, squash or drop)")
		return &GitRebaseOut{Plan: p}, nil
	case "status":
		st := gitx.CurrentRebase(ctx, root)
		c.Answer("rebase: %s", st.State)
		return &GitRebaseOut{State: st}, nil
	case "execute", "continue", "skip", "abort":
	default:
		return nil, errs.E(errs.InvalidArgument, "action must be plan, execute, continue, skip, abort or status, not %q", action)
	}
	rs, st, err := gitMutate(ctx, c, func(root string) (*gitx.RebaseState, error) {
		switch action {
		case "execute":
			if gitx.OperationState(ctx, root) != "none" {
				return nil, &errs.Error{Kind: errs.Precondition, Msg: "another operation is in progress: " + gitx.OperationState(ctx, root)}
			}
			steps := in.Steps
			if len(steps) == 0 {
				p, err := gitx.PlanRebase(ctx, root, in.Upstream, in.Onto)
				if err != nil {
					return nil, err
				}
				steps = p.Steps
			}
			return gitx.ExecuteRebase(ctx, root, in.Upstream, in.Onto, steps)
		case "continue":
			return gitx.RebaseContinue(ctx, root)
		case "skip":
			return gitx.RebaseSkip(ctx, root)
		default: // abort
			return gitx.RebaseAbort(ctx, root)
		}
	})
	if err != nil {
		return nil, err
	}
	switch rs.State {
	case "conflict":
		c.Answer("rebase stopped at step %d of %d on %s: %d files in conflict", rs.Step, rs.Total, short(rs.Current), len(rs.Conflicts))
		c.Next("git_rebase", map[string]any{"action": "continue"}, "after resolving and staging the files")
		c.Next("git_rebase", map[string]any{"action": "abort"}, "restore the branch as it was")
	case "edit_pause":
		c.Answer("rebase paused at step %d of %d on %s for editing", rs.Step, rs.Total, short(rs.Current))
		c.Next("git_rebase", map[string]any{"action": "continue"}, "go on once the commit is amended")
	default:
		c.Answer("rebase %s; HEAD at %s; %s", rs.State, short(rs.Head), statusLine(st))
	}
	return &GitRebaseOut{State: rs, Status: st}, nil
}
