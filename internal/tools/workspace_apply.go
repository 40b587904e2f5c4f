package tools

import (
	"context"
	"sort"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/workspace"
)

// WorkspaceApplyIn are the arguments of workspace_apply.
type WorkspaceApplyIn struct {
	WorkspaceID string `json:"workspace_id" jsonschema:"the workspace whose overlay to land in the working tree"`
	WriteDryRun
	Base
}

// WorkspaceApplyOut is the write's result and the workspace after it.
type WorkspaceApplyOut struct {
	*mutate.Result
	Workspace WorkspaceSummary `json:"workspace"`
}

func init() {
	Register(Tool{
		Name: "workspace_apply", Group: "workspace",
		Summary: "Land a workspace's overlay in the working tree as one atomic write (like write_source), then empty the overlay. Refuses with CONFLICT, writing nothing, when a target file changed since the overlay took it.",
		Doc: workspaceDoc + " Each overlay file is written with the sha256 the tree had when the overlay took it as its expected_sha256, so a file another agent or a person changed since fails the whole batch with CONFLICT (details name the file and both hashes); a file the overlay creates must still be absent. " +
			"The write goes through the same gate as write_source (edits: off refuses it; secrets, .git and ignored files are refused; edit_undo reverts it) and the index is updated before the answer. After it lands, the workspace's overlay is empty and its base is the new tree.",
		When:     []string{"the work in a workspace is done and should become the files"},
		WhenNot:  []string{"discarding the work: workspace_reset", "seeing what would change: dry_run"},
		Examples: []string{`{"workspace_id": "agent-a", "dry_run": true}`, `{"workspace_id": "agent-a"}`},
	}, workspaceApply)
}

func workspaceApply(ctx context.Context, c *Call, in WorkspaceApplyIn) (*WorkspaceApplyOut, error) {
	if err := c.editsAllowed(); err != nil {
		return nil, err
	}
	v, err := c.loadWorkspace(in.WorkspaceID)
	if err != nil {
		return nil, err
	}
	w := v.WS
	if len(w.Files) == 0 {
		return nil, &errs.Error{Kind: errs.Precondition, Msg: "workspace " + in.WorkspaceID + " has no changes to apply",
			Fixes: []string{"write into it first: cairn write --workspace " + in.WorkspaceID}}
	}
	var edits []mutate.FileEdit
	for _, p := range w.Paths() {
		f := w.Files[p]
		content, _, _ := v.File(p)
		switch {
		case f.BaseSHA256 == "":
			if c.exists(p) {
				return nil, &errs.Error{Kind: errs.Conflict, Path: p, Msg: p + " was created in the working tree since the workspace created it",
					Details: map[string]any{"path": p, "expected_sha256": "", "current_sha256": c.treeSHA(p)},
					Fixes:   []string{"cairn read " + p + " (without --workspace) shows it; write the workspace's version again on top of it (cairn write --workspace " + in.WorkspaceID + "), then apply"}}
			}
			s := string(content)
			edits = append(edits, mutate.FileEdit{Path: p, Action: mutate.Create, Content: &s})
		case f.Deleted:
			edits = append(edits, mutate.FileEdit{Path: p, Action: mutate.Delete, ExpectedSHA256: f.BaseSHA256})
		default:
			s := string(content)
			edits = append(edits, mutate.FileEdit{Path: p, Action: mutate.Update, Content: &s, ExpectedSHA256: f.BaseSHA256})
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Path < edits[j].Path })
	res, err := c.write(ctx, mutate.Request{Edits: edits, DryRun: in.DryRun})
	if err != nil {
		if e := errs.As(err); e.Kind == errs.Conflict {
			e.Fixes = []string{"cairn workspace refresh " + in.WorkspaceID + " merges the tree's changes into the overlay and lists the files it cannot merge; write those again in the workspace on top of the tree's version (cairn write --workspace " + in.WorkspaceID + "), refresh, then apply"}
		}
		return nil, err
	}
	out := &WorkspaceApplyOut{Result: res}
	if res.DryRun {
		c.Answer("dry run: applying workspace %s would change %d files (+%d -%d lines); nothing written", w.ID, res.FilesChanged, res.LinesAdded, res.LinesRemoved)
		out.Workspace = c.summarize(w)
		return out, nil
	}
	// The overlay is in the tree now: empty it and base it on the new tree.
	applied := map[string]string{}
	for _, p := range w.Paths() {
		applied[p] = w.Files[p].SHA256
	}
	after, err := c.workspaces().Update(w.ID, func(cur *workspace.Workspace) error {
		for p, sum := range applied {
			if f := cur.Files[p]; f != nil && f.SHA256 == sum { // unless written again meanwhile
				delete(cur.Files, p)
			}
		}
		cur.Base = c.base()
		cur.Revision++
		return nil
	})
	if err != nil {
		c.Warn("the overlay was applied, but the workspace could not be emptied: %s", errs.As(err).Message())
		after = w
	}
	out.Workspace = c.summarize(after)
	c.Answer("applied workspace %s as batch %s: %d files changed (+%d -%d lines)", w.ID, res.Batch, res.FilesChanged, res.LinesAdded, res.LinesRemoved)
	c.Next("edit_undo", map[string]any{}, "revert this write")
	return out, nil
}
