package mutate

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Recover finishes or undoes the batches that processes which died while
// writing left behind, so that each ends with all its files old or all new.
// The service runs it when it opens a repository, before anything reads, and
// every batch runs it before it starts. A journal whose writer is alive (its
// flock is held) is left alone, as is one whose files are locked by a batch
// in progress. It returns what it did, as warnings for the response; what it
// cannot do yet is retried the next time.
func (e *Engine) Recover(ctx context.Context) ([]string, error) {
	des, err := readDir(e.journalDir())
	if err != nil {
		return nil, err
	}
	var warnings []string
	for _, de := range des {
		if err := ctx.Err(); err != nil {
			return warnings, err
		}
		name := de.Name()
		if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".json.tmp") {
			continue
		}
		if strings.HasSuffix(name, ".tmp") && !staleTemp(de) {
			// A live writer may have created it and not locked it yet:
			// locking it here, even for a moment, would make it fail.
			continue
		}
		w, err := e.recoverOne(filepath.Join(e.journalDir(), name))
		if err != nil {
			w = append(w, fmt.Sprintf("an interrupted write (%s) could not be finished yet: %v; Cairn tries again next time", strings.TrimSuffix(name, ".json"), err))
		}
		warnings = append(warnings, w...)
	}
	return warnings, nil
}

// staleJournalTemp is how old a journal's temporary file must be before
// recovery takes it for the leftover of a dead writer: a live writer locks
// it within moments of creating it.
const staleJournalTemp = time.Minute

// staleTemp reports whether a journal's temporary file is old enough to be
// a dead writer's leftover (staleJournalTemp).
func staleTemp(de os.DirEntry) bool {
	info, err := de.Info()
	return err == nil && time.Since(info.ModTime()) > staleJournalTemp
}

// recoverOne handles one journal file.
func (e *Engine) recoverOne(p string) ([]string, error) {
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		return nil, nil // finished meanwhile
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return nil, nil // its writer is alive
	}
	// The writer may have removed (or replaced) the journal between the
	// open and the lock: then this is not the journal any more.
	opened, err1 := f.Stat()
	now, err2 := os.Stat(p)
	if err1 != nil || err2 != nil || !os.SameFile(opened, now) {
		return nil, nil
	}
	if strings.HasSuffix(p, ".tmp") {
		// A journal that never took its place: the batch had not yet
		// created anything it does not name in its previous journal. A
		// young one may belong to a writer that created it and has not
		// locked it yet: only one left for a while is removed.
		if time.Since(opened.ModTime()) > staleJournalTemp {
			os.Remove(p)
		}
		return nil, nil
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil {
		os.Rename(p, p+".bad")
		return []string{fmt.Sprintf("an unreadable write journal was set aside as %s", p+".bad")}, nil
	}
	if j.Version != journalVersion {
		return []string{fmt.Sprintf("write journal %s has version %d, which this Cairn does not know; left alone", p, j.Version)}, nil
	}
	if j.Root != e.opts.Paths.Root {
		return []string{fmt.Sprintf("write journal %s belongs to %s, not to this repository; left alone", p, j.Root)}, nil
	}
	var reqs []lockReq
	for _, jf := range j.Files {
		reqs = append(reqs, lockReq{path: jf.Path})
	}
	l, err := e.lockFiles(reqs)
	if err != nil {
		return nil, err
	}
	defer l.release()
	var warnings []string
	switch j.State {
	case statePrepare:
		e.cleanup(&j, true)
	case stateCommit:
		forward, err := e.rollForward(&j)
		if err != nil {
			return nil, err
		}
		if forward {
			e.syncDirs(&j)
			crashPoint()
			if err := e.settle(&j); err != nil {
				warnings = append(warnings, fmt.Sprintf("batch %s could not be recorded for undo: %v", j.Batch, err))
			}
			e.cleanup(&j, false)
			warnings = append(warnings, fmt.Sprintf("finished a write that was interrupted: batch %s (%s) is applied", j.Batch, fileList(&j)))
		} else {
			w, err := e.rollBack(&j)
			if err != nil {
				return nil, err
			}
			e.syncDirs(&j)
			e.cleanup(&j, true)
			warnings = append(w, fmt.Sprintf("undid a write that was interrupted: batch %s (%s) is not applied", j.Batch, fileList(&j)))
		}
	default:
		return nil, fmt.Errorf("journal %s has unknown state %q", p, j.State)
	}
	crashPoint()
	os.Remove(p)
	syncDir(filepath.Dir(p))
	crashPoint()
	return warnings, nil
}

// syncDirs fsyncs the directories of a batch.
func (e *Engine) syncDirs(j *journal) {
	dirs := e.dirsOf(j)
	parallel(len(dirs), func(i int) error { return syncDir(dirs[i]) })
}

// fileList names a batch's files for a message.
func fileList(j *journal) string {
	var names []string
	for _, f := range j.Files {
		names = append(names, f.Path)
	}
	if len(names) > 5 {
		names = append(names[:5], fmt.Sprintf("and %d more", len(names)-5))
	}
	return strings.Join(names, ", ")
}
