package mutate

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
)

// goal is where undoing brings one file: from the content the newest
// undone batch left (expect) back to the content before the oldest one
// (want); "" is no file.
type goal struct {
	path         string
	expect, want string
	mode         fs.FileMode
	batches      []string // the undone batches that touched it, newest first
}

// Undo reverts the last n recorded batches, newest first, as one batch
// through the same atomic path. It refuses (PRECONDITION_FAILED, naming
// the files) unless every file still holds what those batches left in it.
// An undo is not itself recorded: undoing again reverts the batch before.
func (e *Engine) Undo(ctx context.Context, n int, dryRun bool) (*Result, error) {
	if n < 1 {
		return nil, errs.E(errs.InvalidArgument, "the number of batches to undo must be at least 1, not %d", n)
	}
	var warnings []string
	if !dryRun {
		w, err := e.Recover(ctx)
		if err != nil {
			return nil, err
		}
		warnings = w
	}
	entries, err := e.entries()
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot read the undo record")
	}
	if len(entries) == 0 {
		return nil, &errs.Error{Kind: errs.NotFound, Msg: "no recorded write to undo"}
	}
	if n > len(entries) {
		return nil, &errs.Error{Kind: errs.NotFound, Msg: fmt.Sprintf("only %d writes are recorded; cannot undo %d", len(entries), n),
			Details: map[string]any{"recorded": len(entries)}}
	}
	undone := make([]string, 0, n)
	goals := map[string]*goal{}
	var order, dirs []string
	for i := len(entries) - 1; i >= len(entries)-n; i-- {
		en := entries[i]
		undone = append(undone, en.Batch)
		dirs = append(dirs, en.Dirs...)
		for _, f := range en.Files {
			g := goals[f.Path]
			if g == nil {
				g = &goal{path: f.Path, expect: f.NewSHA}
				goals[f.Path] = g
				order = append(order, f.Path)
			} else if f.NewSHA != g.want {
				// Between this batch and a newer one, something else changed
				// the file: undoing both would lose that change.
				return nil, &errs.Error{Kind: errs.Precondition, Path: f.Path,
					Msg:     fmt.Sprintf("cannot undo %d writes: %s changed between batch %s and batch %s outside these writes", n, f.Path, en.Batch, g.batches[len(g.batches)-1]),
					Details: map[string]any{"files": []string{f.Path}},
					Fixes:   []string{"undo fewer writes"}}
			}
			g.want, g.mode = f.OldSHA, fs.FileMode(f.OldMode)
			g.batches = append(g.batches, en.Batch)
		}
	}
	sort.Strings(order)
	var reqs []lockReq
	targets := map[string]target{}
	for _, p := range order {
		t, err := e.resolve(ctx, p)
		if err != nil {
			return nil, err
		}
		targets[p] = t
		reqs = append(reqs, lockReq{path: t.path})
	}
	if !dryRun {
		l, err := e.lockFiles(reqs)
		if err != nil {
			return nil, err
		}
		defer l.release()
	}
	var changes []*change
	var changed []string
	var details []map[string]any
	for _, p := range order {
		g, t := goals[p], targets[p]
		c, cur, err := e.revert(g, t)
		if err != nil {
			return nil, err
		}
		if cur != g.expect {
			changed = append(changed, p)
			details = append(details, map[string]any{"path": p, "expected_sha256": g.expect, "current_sha256": cur})
			continue
		}
		if c != nil {
			changes = append(changes, c)
		}
	}
	if len(changed) > 0 {
		return nil, &errs.Error{Kind: errs.Precondition, Path: changed[0],
			Msg:     fmt.Sprintf("cannot undo: %s changed since the write that is to be undone", strings.Join(changed, ", ")),
			Details: map[string]any{"files": details},
			Fixes:   []string{"edit the files back by hand (write_source), or undo nothing"}}
	}
	res := summarize(changes, nil, dryRun)
	res.Undone, res.Warnings = undone, warnings
	if dryRun {
		return res, nil
	}
	b := &batch{id: newBatchID(), changes: changes, undoes: undone}
	if len(changes) == 0 {
		// The batches cancel out (a file created then deleted): only the
		// record changes.
		if err := e.settle(&journal{Batch: b.id, Undoes: undone}); err != nil {
			return nil, errs.Wrap(errs.Internal, err, "cannot update the undo record")
		}
	} else if err := e.apply(ctx, b); err != nil {
		return nil, err
	}
	e.removeEmptyDirs(dirs)
	res.Batch, res.Applied = b.id, true
	return res, nil
}

// removeEmptyDirs removes the directories undone batches created, those
// that are empty again, deepest first.
func (e *Engine) removeEmptyDirs(dirs []string) {
	sort.Slice(dirs, func(i, j int) bool { return strings.Count(dirs[i], "/") > strings.Count(dirs[j], "/") })
	for _, d := range dirs {
		if e.policy(d, "") == nil {
			os.Remove(e.abs(d)) // fails, as it should, on a directory with files
		}
	}
}

// revert plans one file of an undo: it returns the change (nil when the
// file already holds what it should) and the file's current sha256.
func (e *Engine) revert(g *goal, t target) (*change, string, error) {
	c := &change{target: t}
	info, err := os.Stat(t.abs)
	if err == nil && info.Mode().IsRegular() {
		if c.old, err = os.ReadFile(t.abs); err != nil {
			return nil, "", errs.Wrap(errs.Internal, err, "cannot read %s", t.named)
		}
		c.oldSHA = SHA(c.old)
		c.oldMode = info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	}
	if c.oldSHA != g.expect || g.want == g.expect {
		return nil, c.oldSHA, nil
	}
	switch {
	case g.want == "":
		c.action = Delete
	case c.old == nil:
		c.action = Create
	default:
		c.action = Update
	}
	if g.want != "" {
		data, err := os.ReadFile(e.blobPath(g.want))
		if err != nil || SHA(data) != g.want {
			return nil, c.oldSHA, &errs.Error{Kind: errs.Internal, Path: t.named, Err: err, Msg: "the old content of " + t.named + " is no longer kept"}
		}
		c.new, c.newSHA, c.newMode = data, g.want, g.mode
	}
	return c, c.oldSHA, nil
}
