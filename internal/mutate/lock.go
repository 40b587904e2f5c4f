package mutate

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
)

// Per-file locks: one flock'ed file per written path (named by a hash of
// the path) in the state dir. flock locks belong to an open file
// description, so two goroutines of one process exclude each other as two
// processes do, and the kernel drops a dead writer's locks.
//
// A batch never waits forever. It waits, for at most lockWait, only for the
// files it guards with expected_sha256: once it holds the lock it checks the
// hash, so it sees the other writer's result and fails with CONFLICT rather
// than overwrite it. A file without that guard is tried once, and a writer
// that finds it locked gets CONFLICT at once (retryable): writing after the
// other writer without having seen its result would undo it silently.

// lockWait bounds how long a batch waits for a guarded file's lock.
const lockWait = 2 * time.Second

// lockPoll is how often a waiting batch tries a lock again.
const lockPoll = 10 * time.Millisecond

// lockReq asks for one path's lock.
type lockReq struct {
	path string // repo-relative, the real path
	wait bool   // wait (bounded) instead of failing at once
}

// locks are the per-file locks a batch holds.
type locks struct {
	files []*os.File
}

// lockFiles takes the locks of paths, in path order (so two batches never
// wait on each other in a cycle). On failure it holds none.
func (e *Engine) lockFiles(reqs []lockReq) (*locks, error) {
	sort.Slice(reqs, func(i, j int) bool { return reqs[i].path < reqs[j].path })
	dir := filepath.Join(e.stateDir(), "locks")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot create the lock directory")
	}
	l := &locks{}
	for i, r := range reqs {
		if i > 0 && reqs[i-1].path == r.path {
			continue
		}
		f, err := lockOne(dir, r)
		if err != nil {
			l.release()
			return nil, err
		}
		l.files = append(l.files, f)
	}
	return l, nil
}

// lockOne takes one path's lock.
func lockOne(dir string, r lockReq) (*os.File, error) {
	sum := sha256.Sum256([]byte(r.path))
	name := filepath.Join(dir, hex.EncodeToString(sum[:12])+".lock")
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot open the lock of %s", r.path)
	}
	deadline := time.Now().Add(lockWait)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			f.Truncate(0)
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, errs.Wrap(errs.Internal, err, "cannot lock %s", r.path)
		}
		if !r.wait || time.Now().After(deadline) {
			break
		}
		time.Sleep(lockPoll)
	}
	data, _ := os.ReadFile(name)
	f.Close()
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	who := "another writer"
	if pid > 0 {
		who = fmt.Sprintf("another writer (pid %d)", pid)
	}
	return nil, &errs.Error{Kind: errs.Conflict, Path: r.path,
		Msg:     fmt.Sprintf("%s is being written by %s", r.path, who),
		Details: map[string]any{"path": r.path, "reason": "locked", "pid": pid},
		Fixes:   []string{"read the file again (read_source) once the other write is done, and repeat the edit"}}
}

// release drops every lock.
func (l *locks) release() {
	if l == nil {
		return
	}
	for _, f := range l.files {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
	l.files = nil
}
