package mutate

import (
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
)

// The crash hook: tests prove that a batch ends all old or all new whatever
// instant its process dies at. Every step of the write protocol (and of
// recovery) that leaves something on disk passes a crash point; with
// CAIRN_MUTATE_KILL_AT=k in its environment a process sends itself SIGKILL
// at the k-th point it passes. Without the variable the hook does nothing.

// KillAtEnv is the environment variable of the crash hook.
const KillAtEnv = "CAIRN_MUTATE_KILL_AT"

var (
	killAt = func() int64 {
		n, _ := strconv.ParseInt(os.Getenv(KillAtEnv), 10, 64)
		return n
	}()
	crashPoints atomic.Int64 // points passed so far
	// crashHook, set only by this package's tests, runs at every point (it
	// panics to stop a batch in its tracks, in process).
	crashHook func()
	// hookMu serializes the hook's calls: the files of a batch are
	// written by several goroutines.
	hookMu sync.Mutex
)

// crashPoint marks a step of the protocol.
func crashPoint() {
	if crashHook != nil {
		hookMu.Lock()
		defer hookMu.Unlock()
		crashHook()
	}
	if killAt <= 0 {
		return
	}
	if crashPoints.Add(1) == killAt {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
}

// CrashPoints reports how many crash points this process has passed (only
// counted while the hook is armed).
func CrashPoints() int64 { return crashPoints.Load() }
