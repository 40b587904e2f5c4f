package mutate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
)

// The intent journal makes a batch all-or-nothing across crashes. It is one
// JSON file per batch in the state dir, written (and fsynced, with its
// directory) twice: in state "prepare" before any temporary file exists,
// naming every temporary file, backup and directory the batch will create,
// so a crash before the renames leaves nothing behind that recovery cannot
// find; and in state "commit" once every new content sits fsynced in its
// temporary file and every old content has a backup, before the first
// rename. The writer holds an flock on the journal while it works, so
// recovery never touches the journal of a live batch.
//
// Recovery of a "commit" journal (recover.go) rolls forward when every
// file either holds its new content or still has its temporary file, and
// otherwise rolls back from the backups; files are recognised by their
// sha256, so recovery may itself be interrupted and run again.

const (
	statePrepare = "prepare"
	stateCommit  = "commit"
)

// journalVersion is the journal's format; recovery leaves others alone.
const journalVersion = 1

// journal is the intent record of one batch.
type journal struct {
	Version int       `json:"version"`
	Batch   string    `json:"batch"`
	Root    string    `json:"root"`
	State   string    `json:"state"`
	Time    time.Time `json:"time"`
	// Record: keep the batch for edit_undo once it is applied.
	Record bool `json:"record,omitempty"`
	// Undoes are the recorded batches this one reverts (edit_undo); they are
	// dropped from the record once it is applied.
	Undoes []string `json:"undoes,omitempty"`
	// Dirs are the directories the batch creates, parents first.
	Dirs  []string      `json:"dirs,omitempty"`
	Files []journalFile `json:"files"`
}

// journalFile is one file of a batch. Paths are repo-relative.
type journalFile struct {
	Path    string `json:"path"`
	Action  string `json:"action"`           // create, update, delete
	OldSHA  string `json:"old_sha256"`       // "" for create
	NewSHA  string `json:"new_sha256"`       // "" for delete
	OldMode uint32 `json:"old_mode"`         // 0 for create
	NewMode uint32 `json:"new_mode"`         // 0 for delete
	Temp    string `json:"temp,omitempty"`   // the new content, beside the file
	Backup  string `json:"backup,omitempty"` // a hard link to (or copy of) the old content
}

// journalDir is where the journals live.
func (e *Engine) journalDir() string { return filepath.Join(e.stateDir(), "journal") }

// held is a journal on disk and the open file whose flock says its batch is
// alive.
type held struct {
	f    *os.File
	path string
}

// writeJournal writes j (replacing prev, the same batch's earlier state)
// durably: a temporary file, flocked, written and fsynced, renamed into
// place, and the directory fsynced.
func (e *Engine) writeJournal(j *journal, prev *held) (*held, error) {
	dir := e.journalDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot create the journal directory")
	}
	final := filepath.Join(dir, j.Batch+".json")
	tmp := final + ".tmp"
	data, err := json.MarshalIndent(j, "", " ")
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot encode the journal")
	}
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, errs.WrapWrite(err, "cannot write the journal")
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, errs.Wrap(errs.Internal, err, "cannot lock the journal")
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, errs.WrapWrite(err, "cannot write the journal")
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, errs.Wrap(errs.Internal, err, "cannot sync the journal")
	}
	if err := os.Rename(tmp, final); err != nil {
		f.Close()
		return nil, errs.WrapWrite(err, "cannot write the journal")
	}
	if err := syncDir(dir); err != nil {
		f.Close()
		return nil, errs.Wrap(errs.Internal, err, "cannot sync the journal directory")
	}
	if prev != nil {
		prev.f.Close() // its file was replaced; closing drops its lock
	}
	return &held{f: f, path: final}, nil
}

// remove deletes the journal: the batch is over.
func (h *held) remove() {
	os.Remove(h.path)
	syncDir(filepath.Dir(h.path))
	h.f.Close()
}

// leave keeps the journal for recovery and drops its lock.
func (h *held) leave() { h.f.Close() }

