// Package mutate is the mutation engine: the only code that writes to the
// working tree. It plans a batch of file edits in memory (whole contents,
// or line spans anchored by their expected text and corrected for line
// drift), checks every precondition under per-file locks, and applies the
// batch all or nothing through an intent journal that the next process to
// open the repository finishes or undoes after a crash. It keeps what each
// batch replaced so edit_undo can revert it, and reports a structured delta
// per file. It never touches .git, Cairn's state, secrets or ignored files,
// and it does not update the index: its caller reconciles the paths it
// wrote.
package mutate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/scan"
)

// DefaultKeepBatches is how many applied batches edit_undo can revert.
const DefaultKeepBatches = 50

// MaxFiles bounds the files of one batch.
const MaxFiles = 1000

// Options configures an Engine.
type Options struct {
	Paths config.Paths
	// Exclude are the index's extra ignore patterns (index.exclude): what
	// the index leaves out, writes leave alone too.
	Exclude []string
	// KeepBatches is how many batches the undo record keeps (0: the default).
	KeepBatches int
	// Writing, when set, is handed the new content of every file a batch
	// creates or updates (by repo path) as the write of the batch starts,
	// so that the index can parse it while the write waits for the disk;
	// the function it returns (may be nil) is called when the write ends,
	// whether it was applied or not. It must not keep the call waiting.
	Writing func(files map[string][]byte) (done func())
}

// Engine writes to one repository's working tree.
type Engine struct {
	opts Options
}

// New returns the engine of a repository.
func New(opts Options) *Engine { return &Engine{opts: opts} }

// stateDir holds the engine's journals, locks and undo record.
func (e *Engine) stateDir() string { return filepath.Join(e.opts.Paths.StateDir, "mutate") }

// Request is one batch of edits.
type Request struct {
	Edits  []FileEdit
	DryRun bool
	// Overlay, when set, is a workspace's view the batch plans against and
	// stages into instead of the working tree: files it holds are read from
	// it, and nothing on disk is written (Result.Staged says what the
	// overlay takes). The write policy holds all the same.
	Overlay Overlay
}

// Overlay is a set of files that stands in front of the working tree.
type Overlay interface {
	// File returns the overlay's version of a repo path: held is false when
	// the overlay does not hold the path (the working tree's file counts);
	// a held path with deleted set is gone in the overlay.
	File(path string) (content []byte, deleted, held bool)
}

// Staged is a file a batch planned against an overlay changes in it.
type Staged struct {
	Path    string
	Content []byte // nil when deleted
	Deleted bool
	// FromDisk is set when the overlay did not hold the file before: the
	// batch read it from the working tree, whose sha256 is DiskSHA256 ("" when
	// it did not exist there).
	FromDisk   bool
	DiskSHA256 string
	// DiskContent is that working-tree file's content (nil when it did not
	// exist or FromDisk is not set): the base a later three-way merge of
	// the overlay with the tree starts from.
	DiskContent []byte
}

// Result describes a batch: what it did (or, dry, would do) to each file.
type Result struct {
	Batch        string      `json:"batch_id,omitempty"`
	Applied      bool        `json:"applied"`
	DryRun       bool        `json:"dry_run"`
	FilesChanged int         `json:"files_changed"`
	LinesAdded   int         `json:"lines_added"`
	LinesRemoved int         `json:"lines_removed"`
	Files        []FileDelta `json:"files"` // sorted by path
	// Diff is the unified diff of a dry run.
	Diff string `json:"diff,omitempty"`
	// Undone are the batches an undo reverted, newest first.
	Undone []string `json:"undone,omitempty"`
	// Paths are the repo paths written (for the index to reconcile).
	Paths []string `json:"-"`
	// Staged are the files an overlay batch changes, for the overlay to keep.
	Staged []Staged `json:"-"`
	// Warnings are for the response (an interrupted batch recovered first).
	Warnings []string `json:"-"`
}

