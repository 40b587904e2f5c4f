package semantic_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/testenv"
)

// The child side of TestKilledImportLeavesStoreConsistent: it imports and
// stops inside the write transaction, announcing it through a marker file,
// until the parent kills it.
func killChild() {
	root, state, scip, marker := os.Getenv("KILL_ROOT"), os.Getenv("KILL_STATE"), os.Getenv("KILL_SCIP"), os.Getenv("KILL_MARKER")
	ctx := context.Background()
	paths, err := config.Locate(ctx, root, state)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ix, err := index.Open(ctx, paths, config.Default())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	_, err = semantic.Import(ctx, ix, semantic.ImportOptions{Path: scip, Key: "scip:fixture", Source: scip, ProgressEvery: 1,
		Progress: func(phase string, done, total int) {
			if phase == "write" && done >= total-2 { // documents, symbols and relationships are flushed by now
				os.WriteFile(marker, []byte(fmt.Sprintf("%d/%d rows written", done, total)), 0o644)
				time.Sleep(time.Minute)
			}
		}})
	fmt.Fprintln(os.Stderr, "the import finished before it was killed:", err)
	os.Exit(3)
}

// A process killed in the middle of an import leaves the store as it was
// before: the previous index, complete, and a database that passes SQLite's
// integrity check.
func TestKilledImportLeavesStoreConsistent(t *testing.T) {
	if os.Getenv("KILL_CHILD") == "1" {
		killChild()
		return
	}
	e := openRepo(t)
	e.importFixture(t, "")
	ctx := context.Background()
	before, err := e.db().SemCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	idxs, _ := e.db().SemIndexes(ctx)
	e.close() // the child takes the writer lock

	marker := filepath.Join(t.TempDir(), "marker")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledImportLeavesStoreConsistent$", "-test.count=1")
	cmd.Env = append(os.Environ(), "KILL_CHILD=1", "KILL_ROOT="+e.root, "KILL_STATE="+e.state, "KILL_SCIP="+testenv.SemanticIndex(t, "fixture"), "KILL_MARKER="+marker)
	out, err := os.CreateTemp(t.TempDir(), "child")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			log, _ := os.ReadFile(out.Name())
			t.Fatalf("the child never reached the write transaction:\n%s", log)
		}
		time.Sleep(10 * time.Millisecond)
	}
	note, _ := os.ReadFile(marker)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	t.Logf("killed the child mid-import (%s)", note)

	e.open(t)
	if err := e.ix.IntegrityCheck(ctx); err != nil {
		t.Fatalf("integrity after the kill: %v", err)
	}
	after, err := e.db().SemCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("semantic tables before the killed import %v, after %v", before, after)
	}
	idxsAfter, _ := e.db().SemIndexes(ctx)
	if len(idxsAfter) != 1 || idxsAfter[0].ID != idxs[0].ID {
		t.Errorf("indexes after the kill %+v, want the previous one (id %d)", idxsAfter, idxs[0].ID)
	}
	res := refs(t, e, "a.Store.Get", query.RefsParams{})
	if res.Semantic.State != "used" || len(locs(res, "precise")) != 3 {
		t.Errorf("after the kill: %+v %v", res.Semantic, locs(res, ""))
	}
	// And a new import still works.
	e.importFixture(t, "")
}
