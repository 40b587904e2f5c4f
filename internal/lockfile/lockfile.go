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
	"time"
)

// Lock is a held lock file.
type Lock struct {
	f      *os.File
	marker *Lock // a probe's lock of the file beside (probeSuffix)
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

// TryLockPatient is TryLock, waiting up to patience while a probe holds the
// lock (a probe holds it for a moment, to copy what it guards); a process
// owning the lock is reported at once.
func TryLockPatient(path string, patience time.Duration) (*Lock, int, error) {
	deadline := time.Now().Add(patience)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		l, owner, err := TryLock(path)
		if !errors.Is(err, ErrLocked) || !probed(path) || time.Now().After(deadline) {
			return l, owner, err
		}
		time.Sleep(wait)
	}
}

// probeSuffix names the file a probe locks beside the lock it takes, so
// that a process finding the lock held can tell a probe from an owner.
const probeSuffix = ".probe"

// probed reports whether a probe holds the lock at path.
func probed(path string) bool {
	m, _, err := lock(path + probeSuffix)
	if err != nil {
		return errors.Is(err, ErrLocked)
	}
	m.Unlock()
	return false
}

// Probe takes the lock at path without waiting, to act on what it guards
// while no process owns it (copy another worktree's index), and leaves the
// PID in the file alone: the lock is this process's for a moment, the file
// still names the owner that a process opening it meanwhile reports.
func Probe(path string) (*Lock, error) {
	m, _, err := lock(path + probeSuffix)
	if err != nil {
		return nil, err
	}
	l, _, err := lock(path)
	if err != nil {
		m.Unlock()
		return nil, err
	}
	l.marker = m
	return l, nil
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
	l.marker.Unlock()
}

// Alive reports whether a process of that PID exists (on platforms where
// this cannot be told, it is taken as alive).
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return signalZero(p)
}
