package tools

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/scan"
	"github.com/cairnhq/cairn/internal/workspace"
)

// WorkspaceConflict is an overlay file a refresh could not merge with the
// tree's changes underneath it.
type WorkspaceConflict struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Hunks are the regions both sides changed (a content conflict),
	// numbered in the merge with diff3 markers: ours is the workspace's
	// version, theirs the tree's.
	Hunks []gitx.ConflictHunk `json:"hunks,omitempty"`
}

// Bounds of the conflict hunks a refresh reports per file.
const (
	maxConflictHunks     = 20
	maxConflictHunkLines = 40 // per side of a hunk
)

func workspaceRefresh(ctx context.Context, c *Call, in WorkspaceIn) (*WorkspaceOut, error) {
	out := &WorkspaceOut{Landed: []string{}}
	store := c.workspaces()
	cut := false
	w, err := store.Update(workspace.ID(in.WorkspaceID), func(w *workspace.Workspace) error {
		out.Landed, out.Merged, out.Conflicts = []string{}, nil, nil
		cut = false
		w.Base = c.base()
		changed := false
		for _, p := range w.Paths() {
			res, err := c.refreshFile(ctx, store, w, p)
			if err != nil {
				return err
			}
			switch {
			case res.landed:
				delete(w.Files, p)
				out.Landed = append(out.Landed, p)
				changed = true
			case res.merged:
				out.Merged = append(out.Merged, p)
				changed = true
			case res.conflict != nil:
				cut = cutHunks(res.conflict) || cut
				out.Conflicts = append(out.Conflicts, *res.conflict)
			}
		}
		if changed {
			w.Revision++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Workspace = c.summarize(w)
	c.Answer("workspace %s rebased on %s: %d overlay files, %d already in the tree, %d merged with the tree's changes, %d in conflict",
		w.ID, shortCommit(w.Base.Commit), len(w.Files), len(out.Landed), len(out.Merged), len(out.Conflicts))
	if len(out.Conflicts) > 0 {
		c.Warn("%d overlay files conflict with the tree's changes underneath them; applying refuses them (CONFLICT) until they are written again in the workspace", len(out.Conflicts))
		p := out.Conflicts[0].Path
		c.Next("read_source", map[string]any{"path": p}, "read the tree's version of "+p)
		c.Next("read_source", map[string]any{"path": p, "workspace_id": string(w.ID)}, "read the workspace's version of "+p)
	}
	if cut {
		c.Warn("conflict hunks are cut to %d per file and %d lines per side", maxConflictHunks, maxConflictHunkLines)
	}
	if len(out.Merged) > 0 {
		c.Next("workspace_apply", map[string]any{"workspace_id": string(w.ID), "dry_run": true}, "see what applying the merged overlay would write")
	}
	return out, nil
}

// refreshed is what a refresh did with one overlay file.
type refreshed struct {
	landed, merged bool
	conflict       *WorkspaceConflict
}

// refreshFile brings one overlay file onto the tree as it is now: dropped
// when the tree holds its version, merged three ways when the tree changed
// since the overlay took it (updating w's entry), or a conflict.
func (c *Call) refreshFile(ctx context.Context, store *workspace.Store, w *workspace.Workspace, p string) (refreshed, error) {
	f := w.Files[p]
	tree, err := os.ReadFile(c.treeFile(p))
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return refreshed{}, errs.Wrap(errs.Internal, err, "cannot read %s", p)
	}
	treeSHA := ""
	if exists {
		treeSHA = workspace.SHA(tree)
	}
	switch {
	case exists && !f.Deleted && treeSHA == f.SHA256, !exists && f.Deleted:
		return refreshed{landed: true}, nil // the tree holds the overlay's version now
	case treeSHA == f.BaseSHA256:
		return refreshed{}, nil // nothing changed underneath
	}
	conflict := func(reason string, hunks []gitx.ConflictHunk) (refreshed, error) {
		return refreshed{conflict: &WorkspaceConflict{Path: p, Reason: reason, Hunks: hunks}}, nil
	}
	switch {
	case !exists:
		return conflict("deleted in the tree since the workspace took it; the workspace changes it", nil)
	case f.Deleted:
		return conflict("changed in the tree since the workspace took it; the workspace deletes it", nil)
	}
	base, ok := store.BaseContent(f)
	if !ok {
		return conflict("changed in the tree since the workspace took it, and the version the workspace started from was not kept: no merge base", nil)
	}
	ours, err := store.Content(f.SHA256)
	if err != nil {
		return refreshed{}, err
	}
	if scan.IsBinary(base) || scan.IsBinary(ours) || scan.IsBinary(tree) {
		return conflict("binary content changed on both sides: no line merge", nil)
	}
	m, err := gitx.MergeFile(ctx, base, ours, tree, "workspace "+string(w.ID), "tree")
	if err != nil {
		return refreshed{}, errs.Wrap(errs.Internal, err, "cannot merge %s", p)
	}
	if !m.Clean() {
		return conflict("the workspace and the tree changed the same lines", m.Hunks)
	}
	if bytes.Equal(m.Merged, tree) {
		return refreshed{landed: true}, nil // the tree already holds everything the overlay changed
	}
	sum, err := store.Put(m.Merged)
	if err != nil {
		return refreshed{}, err
	}
	if _, err := store.Put(tree); err != nil { // the new base, for the next refresh
		return refreshed{}, err
	}
	f.SHA256, f.BaseSHA256 = sum, treeSHA
	return refreshed{merged: true}, nil
}

// cutHunks bounds a conflict's hunks; it reports whether it cut any.
func cutHunks(cf *WorkspaceConflict) bool {
	cut := false
	if len(cf.Hunks) > maxConflictHunks {
		cf.Hunks, cut = cf.Hunks[:maxConflictHunks], true
	}
	for i := range cf.Hunks {
		h := &cf.Hunks[i]
		for _, side := range []*[]string{&h.Ours, &h.Base, &h.Theirs} {
			if len(*side) > maxConflictHunkLines {
				*side, cut = (*side)[:maxConflictHunkLines], true
			}
		}
	}
	return cut
}
