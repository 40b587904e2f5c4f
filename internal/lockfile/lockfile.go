// Package lockfile holds process locks: an flock on a file with the holder's
// PID inside, which the kernel drops when the process dies. The index's
// writer lock and the HTTP server's claim on a repository are such locks.
// It imports nothing of the module.
package lockfile

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Lock is a held lock file.
type Lock struct {
	f *os.File
}

// ErrLocked means another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// TryLock takes the lock at path without waiting and writes this process's
// PID into it. On ErrLocked, owner is the PID written by the process that
// holds it (0 if unknown).
func TryLock(path string) (l *Lock, owner int, err error) {
	l, owner, err = lock(path)
	if err == nil {
		l.f.Truncate(0)
		l.f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return l, owner, err
}

// Probe takes the lock at path without waiting, to act on what it guards
// while no process owns it (copy another worktree's index), and leaves the
// PID in the file alone: the lock is this process's for a moment, the file
// still names the owner that a process opening it meanwhile reports.
func Probe(path string) (*Lock, error) {
	l, _, err := lock(path)
	return l, err
}

// lock takes the flock of the file at path without waiting.
func lock(path string) (*Lock, int, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, 0, fmt.Errorf("lockfile: open %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		data, _ := os.ReadFile(path)
		f.Close()
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, pid, ErrLocked
		}
		return nil, pid, fmt.Errorf("lockfile: lock %s: %w", path, err)
	}
	return &Lock{f: f}, 0, nil
}

// Unlock releases the lock.
func (l *Lock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
}
