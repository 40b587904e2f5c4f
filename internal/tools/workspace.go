package tools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/workspace"
)

// WorkspaceIn names a workspace.
type WorkspaceIn struct {
	WorkspaceID string `json:"workspace_id" jsonschema:"the workspace (workspace_list shows them)"`
	Base
}

// WorkspaceCreateIn are the arguments of workspace_create.
type WorkspaceCreateIn struct {
	WorkspaceID string `json:"workspace_id,omitempty" jsonschema:"the id to give it (lower-case letters, digits, '.', '_', '-'); a fresh one when left out; an existing id returns that workspace"`
	Base
}

// WorkspaceSummary is a workspace as the workspace tools describe it.
type WorkspaceSummary struct {
	ID         string   `json:"workspace_id"`
	BaseCommit string   `json:"base_commit,omitempty"`
	BaseEpoch  int64    `json:"base_epoch"`
	CreatedAt  string   `json:"created_at"`
	Revision   int      `json:"overlay_revision"`
	Files      []string `json:"files"` // the overlay's paths, sorted
	Deleted    []string `json:"deleted"`
	// Stale is set when HEAD moved since the base commit.
	Stale bool `json:"stale"`
	// ChangedUnderneath are overlay files whose working-tree version changed
	// since the overlay took them: applying would refuse them (CONFLICT).
	ChangedUnderneath []string `json:"changed_underneath"`
}

// WorkspaceOut is the payload of workspace_create, _reset and _refresh.
type WorkspaceOut struct {
	Workspace WorkspaceSummary `json:"workspace"`
	Created   bool             `json:"created,omitempty"`
	// PreviousRevision is the overlay revision a reset dropped.
	PreviousRevision int `json:"previous_revision,omitempty"`
	// Landed are overlay files a refresh dropped because the working tree
	// holds their content now.
	Landed []string `json:"landed,omitempty"`
	// Merged are overlay files a refresh merged cleanly with the tree's
	// changes underneath them: the overlay holds the merge, based on the
	// tree's version now.
	Merged []string `json:"merged,omitempty"`
	// Conflicts are overlay files whose tree version changed in a way the
	// refresh could not merge: their overlay is unchanged.
	Conflicts []WorkspaceConflict `json:"conflicts,omitempty"`
}

// WorkspaceListOut is the payload of workspace_list.
type WorkspaceListOut struct {
	Workspaces []WorkspaceSummary `json:"workspaces"`
	Head       string             `json:"head,omitempty"`
	Epoch      int64              `json:"epoch"`
}

// WorkspaceDeleteOut is the payload of workspace_delete.
type WorkspaceDeleteOut struct {
	ID      string `json:"workspace_id"`
	Deleted bool   `json:"deleted"` // false when there was no such workspace
}

const workspaceDoc = "A workspace is an overlay of changed files in front of the indexed working tree: write_source and the refactor tools with workspace_id write into it instead of the files, and read tools with workspace_id (consistency workspace) see the tree as the overlay changes it, while everyone else sees the tree unchanged. " +
	"Workspaces live in the repository's state directory and survive restarts. workspace_apply lands an overlay in the working tree as one gated, atomic write."

func init() {
	Register(Tool{
		Name: "workspace_create", Group: "workspace", Fresh: true,
		Summary:  "Create a workspace: an overlay of changes on the current tree that only calls naming it see. Idempotent for an existing id.",
		Doc:      workspaceDoc,
		When:     []string{"starting work that other agents must not see until it is applied", "trying a change without touching the files"},
		WhenNot:  []string{"changing the files directly: write_source without workspace_id"},
		Examples: []string{`{"workspace_id": "agent-a"}`, `{}`},
	}, workspaceCreate)
	Register(Tool{
		Name: "workspace_list", Group: "workspace", FreshIfPossible: true,
		Summary:  "List the workspaces with their overlay files and staleness: HEAD moved since the base commit, overlay files whose working-tree version changed since.",
		Doc:      workspaceDoc,
		When:     []string{"finding the workspaces of this repository", "checking whether a workspace can still be applied"},
		Examples: []string{`{}`},
	}, workspaceList)
	Register(Tool{
		Name: "workspace_refresh", Group: "workspace", Fresh: true,
		Summary:  "Rebase a workspace on the current tree: its base becomes HEAD and the current index; overlay files the tree now holds are dropped; files whose tree version changed underneath are merged three ways (the overlay's changes and the tree's, from the version the overlay started from); a conflicted merge leaves the file as it was and lists its conflict hunks.",
		Doc:      workspaceDoc + " A refresh merges each overlay file whose working-tree version changed since the workspace took it, as git merge-file does: from the version the workspace started from (kept with the workspace), the tree's changes and the overlay's are combined. A clean merge becomes the overlay's content, based on the tree's version now (so workspace_apply lands it); a file the tree deleted, a file the workspace deletes but the tree changed, binary content, or changes to the same lines are conflicts: the overlay keeps its version, the answer lists the file with its conflict hunks (line ranges in the merge with diff3 markers, and each side's lines), and workspace_apply refuses it until it is written again in the workspace.",
		When:     []string{"after HEAD moved or the files changed under a workspace (workspace_list says stale)"},
		Examples: []string{`{"workspace_id": "agent-a"}`},
	}, workspaceRefresh)
	Register(Tool{
		Name: "workspace_reset", Group: "workspace",
		Summary:  "Drop a workspace's overlay: it sees the tree unchanged again (the workspace stays).",
		Doc:      workspaceDoc,
		When:     []string{"abandoning a workspace's changes but keeping its id"},
		WhenNot:  []string{"removing it altogether: workspace_delete"},
		Examples: []string{`{"workspace_id": "agent-a"}`},
	}, workspaceReset)
	Register(Tool{
		Name: "workspace_delete", Group: "workspace",
		Summary:  "Delete a workspace and its overlay (deleted false when there was none).",
		Doc:      workspaceDoc,
		Examples: []string{`{"workspace_id": "agent-a"}`},
	}, workspaceDelete)
}

