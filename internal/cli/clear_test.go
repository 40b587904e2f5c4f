package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/lockfile"
)

// TestRemoveHeld: state is removed only under the state dir's writer lock;
// while another holder has it nothing is listed or removed, and once it is
// free the listed paths that exist are removed and returned.
func TestRemoveHeld(t *testing.T) {
	paths := config.Paths{StateDir: t.TempDir()}
	index := filepath.Join(paths.StateDir, "index.db")
	if err := os.WriteFile(index, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	list := func() []string { return []string{index, filepath.Join(paths.StateDir, "index.db-wal")} }

	l, _, err := lockfile.TryLock(filepath.Join(paths.StateDir, "owner.lock"))
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	removed, err := removeHeld(paths, func() []string { listed = true; return list() })
	if !errs.Is(err, errs.Conflict) || removed != nil || listed {
		t.Fatalf("while the lock is held: removed %v, listed %v, err %v; want a CONFLICT before listing", removed, listed, err)
	}
	if _, err := os.Stat(index); err != nil {
		t.Fatalf("the index went while the lock was held: %v", err)
	}
	l.Unlock()

	removed, err = removeHeld(paths, list)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{index}, removed); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(index); !os.IsNotExist(err) {
		t.Errorf("the index is still there: %v", err)
	}
	// The lock is given back: a second holder gets it.
	l, _, err = lockfile.TryLock(filepath.Join(paths.StateDir, "owner.lock"))
	if err != nil {
		t.Fatalf("the lock was kept: %v", err)
	}
	l.Unlock()
}
