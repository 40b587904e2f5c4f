package mutate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
)

// The undo record: every applied batch (but those of edit_undo itself) is
// kept as a JSON file under state/mutate/undo, named so that names sort by
// time, with the old contents it replaced stored once per sha256 under
// undo/blobs. The newest KeepBatches batches are kept; older ones and the
// contents only they needed are dropped when a batch is recorded.

// entry is one recorded batch.
type entry struct {
	Batch string      `json:"batch"`
	Time  time.Time   `json:"time"`
	Files []entryFile `json:"files"`
	// Dirs are the directories the batch created (undo removes them when
	// they are empty again).
	Dirs []string `json:"dirs,omitempty"`
	name string   // file name in the record
}

// entryFile is what a recorded batch did to one file.
type entryFile struct {
	Path    string `json:"path"`
	Action  string `json:"action"`
	OldSHA  string `json:"old_sha256"`
	NewSHA  string `json:"new_sha256"`
	OldMode uint32 `json:"old_mode"`
}

func (e *Engine) undoDir() string            { return filepath.Join(e.stateDir(), "undo") }
func (e *Engine) blobDir() string            { return filepath.Join(e.undoDir(), "blobs") }
func (e *Engine) blobPath(sum string) string { return filepath.Join(e.blobDir(), sum) }

// lockRecord serialises changes to the record (and the sweep of its
// contents) across processes. Its sections are short, so it waits.
func (e *Engine) lockRecord() (func(), error) {
	if err := os.MkdirAll(e.blobDir(), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(e.undoDir(), "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// saveOld stores the old contents of a batch's files for undo. It runs
// after the batch's journal exists, which keeps the contents from a
// concurrent sweep.
func (e *Engine) saveOld(j *journal, changes []*change) error {
	unlock, err := e.lockRecord()
	if err != nil {
		return errs.Wrap(errs.Internal, err, "cannot open the undo record")
	}
	defer unlock()
	// Two files of a batch may hold the same old content: one writer
	// per blob.
	var todo []*change
	seen := map[string]bool{}
	for _, c := range changes {
		if c.old == nil || seen[c.oldSHA] {
			continue
		}
		seen[c.oldSHA] = true
		if _, err := os.Stat(e.blobPath(c.oldSHA)); err == nil {
			continue
		}
		todo = append(todo, c)
	}
	err = parallel(len(todo), func(i int) error {
		c := todo[i]
		p := e.blobPath(c.oldSHA)
		tmp := p + "." + j.Batch + ".tmp"
		if err := writeTemp(tmp, c.old, 0o600); err != nil {
			os.Remove(tmp)
			return errs.Wrap(errs.Internal, err, "cannot keep the old content of %s for undo", c.path)
		}
		if err := os.Rename(tmp, p); err != nil {
			os.Remove(tmp)
			return errs.Wrap(errs.Internal, err, "cannot keep the old content of %s for undo", c.path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return syncDir(e.blobDir())
}

// settle updates the record once a batch's files are in place: a batch to
// keep is recorded, the batches an undo reverted are dropped. It is
// idempotent, as recovery may run it again.
func (e *Engine) settle(j *journal) error {
	if !j.Record && len(j.Undoes) == 0 {
		return nil
	}
	unlock, err := e.lockRecord()
	if err != nil {
		return err
	}
	defer unlock()
	entries, err := e.entries()
	if err != nil {
		return err
	}
	drop := map[string]bool{}
	for _, b := range j.Undoes {
		drop[b] = true
	}
	for _, en := range entries {
		if drop[en.Batch] {
			os.Remove(filepath.Join(e.undoDir(), en.name))
		}
	}
	if j.Record {
		have := false
		for _, en := range entries {
			have = have || en.Batch == j.Batch
		}
		if !have {
			en := entry{Batch: j.Batch, Time: j.Time, Dirs: j.Dirs}
			for _, f := range j.Files {
				en.Files = append(en.Files, entryFile{Path: f.Path, Action: f.Action, OldSHA: f.OldSHA, NewSHA: f.NewSHA, OldMode: f.OldMode})
			}
			data, _ := json.MarshalIndent(en, "", " ")
			name := fmt.Sprintf("%020d-%s.json", j.Time.UnixNano(), j.Batch)
			tmp := filepath.Join(e.undoDir(), name+".tmp")
			if err := writeTemp(tmp, data, 0o600); err != nil {
				os.Remove(tmp)
				return err
			}
			if err := os.Rename(tmp, filepath.Join(e.undoDir(), name)); err != nil {
				return err
			}
		}
	}
	syncDir(e.undoDir())
	return e.prune()
}

// readDir lists a directory of the record; one not made yet is empty.
func readDir(dir string) ([]os.DirEntry, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return des, err
}

// entries reads the record, oldest first.
func (e *Engine) entries() ([]entry, error) {
	des, err := readDir(e.undoDir())
	if err != nil {
		return nil, err
	}
	var out []entry
	for _, de := range des {
		if !strings.HasSuffix(de.Name(), ".json") {
			continue
		}
		var en entry
		if !readJSON(filepath.Join(e.undoDir(), de.Name()), &en) {
			continue
		}
		en.name = de.Name()
		out = append(out, en)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// prune keeps the newest KeepBatches batches and the old contents they (or
// a batch in progress) need. The caller holds the record lock.
func (e *Engine) prune() error {
	entries, err := e.entries()
	if err != nil {
		return err
	}
	keep := e.opts.KeepBatches
	if keep <= 0 {
		keep = DefaultKeepBatches
	}
	if n := len(entries) - keep; n > 0 {
		for _, en := range entries[:n] {
			os.Remove(filepath.Join(e.undoDir(), en.name))
		}
		entries = entries[n:]
	}
	need := map[string]bool{}
	for _, en := range entries {
		for _, f := range en.Files {
			need[f.OldSHA] = true
		}
	}
	// Batches in progress saved their old contents before they are
	// recorded: their journals name them.
	journals, _ := os.ReadDir(e.journalDir())
	for _, de := range journals {
		var j journal
		if !readJSON(filepath.Join(e.journalDir(), de.Name()), &j) {
			continue
		}
		for _, f := range j.Files {
			need[f.OldSHA] = true
		}
	}
	blobs, err := os.ReadDir(e.blobDir())
	if err != nil {
		return nil
	}
	for _, de := range blobs {
		// A temporary file here is left by a crash: contents are written
		// under the record lock, which the caller holds.
		if !need[de.Name()] {
			os.Remove(e.blobPath(de.Name()))
		}
	}
	return nil
}

// readJSON decodes a JSON file into v, reporting whether it could (a file
// being replaced or removed meanwhile is skipped by the callers).
func readJSON(path string, v any) bool {
	data, err := os.ReadFile(path)
	return err == nil && json.Unmarshal(data, v) == nil
}
