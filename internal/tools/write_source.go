package tools

import (
	"context"
	"fmt"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/workspace"
)

// WriteDryRun is the dry_run argument of the writes that answer with a
// delta: write_source, edit_undo and workspace_apply.
type WriteDryRun struct {
	DryRun bool `json:"dry_run,omitempty" jsonschema:"plan only: return the unified diff and the delta without writing"`
}

// WriteIn are the arguments of write_source.
type WriteIn struct {
	Edits []mutate.FileEdit `json:"edits" jsonschema:"the file edits of the batch, applied all or nothing; one edit per file"`
	WriteDryRun
	Verify string `json:"verify,omitempty" jsonschema:"build: prove the files still build before writing (go build -overlay and go vet, tsc --noEmit, py_compile), refusing the batch with the compiler's diagnostics when not; none (default): write without proof"`
	// WorkspaceID sends the batch to a workspace's overlay.
	WorkspaceID string `json:"workspace_id,omitempty" jsonschema:"write into this workspace's overlay instead of the files (the same checks and delta; nothing on disk changes until workspace_apply)"`
	Base
}

func init() {
	Register(Tool{
		Name: "write_source", Group: "edit",
		Summary: "Create, update or delete files in one all-or-nothing batch: whole contents, or line spans anchored by the text they hold now, guarded by the file_sha256 that read_source returned. Returns a delta per file (hashes, lines added and removed, hunks); dry_run returns the unified diff instead of writing.",
		Doc: "A span names lines of the file as it is before the call (start_line, end_line) and the text they hold (expected); when they moved, the text is looked for within 100 lines and the move is reported in corrections; when it is not there, or there twice, the batch fails with PRECONDITION_FAILED naming the edit. " +
			"expected_sha256 fails the batch with CONFLICT (and the current hash) when the file changed since it was read; an insert (insert: true) needs it. " +
			"Written files keep their line endings (new text takes CRLF in a CRLF file), byte order mark, final newline (or its absence) and mode; new files get mode 0644 and missing directories. " +
			"Paths outside the repository, through a symlink leading out, into .git or Cairn's state, secrets and files ignored by .cairnignore are refused (exit 8). " +
			"Two writers on one file: a batch waits up to 2 s for a file it guards with expected_sha256 and then checks the hash; a file without it that another write holds fails at once with CONFLICT (retryable). " +
			"The index is updated before the answer, so the next read sees the write; edit_undo reverts the batch. With edits: off in the configuration every write is refused.",
		When:    []string{"changing code you have read: read_source gives the lines and file_sha256", "creating, rewriting or deleting files", "previewing a change (dry_run)"},
		WhenNot: []string{"reverting the last write: edit_undo", "reading before an edit: read_source"},
		Examples: []string{
			`{"edits": [{"path": "main.go", "action": "update", "spans": [{"start_line": 12, "expected": "\treturn nil", "new_text": "\treturn err"}]}]}`,
			`{"edits": [{"path": "docs/todo.md", "action": "create", "content": "# TODO\n"}, {"path": "TODO", "action": "delete"}], "dry_run": true}`,
		},
	}, writeSource)
}

func writeSource(ctx context.Context, c *Call, in WriteIn) (*mutate.Result, error) {
	if err := c.editsAllowed(); err != nil {
		return nil, err
	}
	if in.WorkspaceID != "" {
		return c.stage(ctx, in.WorkspaceID, mutate.Request{Edits: in.Edits, DryRun: in.DryRun}, in.Verify)
	}
	verified, err := c.verifyWrite(ctx, &in)
	if err != nil {
		return nil, err
	}
	res, err := c.write(ctx, mutate.Request{Edits: in.Edits, DryRun: in.DryRun})
	if err != nil {
		return nil, err
	}
	switch {
	case res.DryRun:
		c.Answer("dry run: %d files would change (+%d -%d lines); nothing written", res.FilesChanged, res.LinesAdded, res.LinesRemoved)
		c.Next("write_source", map[string]any{"dry_run": false}, "apply the same edits")
	case !res.Applied:
		c.Answer("nothing to write: the files already hold this content")
	default:
		c.Answer("wrote batch %s: %d files changed (+%d -%d lines)", res.Batch, res.FilesChanged, res.LinesAdded, res.LinesRemoved)
		if verified != "" {
			c.answer += "; " + verified
		}
		c.Next("edit_undo", map[string]any{}, "revert this write")
	}
	return res, nil
}