// FileDelta is the structured delta of one file.
type FileDelta struct {
	Path   string `json:"path"`
	Action string `json:"action"` // created, updated, deleted, unchanged
	// WrittenPath is the file written when Path is a symlink to it.
	WrittenPath  string       `json:"written_path,omitempty"`
	OldSHA256    string       `json:"old_sha256,omitempty"`
	NewSHA256    string       `json:"new_sha256,omitempty"`
	LinesAdded   int          `json:"lines_added"`
	LinesRemoved int          `json:"lines_removed"`
	Hunks        []Hunk       `json:"hunks"`
	LineEnding   string       `json:"line_ending,omitempty"` // lf or crlf, of a text file written
	Binary       bool         `json:"binary,omitempty"`
	Corrections  []Correction `json:"corrections,omitempty"`
}

// newBatchID names a batch: time-ordered, unique.
func newBatchID() string {
	var b [4]byte
	rand.Read(b[:])
	return "b" + time.Now().UTC().Format("20060102T150405") + hex.EncodeToString(b[:])
}

// Write plans and applies a batch of edits, or with DryRun only plans it.
func (e *Engine) Write(ctx context.Context, req Request) (*Result, error) {
	if len(req.Edits) == 0 {
		return nil, errs.E(errs.InvalidArgument, "no edits: give at least one file edit")
	}
	if len(req.Edits) > MaxFiles {
		return nil, errs.E(errs.InvalidArgument, "%d file edits in one batch, over the limit of %d", len(req.Edits), MaxFiles)
	}
	targets := make([]target, len(req.Edits))
	seen := map[string]int{}
	var reqs []lockReq
	for i, fe := range req.Edits {
		if err := checkEdit(i, fe); err != nil {
			return nil, err
		}
		t, err := e.resolve(ctx, fe.Path)
		if err != nil {
			return nil, err
		}
		if j, dup := seen[t.path]; dup {
			return nil, &errs.Error{Kind: errs.InvalidArgument, Path: t.named,
				Msg: fmt.Sprintf("edits[%d] and edits[%d] both edit %s: give one edit per file (spans for several places)", j, i, t.path)}
		}
		seen[t.path] = i
		targets[i] = t
		reqs = append(reqs, lockReq{path: t.path, wait: fe.ExpectedSHA256 != ""})
	}
	var warnings []string
	if !req.DryRun && req.Overlay == nil {
		w, err := e.Recover(ctx)
		if err != nil {
			return nil, err
		}
		warnings = w
		l, err := e.lockFiles(reqs)
		if err != nil {
			return nil, e.withCurrent(err, req.Edits, targets)
		}
		defer l.release()
	}
	var changes, unchanged []*change
	for i, fe := range req.Edits {
		c, err := e.plan(i, fe, targets[i], req.Overlay)
		if err != nil {
			return nil, err
		}
		if c.oldSHA == c.newSHA {
			unchanged = append(unchanged, c)
		} else {
			changes = append(changes, c)
		}
	}
	res := summarize(changes, unchanged, req.DryRun)
	res.Warnings = warnings
	if req.DryRun || len(changes) == 0 {
		return res, nil
	}
	if req.Overlay != nil {
		for _, c := range changes {
			st := Staged{Path: c.path, Content: c.new, Deleted: c.new == nil, FromDisk: c.fromDisk, DiskSHA256: c.oldSHA}
			if c.fromDisk {
				st.DiskContent = c.old
			}
			res.Staged = append(res.Staged, st)
		}
		res.Applied, res.Paths = true, nil // nothing on disk to reindex
		return res, nil
	}
	b := &batch{id: newBatchID(), changes: changes, record: true}
	if err := e.apply(ctx, b); err != nil {
		return nil, err
	}
	res.Batch, res.Applied = b.id, true
	return res, nil
}

