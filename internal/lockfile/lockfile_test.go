package lockfile

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
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