// syncDir fsyncs a directory, making the names created, renamed or removed
// in it durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// fileSHA is the sha256 of a file's content, "" when it does not exist.
func fileSHA(abs string) (string, error) {
	data, err := os.ReadFile(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return SHA(data), nil
}

// SHA is the hex sha256 of content, as ExpectedSHA256 names a file's content.
func SHA(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// isTemp reports whether a repo path is named like one of the engine's
// temporary files.
func isTemp(rel string) bool {
	ok, _ := path.Match(tempGlob, path.Base(rel))
	return ok
}

// tempGlob is scan.TempPattern as a path.Match pattern.
const tempGlob = ".cairn-*.tmp"

// tempName names the temporary file of a batch's i-th file: kind is "new"
// (the new content) or "old" (the backup).
func tempName(batch string, i int, kind string) string {
	return fmt.Sprintf(".cairn-%s-%d.%s.tmp", batch, i, kind)
}

// dirsOf lists the directories that hold a journal's files, temporary
// files and created directories, for fsync.
func (e *Engine) dirsOf(j *journal) []string {
	seen := map[string]bool{}
	var out []string
	add := func(rel string) {
		d := e.abs(path.Dir(rel))
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, d := range j.Dirs {
		add(d)
	}
	for _, f := range j.Files {
		add(f.Path)
	}
	return out
}

// rollForward finishes the renames of a committed batch. It reports false
// (having changed nothing) when some file can be brought to its new content
// neither because it has it nor because its temporary file holds it.
func (e *Engine) rollForward(j *journal) (bool, error) {
	for _, f := range j.Files {
		cur, err := fileSHA(e.abs(f.Path))
		if err != nil {
			return false, err
		}
		ok := false
		switch f.Action {
		case Delete:
			ok = cur == "" || cur == f.OldSHA
		case Create:
			ok = cur == f.NewSHA || cur == "" && e.tempHolds(f)
		case Update:
			ok = cur == f.NewSHA || cur == f.OldSHA && e.tempHolds(f)
		}
		if !ok {
			return false, nil
		}
	}
	for _, f := range j.Files {
		if err := e.switchFile(f); err != nil {
			return true, err
		}
		crashPoint()
	}
	return true, nil
}

// tempHolds reports whether a file's temporary file holds its new content.
func (e *Engine) tempHolds(f journalFile) bool {
	t, err := fileSHA(e.abs(f.Temp))
	return err == nil && t == f.NewSHA
}

// switchFile puts one file in its new state, unless it is there already:
// the rename of its temporary file over it, or its removal.
func (e *Engine) switchFile(f journalFile) error {
	abs := e.abs(f.Path)
	cur, err := fileSHA(abs)
	if err != nil {
		return err
	}
	if f.Action == Delete {
		if cur == "" {
			return nil
		}
		return os.Remove(abs)
	}
	if cur == f.NewSHA {
		return nil
	}
	return os.Rename(e.abs(f.Temp), abs)
}

// rollBack restores every file of a batch to its old state. A file that
// holds neither the batch's old nor its new content was changed by someone
// else since; it is left as it is and reported.
func (e *Engine) rollBack(j *journal) ([]string, error) {
	var warnings []string
	for _, f := range j.Files {
		abs := e.abs(f.Path)
		cur, err := fileSHA(abs)
		if err != nil {
			return warnings, err
		}
		switch {
		case f.Action == Create && cur == "":
		case f.Action == Create && cur == f.NewSHA:
			if err := os.Remove(abs); err != nil {
				return warnings, err
			}
		case f.Action != Create && cur == f.OldSHA:
		case f.Action != Create && (cur == "" || cur == f.NewSHA):
			if b, err := fileSHA(e.abs(f.Backup)); err != nil || b != f.OldSHA {
				return warnings, fmt.Errorf("the old content of %s is lost (no backup)", f.Path)
			}
			if err := os.Rename(e.abs(f.Backup), abs); err != nil {
				return warnings, err
			}
		default:
			warnings = append(warnings, fmt.Sprintf("%s changed during an interrupted write and was left as it is", f.Path))
		}
		crashPoint()
	}
	return warnings, nil
}

// cleanup removes a batch's temporary files and backups, and with dirs the
// directories it created (those still empty), deepest first.
func (e *Engine) cleanup(j *journal, dirs bool) {
	for _, f := range j.Files {
		if f.Temp != "" {
			os.Remove(e.abs(f.Temp))
		}
		if f.Backup != "" {
			os.Remove(e.abs(f.Backup))
		}
	}
	if dirs {
		for i := len(j.Dirs) - 1; i >= 0; i-- {
			os.Remove(e.abs(j.Dirs[i]))
		}
	}
}