// checkEdit refuses a file edit whose fields do not fit its action.
func checkEdit(i int, fe FileEdit) error {
	bad := func(format string, args ...any) error {
		return &errs.Error{Kind: errs.InvalidArgument, Path: fe.Path, Msg: fmt.Sprintf("edits[%d] (%s): ", i, fe.Path) + fmt.Sprintf(format, args...)}
	}
	if fe.ExpectedSHA256 != "" {
		if len(fe.ExpectedSHA256) != 64 || strings.Trim(strings.ToLower(fe.ExpectedSHA256), "0123456789abcdef") != "" {
			return bad("expected_sha256 must be 64 hex digits (the file_sha256 of read_source)")
		}
	}
	switch fe.Action {
	case Create:
		switch {
		case fe.Content == nil:
			return bad("create needs content")
		case len(fe.Spans) > 0:
			return bad("create takes content, not spans")
		case fe.ExpectedSHA256 != "":
			return bad("a new file has no expected_sha256")
		}
	case Update:
		switch {
		case fe.Content == nil && len(fe.Spans) == 0:
			return bad("update needs content (the whole file) or spans")
		case fe.Content != nil && len(fe.Spans) > 0:
			return bad("give content or spans, not both")
		}
	case Delete:
		if fe.Content != nil || len(fe.Spans) > 0 {
			return bad("delete takes no content or spans")
		}
	case "":
		return bad("action is missing: create, update or delete")
	default:
		return bad("unknown action %q: create, update or delete", fe.Action)
	}
	return nil
}

// plan reads a file under its lock (or from the overlay that holds it) and
// computes its new content.
func (e *Engine) plan(i int, fe FileEdit, t target, ov Overlay) (*change, error) {
	c := &change{target: t, action: fe.Action}
	label := fmt.Sprintf("edits[%d]", i)
	var info fs.FileInfo
	var err error
	held := false
	if ov != nil {
		var content []byte
		var deleted bool
		if content, deleted, held = ov.File(t.path); held && !deleted {
			c.old, c.oldMode, c.oldSHA = content, 0o644, SHA(content)
		}
	}
	if !held {
		c.fromDisk = ov != nil
		info, err = os.Stat(t.abs)
	}
	switch {
	case held:
	case err == nil && info.IsDir():
		return nil, &errs.Error{Kind: errs.InvalidArgument, Path: t.named, Msg: t.named + " is a directory"}
	case err == nil && !info.Mode().IsRegular():
		return nil, &errs.Error{Kind: errs.InvalidArgument, Path: t.named, Msg: t.named + " is not a regular file"}
	case err == nil:
		if c.old, err = os.ReadFile(t.abs); err != nil {
			return nil, errs.Wrap(errs.Internal, err, "cannot read %s", t.named)
		}
		c.oldMode = info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
		c.oldSHA = SHA(c.old)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, errs.Wrap(errs.Internal, err, "cannot read %s", t.named)
	}
	if fe.Action == Create {
		if c.old != nil {
			return nil, &errs.Error{Kind: errs.Precondition, Path: t.named, Msg: label + ": " + t.named + " already exists",
				Details: map[string]any{"path": t.named, "current_sha256": c.oldSHA},
				Fixes:   []string{"update it instead (with its expected_sha256 from read_source)"}}
		}
		c.new, c.newMode, c.newSHA = []byte(*fe.Content), 0o644, SHA([]byte(*fe.Content))
		return c, nil
	}
	if c.old == nil {
		return nil, &errs.Error{Kind: errs.FileNotFound, Path: t.named, Msg: label + ": no file " + t.named}
	}
	if want := strings.ToLower(fe.ExpectedSHA256); want != "" && want != c.oldSHA {
		return nil, conflict(t.named, want, c.oldSHA)
	}
	if fe.Action == Delete {
		if t.link {
			return nil, &errs.Error{Kind: errs.InvalidArgument, Path: t.named,
				Msg: t.named + " is a symbolic link to " + t.path + ": delete the file itself, or remove the link with git rm"}
		}
		c.newSHA = ""
		return c, nil
	}
	c.newMode = c.oldMode
	if fe.Content != nil {
		c.new = []byte(conformContent(parseDoc(c.old), *fe.Content))
	} else {
		c.new, c.corrections, err = applySpans(t.named, c.old, fe.Spans, label, fe.ExpectedSHA256 != "")
		if err != nil {
			return nil, err
		}
	}
	c.newSHA = SHA(c.new)
	return c, nil
}