// workspaces is the workspace store of the call's repository.
func (c *Call) workspaces() *workspace.Store { return workspace.Open(c.Env.Paths.StateDir) }

// base is what a workspace is based on now: HEAD and the index epoch.
func (c *Call) base() workspace.Base {
	st := c.State()
	return workspace.Base{Commit: st.Head, Epoch: st.Epoch}
}

// summarize describes a workspace, comparing its base with the tree now.
func (c *Call) summarize(w *workspace.Workspace) WorkspaceSummary {
	s := WorkspaceSummary{ID: string(w.ID), BaseCommit: w.Base.Commit, BaseEpoch: w.Base.Epoch, CreatedAt: w.CreatedAt, Revision: w.Revision,
		Files: []string{}, Deleted: []string{}, ChangedUnderneath: []string{}}
	s.Stale = w.Base.Commit != c.State().Head
	for _, p := range w.Paths() {
		f := w.Files[p]
		s.Files = append(s.Files, p)
		if f.Deleted {
			s.Deleted = append(s.Deleted, p)
		}
		if c.treeSHA(p) != f.BaseSHA256 {
			s.ChangedUnderneath = append(s.ChangedUnderneath, p)
		}
	}
	return s
}

// treeFile is where a repo path lies in the working tree.
func (c *Call) treeFile(p string) string {
	return filepath.Join(c.Env.Paths.Root, filepath.FromSlash(p))
}

// treeSHA is the sha256 of a working-tree file ("" when there is none).
func (c *Call) treeSHA(p string) string {
	data, err := os.ReadFile(c.treeFile(p))
	if err != nil {
		return ""
	}
	return workspace.SHA(data)
}

func workspaceCreate(ctx context.Context, c *Call, in WorkspaceCreateIn) (*WorkspaceOut, error) {
	id := workspace.ID(in.WorkspaceID)
	if id == "" {
		id = workspace.NewID()
	}
	w, created, err := c.workspaces().Create(id, c.base())
	if err != nil {
		return nil, err
	}
	if created {
		c.Answer("created workspace %s on %s", w.ID, shortCommit(w.Base.Commit))
	} else {
		c.Answer("workspace %s exists: %d overlay files, revision %d", w.ID, len(w.Files), w.Revision)
	}
	c.Next("write_source", map[string]any{"workspace_id": string(w.ID)}, "write into the workspace's overlay")
	c.Next("read_source", map[string]any{"workspace_id": string(w.ID)}, "read through the workspace's overlay")
	return &WorkspaceOut{Workspace: c.summarize(w), Created: created}, nil
}

func workspaceList(ctx context.Context, c *Call, in Base) (*WorkspaceListOut, error) {
	all, err := c.workspaces().List()
	if err != nil {
		return nil, err
	}
	out := &WorkspaceListOut{Workspaces: []WorkspaceSummary{}, Head: c.State().Head, Epoch: c.State().Epoch}
	stale := 0
	for _, w := range all {
		s := c.summarize(w)
		if s.Stale || len(s.ChangedUnderneath) > 0 {
			stale++
		}
		out.Workspaces = append(out.Workspaces, s)
	}
	c.Answer("%d workspaces, %d stale", len(out.Workspaces), stale)
	return out, nil
}

func workspaceReset(ctx context.Context, c *Call, in WorkspaceIn) (*WorkspaceOut, error) {
	prev, err := c.workspaces().Reset(workspace.ID(in.WorkspaceID))
	if err != nil {
		return nil, err
	}
	w, err := c.workspaces().Get(workspace.ID(in.WorkspaceID))
	if err != nil {
		return nil, err
	}
	c.Answer("workspace %s reset: its overlay (revision %d) is dropped", w.ID, prev)
	return &WorkspaceOut{Workspace: c.summarize(w), PreviousRevision: prev}, nil
}

func workspaceDelete(ctx context.Context, c *Call, in WorkspaceIn) (*WorkspaceDeleteOut, error) {
	ok, err := c.workspaces().Delete(workspace.ID(in.WorkspaceID))
	if err != nil {
		return nil, err
	}
	if ok {
		c.Answer("deleted workspace %s", in.WorkspaceID)
	} else {
		c.Answer("there was no workspace %s", in.WorkspaceID)
	}
	return &WorkspaceDeleteOut{ID: in.WorkspaceID, Deleted: ok}, nil
}

// loadWorkspace reads a workspace with its overlay's contents.
func (c *Call) loadWorkspace(id string) (*workspace.View, error) {
	if id == "" {
		return nil, errs.E(errs.InvalidArgument, "workspace_id is missing")
	}
	return c.workspaces().Open(workspace.ID(id))
}

func shortCommit(s string) string { return abbrev(s, "a tree without commits") }

// exists reports whether a repo path exists in the working tree.
func (c *Call) exists(p string) bool {
	_, err := os.Lstat(c.treeFile(p))
	return !errors.Is(err, fs.ErrNotExist)
}
