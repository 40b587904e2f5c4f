package tools

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/mutate"
)

// UndoIn are the arguments of edit_undo.
type UndoIn struct {
	Count int `json:"count,omitempty" jsonschema:"how many of the latest writes to revert, newest first (default 1)"`
	WriteDryRun
	Base
}

func init() {
	Register(Tool{
		Name: "edit_undo", Group: "edit",
		Summary: "Revert the latest writes of write_source (count, newest first) in one all-or-nothing batch, only when every file still holds what those writes left in it; otherwise refuses, naming the files changed since.",
		Doc: "Every applied write_source batch is recorded with the contents it replaced; the latest 50 are kept. " +
			"Reverting several batches restores each file to what it held before the oldest of them. " +
			"An undo is not recorded itself: a second undo reverts the write before. " +
			"The index is updated before the answer, as for write_source; with edits: off it is refused.",
		When:     []string{"a write turned out wrong and nothing changed the files since"},
		WhenNot:  []string{"files edited by hand or by other tools since the write: write_source with the content you want"},
		Examples: []string{`{}`, `{"count": 2, "dry_run": true}`},
	}, editUndo)
}

func editUndo(ctx context.Context, c *Call, in UndoIn) (*mutate.Result, error) {
	if err := c.editsAllowed(); err != nil {
		return nil, err
	}
	n := in.Count
	if n == 0 {
		n = 1
	}
	res, err := c.mutator().Undo(ctx, n, in.DryRun)
	if err != nil {
		return nil, err
	}
	c.wrote(ctx, res)
	batches := strings.Join(res.Undone, ", ")
	if res.DryRun {
		c.Answer("dry run: undoing %s would change %d files (+%d -%d lines); nothing written", batches, res.FilesChanged, res.LinesAdded, res.LinesRemoved)
		return res, nil
	}
	c.Answer("undid %s: %d files changed (+%d -%d lines)", batches, res.FilesChanged, res.LinesAdded, res.LinesRemoved)
	return res, nil
}
