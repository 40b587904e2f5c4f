package index

import (
	"maps"
	"slices"
	"sync"
)

// The change log is what this process's commits changed, epoch by epoch.
// Views that other packages keep per index version (change analysis's
// reverse references and imports) read it to update the few files an epoch
// touched instead of reading every file again. Only this process's commits
// are in it: an epoch committed elsewhere, or one the log has dropped,
// leaves a gap, and a gap means "build it again".

// changeLogSize is how many epochs the log keeps.
const changeLogSize = 64

// epochChange is what one commit changed.
type epochChange struct {
	gen   uint64 // the store handle it was committed to
	epoch int64  // the epoch it made
	// files are the files whose row, symbols, references or imports were
	// written; structural says more changed than files can say: files
	// added or removed, modules changed, or everything derived again.
	files      []int64
	structural bool
}

// changeLog keeps the newest changeLogSize commits.
type changeLog struct {
	mu      sync.Mutex // guards entries
	entries []epochChange
}

func (l *changeLog) record(c epochChange) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.entries) == changeLogSize {
		l.entries = slices.Delete(l.entries, 0, 1)
	}
	l.entries = append(l.entries, c)
}

// ChangedFiles lists the files whose rows, symbols, references or imports
// may differ between two versions of the index, sorted. ok is false when the
// log cannot say: another store, an epoch this process did not commit (or
// no longer remembers), or an epoch that added or removed files, changed
// the modules or derived everything again.
func (ix *Index) ChangedFiles(from, to Version) (files []int64, ok bool) {
	if from.Store != to.Store || from.Epoch > to.Epoch {
		return nil, false
	}
	l := &ix.changes
	l.mu.Lock()
	defer l.mu.Unlock()
	set := map[int64]bool{}
	next := from.Epoch + 1
	for _, c := range l.entries {
		if c.gen != to.Store || c.epoch <= from.Epoch || c.epoch > to.Epoch {
			continue
		}
		if c.epoch != next || c.structural {
			return nil, false
		}
		next++
		for _, f := range c.files {
			set[f] = true
		}
	}
	if next != to.Epoch+1 {
		return nil, false
	}
	return slices.Sorted(maps.Keys(set)), true
}
