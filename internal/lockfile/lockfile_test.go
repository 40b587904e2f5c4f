package lockfile

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// An owner's lock names its PID; a probe holds the lock for a moment and
// leaves the name alone, so a process opening meanwhile is told of the
// owner the file names, not of the prober.
func TestProbeKeepsTheOwnersPID(t *testing.T) {
	path := filepath.Join(t.TempDir(), "owner.lock")
	if err := os.WriteFile(path, []byte("4242\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Probe(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, owner, err := TryLock(path); !errors.Is(err, ErrLocked) || owner != 4242 {
		t.Errorf("TryLock during a probe = owner %d, %v; want ErrLocked naming 4242", owner, err)
	}
	if _, err := Probe(path); !errors.Is(err, ErrLocked) {
		t.Errorf("a second probe = %v, want ErrLocked", err)
	}
	p.Unlock()
	l, _, err := TryLock(path)
	if err != nil {
		t.Fatalf("TryLock after the probe: %v", err)
	}
	defer l.Unlock()
	data, _ := os.ReadFile(path)
	if got := string(data); got != strconv.Itoa(os.Getpid())+"\n" {
		t.Errorf("the owner's lock file holds %q, want this process's PID", got)
	}
	if _, owner, err := TryLock(path); !errors.Is(err, ErrLocked) || owner != os.Getpid() {
		t.Errorf("TryLock of a held lock = owner %d, %v; want ErrLocked naming this process", owner, err)
	}
}

// A lock a probe holds is waited for; a process owning the lock is
// refused at once, naming the owner.
func TestTryLockPatientWaitsOutAProbe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "owner.lock")
	p, err := Probe(path)
	if err != nil {
		t.Fatal(err)
	}
	const held = 150 * time.Millisecond
	go func() { time.Sleep(held); p.Unlock() }()
	start := time.Now()
	l, _, err := TryLockPatient(path, 10*time.Second)
	if err != nil {
		t.Fatalf("TryLockPatient while a probe holds the lock: %v", err)
	}
	if waited := time.Since(start); waited < held {
		t.Errorf("took the lock after %v, while the probe held it for %v", waited, held)
	}
	start = time.Now()
	if _, owner, err := TryLockPatient(path, 10*time.Second); !errors.Is(err, ErrLocked) || owner != os.Getpid() {
		t.Errorf("TryLockPatient of an owner's lock = owner %d, %v; want ErrLocked naming this process", owner, err)
	} else if waited := time.Since(start); waited > 2*time.Second {
		t.Errorf("an owner's lock was refused after %v, want at once", waited)
	}
	if _, err := Probe(path); !errors.Is(err, ErrLocked) {
		t.Errorf("a probe of an owned lock = %v, want ErrLocked", err)
	}
	if probed(path) {
		t.Error("a failed probe left its marker locked")
	}
	l.Unlock()
}