// editsAllowed refuses writes in read-only mode (edits: off).
func (c *Call) editsAllowed() error {
	if c.Env.Config.Edits == "off" {
		return &errs.Error{Kind: errs.Precondition, Msg: "writes are off for this repository (edits: off in the configuration)",
			Fixes: []string{"set edits: on in .cairn/config.yaml (or CAIRN__EDITS=on) to allow writes"}}
	}
	return nil
}

// mutator is the mutation engine of the call's repository.
func (c *Call) mutator() *mutate.Engine {
	return mutate.New(mutate.Options{Paths: c.Env.Paths, Exclude: c.Env.Config.Index.Exclude, Writing: c.Env.Writing})
}

// write applies a batch through the mutation engine, then finishes it
// (wrote): every write is followed by the index brought up to date.
func (c *Call) write(ctx context.Context, req mutate.Request) (*mutate.Result, error) {
	res, err := c.mutator().Write(ctx, req)
	if err != nil {
		return nil, err
	}
	c.wrote(ctx, res)
	return res, nil
}

// diffBudget bounds the unified diff of a dry run, in characters.
const diffBudget = 40000

// wrote finishes a write: the warnings of recovery, the index brought up to
// date for the paths written (the call moves to the new snapshot, so its
// provenance shows the new epoch), and a dry run's diff bounded.
func (c *Call) wrote(ctx context.Context, res *mutate.Result) {
	c.warnings = append(c.warnings, res.Warnings...)
	if len(res.Diff) > diffBudget {
		cut := diffBudget
		for cut > 0 && res.Diff[cut-1] != '\n' {
			cut--
		}
		c.Truncated("diff", cut, len(res.Diff), fmt.Sprintf("the diff is cut at %d characters; the delta lists every hunk", diffBudget), "")
		res.Diff = res.Diff[:cut]
	}
	if !res.Applied || len(res.Paths) == 0 {
		return
	}
	err := c.Reindexed(ctx, func() {
		if c.Env.Reindex != nil {
			c.warnings = append(c.warnings, c.Env.Reindex(ctx, res.Paths)...)
		}
	})
	if err != nil {
		c.Warn("the write is done, but the index cannot be read again: %s", errs.As(err).Message())
	}
}

// stage plans a batch against a workspace's overlay and keeps what it
// changes there: the working tree and the index stay as they are.
func (c *Call) stage(ctx context.Context, id string, req mutate.Request, verify string) (*mutate.Result, error) {
	if verify != "" && verify != "none" {
		return nil, errs.E(errs.InvalidArgument, "verify %q is not available for writes into a workspace: the compilers read the files on disk", verify)
	}
	v, err := c.loadWorkspace(id)
	if err != nil {
		return nil, err
	}
	req.Overlay = v
	res, err := c.write(ctx, req) // into the overlay: Paths is empty, nothing to reindex
	if err != nil {
		return nil, err
	}
	if res.DryRun {
		c.Answer("dry run: %d files would change in workspace %s (+%d -%d lines); nothing staged", res.FilesChanged, id, res.LinesAdded, res.LinesRemoved)
		return res, nil
	}
	if len(res.Staged) == 0 {
		c.Answer("nothing to write: workspace %s already holds this content", id)
		return res, nil
	}
	w, err := c.keepStaged(id, res)
	if err != nil {
		return nil, err
	}
	c.Answer("wrote %d files into workspace %s (+%d -%d lines), overlay revision %d; the files on disk are unchanged", res.FilesChanged, id, res.LinesAdded, res.LinesRemoved, w.Revision)
	c.Next("workspace_apply", map[string]any{"workspace_id": id}, "land the workspace's changes in the files")
	return res, nil
}

// keepStaged records what a batch planned against a workspace's overlay
// changes in it.
func (c *Call) keepStaged(id string, res *mutate.Result) (*workspace.Workspace, error) {
	changes := make([]workspace.Change, len(res.Staged))
	for i, s := range res.Staged {
		changes[i] = workspace.Change{Path: s.Path, Content: s.Content, FromDisk: s.FromDisk, DiskSHA256: s.DiskSHA256, DiskContent: s.DiskContent}
	}
	w, err := c.workspaces().Stage(workspace.ID(id), changes)
	if err != nil {
		return nil, err
	}
	res.Batch = ""
	c.staged = id
	return w, nil
}