// conflict is the error of a file that changed since it was read.
func conflict(path, want, cur string) error {
	msg := path + " changed since it was read: its sha256 is " + cur + ", not " + want
	if cur == "" {
		msg = path + " was deleted since it was read"
	}
	return &errs.Error{Kind: errs.Conflict, Path: path, Msg: msg,
		Details: map[string]any{"path": path, "expected_sha256": want, "current_sha256": cur},
		Fixes:   []string{"read the file again (read_source) and repeat the edit against its current content"}}
}

// withCurrent adds the current sha256 of a locked file to a lock conflict
// when the request guarded it with expected_sha256: what the writer will
// have to read again.
func (e *Engine) withCurrent(err error, edits []FileEdit, targets []target) error {
	var ee *errs.Error
	if !errors.As(err, &ee) || ee.Kind != errs.Conflict {
		return err
	}
	for i, t := range targets {
		if t.path == ee.Path && edits[i].ExpectedSHA256 != "" {
			cur, _ := fileSHA(t.abs)
			ee.Details["expected_sha256"] = strings.ToLower(edits[i].ExpectedSHA256)
			ee.Details["current_sha256"] = cur
		}
	}
	return err
}

// summarize builds the result of a planned batch.
func summarize(changes, unchanged []*change, dry bool) *Result {
	res := &Result{DryRun: dry, Files: []FileDelta{}}
	var diffs []string
	all := append(append([]*change(nil), changes...), unchanged...)
	sort.Slice(all, func(i, j int) bool { return all[i].named < all[j].named })
	for _, c := range all {
		d := FileDelta{Path: c.named, OldSHA256: c.oldSHA, NewSHA256: c.newSHA, Hunks: []Hunk{}, Corrections: c.corrections}
		if c.path != c.named {
			d.WrittenPath = c.path
		}
		switch {
		case c.oldSHA == c.newSHA:
			d.Action = "unchanged"
		case c.action == Create:
			d.Action = "created"
		case c.action == Delete:
			d.Action = "deleted"
		default:
			d.Action = "updated"
		}
		if c.new != nil && !scan.IsBinary(c.new) {
			d.LineEnding = lineEndingName(parseDoc(c.new).eol())
		}
		if scan.IsBinary(c.old) || scan.IsBinary(c.new) {
			d.Binary = true
			if dry && d.Action != "unchanged" {
				diffs = append(diffs, "Binary files differ: "+c.named+"\n")
			}
		} else if d.Action != "unchanged" {
			a, b := splitLines(c.old), splitLines(c.new)
			ops := diffLines(a, b)
			d.Hunks = hunks(ops)
			d.LinesAdded, d.LinesRemoved = counts(ops)
			if dry {
				oldName, newName := "a/"+c.named, "b/"+c.named
				if c.old == nil {
					oldName = "/dev/null"
				}
				if c.new == nil {
					newName = "/dev/null"
				}
				diffs = append(diffs, unified(oldName, newName, a, b, ops))
			}
		}
		if d.Action != "unchanged" {
			res.FilesChanged++
			res.Paths = append(res.Paths, c.path)
			if c.path != c.named {
				res.Paths = append(res.Paths, c.named)
			}
		}
		res.LinesAdded += d.LinesAdded
		res.LinesRemoved += d.LinesRemoved
		res.Files = append(res.Files, d)
	}
	res.Diff = strings.Join(diffs, "")
	return res
}
