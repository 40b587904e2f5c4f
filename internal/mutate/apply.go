package mutate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
)

// change is one file of a planned batch.
type change struct {
	target
	action  string // create, update, delete
	old     []byte // nil when the file does not exist
	new     []byte // nil for delete
	oldMode fs.FileMode
	newMode fs.FileMode
	oldSHA  string
	newSHA  string
	// corrections are spans found away from their stated lines.
	corrections []Correction
	// fromDisk: planned for an overlay that did not hold the file.
	fromDisk bool
}

// batch is a planned set of changes, applied all or nothing.
type batch struct {
	id      string
	changes []*change // each changes its file
	record  bool      // keep it for edit_undo
	undoes  []string  // recorded batches it reverts
}

// apply runs the write protocol (see journal.go). The caller holds the
// files' locks. On an error nothing has changed, unless the error says the
// batch was left to recovery (a rename and then its undoing both failed).
func (e *Engine) apply(ctx context.Context, b *batch) error {
	j := &journal{Version: journalVersion, Batch: b.id, Root: e.opts.Paths.Root, State: statePrepare, Time: time.Now().UTC(),
		Record: b.record, Undoes: b.undoes}
	dirs, err := e.missingDirs(b.changes)
	if err != nil {
		return err
	}
	j.Dirs = dirs
	if e.opts.Writing != nil {
		files := make(map[string][]byte, len(b.changes))
		for _, c := range b.changes {
			if c.new != nil {
				files[c.path] = c.new
			}
		}
		if done := e.opts.Writing(files); done != nil {
			defer done()
		}
	}
	for i, c := range b.changes {
		f := journalFile{Path: c.path, Action: c.action, OldSHA: c.oldSHA, NewSHA: c.newSHA,
			OldMode: uint32(c.oldMode), NewMode: uint32(c.newMode)}
		dir := path.Dir(c.path)
		if c.new != nil {
			f.Temp = path.Join(dir, tempName(b.id, i, "new"))
		}
		if c.old != nil {
			f.Backup = path.Join(dir, tempName(b.id, i, "old"))
		}
		j.Files = append(j.Files, f)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	h, err := e.writeJournal(j, nil)
	if err != nil {
		return err
	}
	defer func() {
		// A panic (a bug, recovered by the tool layer) must not keep the
		// journal locked for the life of the process: leave it to recovery.
		if r := recover(); r != nil {
			h.leave()
			panic(r)
		}
	}()
	crashPoint()
	abandon := func(err error) error {
		e.cleanup(j, true)
		h.remove()
		return err
	}
	if b.record {
		if err := e.saveOld(j, b.changes); err != nil {
			return abandon(err)
		}
		crashPoint()
	}
	for _, d := range dirs {
		err := os.Mkdir(e.abs(d), 0o755)
		if errors.Is(err, fs.ErrExist) {
			// Another writer made it meanwhile: a directory is all it takes.
			if info, serr := os.Stat(e.abs(d)); serr == nil && info.IsDir() {
				err = nil
			}
		}
		if err != nil {
			return abandon(&errs.Error{Kind: errs.InvalidArgument, Path: d, Err: err, Msg: "cannot create directory " + d})
		}
		crashPoint()
	}
	// The files are independent until the commit record: their temporary
	// files and backups are made side by side.
	err = parallel(len(b.changes), func(i int) error {
		c, f := b.changes[i], j.Files[i]
		if c.new != nil {
			if err := writeTemp(e.abs(f.Temp), c.new, c.newMode); err != nil {
				return errs.WrapWrite(err, "cannot write %s", c.path)
			}
			crashPoint()
		}
		if c.old != nil {
			if err := backup(e.abs(c.path), e.abs(f.Backup)); err != nil {
				return errs.Wrap(errs.Internal, err, "cannot keep the old content of %s", c.path)
			}
			crashPoint()
			// Another program may have written the file since it was read
			// (the locks bind Cairn's writers only): then the write would
			// lose that change, and a rollback could not restore it.
			if cur, err := fileSHA(e.abs(f.Backup)); err != nil || cur != c.oldSHA {
				return conflict(c.named, c.oldSHA, cur)
			}
		}
		return nil
	})
	if err != nil {
		return abandon(err)
	}
	synced := e.dirsOf(j)
	if err := parallel(len(synced), func(i int) error {
		if err := syncDir(synced[i]); err != nil {
			return errs.Wrap(errs.Internal, err, "cannot sync %s", synced[i])
		}
		return nil
	}); err != nil {
		return abandon(err)
	}
	j.State = stateCommit
	committed, err := e.writeJournal(j, h)
	if err != nil {
		return abandon(err) // h is still the prepare journal, and locked
	}
	h = committed
	crashPoint()
	for _, f := range j.Files {
		if err := e.switchFile(f); err != nil {
			return e.undoApply(j, h, errs.Wrap(errs.Internal, err, "cannot replace %s", f.Path))
		}
		crashPoint()
	}
	e.syncDirs(j)
	crashPoint()
	if err := e.settle(j); err != nil {
		// The files are written; only the undo record is missing.
		e.cleanup(j, false)
		h.remove()
		return &errs.Error{Kind: errs.Internal, Err: err, Msg: "the batch was applied but could not be recorded for undo"}
	}
	crashPoint()
	e.cleanup(j, false)
	crashPoint()
	h.remove()
	crashPoint()
	return nil
}

// undoApply rolls back a batch whose renames failed part way.
func (e *Engine) undoApply(j *journal, h *held, cause error) error {
	if _, err := e.rollBack(j); err != nil {
		h.leave()
		return &errs.Error{Kind: errs.Internal, Err: cause,
			Msg: fmt.Sprintf("a write failed and could not be undone (%v); the next Cairn command restores the files", err)}
	}
	e.syncDirs(j)
	e.cleanup(j, true)
	h.remove()
	return cause
}

// missingDirs lists the directories the batch's new files need that do not
// exist yet, parents first.
func (e *Engine) missingDirs(changes []*change) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, c := range changes {
		if c.action != Create {
			continue
		}
		var chain []string
		for d := path.Dir(c.path); d != "." && !seen[d]; d = path.Dir(d) {
			info, err := os.Stat(e.abs(d))
			if err == nil {
				if !info.IsDir() {
					return nil, &errs.Error{Kind: errs.InvalidArgument, Path: c.named, Msg: "cannot create " + c.named + ": " + d + " is a file"}
				}
				break
			}
			chain = append(chain, d)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			seen[chain[i]] = true
			out = append(out, chain[i])
		}
	}
	return out, nil
}

// writeTemp writes a new content to its temporary file: created
// exclusively, given its final mode (not the umask's), fsynced.
func writeTemp(abs string, data []byte, mode fs.FileMode) error {
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// backup keeps a file's old content beside it: a hard link (free, and the
// old inode survives the rename over the file), or a copy where links are
// not possible.
func backup(abs, to string) error {
	if err := os.Link(abs, to); err == nil {
		return nil
	}
	src, err := os.Open(abs)
	if err != nil {
		return err
	}
	defer src.Close()
	info, err := src.Stat()
	if err != nil {
		return err
	}
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	err = errors.Join(dst.Chmod(info.Mode()), dst.Sync(), dst.Close())
	return err
}
