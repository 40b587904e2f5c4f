package index

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Lock is the writer lock of a worktree's index: an flock on state/owner.lock
// with the owner's PID inside. The kernel drops it when the process dies.
type Lock struct {
	f *os.File
}

// ErrLocked means another process owns the index.
var ErrLocked = errors.New("index is owned by another process")

// TryLock takes the writer lock without waiting. On ErrLocked, owner is the PID
// written by the process that holds it (0 if unknown).
func TryLock(path string) (l *Lock, owner int, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, 0, fmt.Errorf("index: open lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		data, _ := os.ReadFile(path)
		f.Close()
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, pid, ErrLocked
		}
		return nil, pid, fmt.Errorf("index: lock: %w", err)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
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
