package semantic_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
)

// faultyRun imports the fixture through a working indexer first (the
// previous semantic layer), then runs one more job with a faulty indexer
// under timeout, and returns that job and the semantic indexes before it.
func faultyRun(t *testing.T, e *env, faulty semantic.LookPath, timeout time.Duration) (job string, errText string, before string) {
	t.Helper()
	ctx := context.Background()
	head := gitHead(e.root)
	e.enqueue(t, head, time.Now())
	newRunner(e, fakeIndexer(t, "")).RunQueued(ctx)
	before = semIndexes(t, e)
	if !strings.Contains(before, "scip-go") {
		t.Fatalf("the working indexer imported nothing: %s", before)
	}
	j := e.enqueue(t, head, time.Now().Add(time.Second))
	r := semantic.NewRunner(semantic.RunnerOptions{Index: e.ix, LookPath: faulty, Timeout: timeout,
		Head: func(context.Context) string { return gitHead(e.root) },
		Sync: func(ctx context.Context) error { return nil }})
	r.RunQueued(ctx)
	got, _, _ := e.db().Job(ctx, j.ID)
	return got.Status, got.Error, before
}

func semIndexes(t *testing.T, e *env) string {
	t.Helper()
	idxs, err := e.db().SemIndexes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, x := range idxs {
		b.WriteString(strconv.FormatInt(x.ID, 10) + " " + x.Key + " " + x.Tool + " " + x.Head + " " + strconv.FormatInt(x.ImportedAt, 10) + "\n")
	}
	return b.String()
}

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// An indexer that hangs is stopped at the timeout with every process it
// started; the job fails saying so, and the index keeps its previous
// semantic layer, still used for references.
func TestHungIndexerIsKilledWithItsChildren(t *testing.T) {
	e := openRepo(t)
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	start := time.Now()
	status, msg, before := faultyRun(t, e, fakeIndexer(t, "sleep 300 &\necho $! > "+pidFile+"\nsleep 300"), 2*time.Second)
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("the hung indexer held the runner for %s", took)
	}
	if status != semantic.JobFailed || !strings.Contains(msg, "did not finish within 2s") {
		t.Errorf("job after a hung indexer: %s %q, want failed, did not finish within 2s", status, msg)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the fake indexer did not start its child: %v", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if alive(pid) {
		t.Errorf("the indexer's child %d still runs after the timeout", pid)
	}
	if after := semIndexes(t, e); after != before {
		t.Errorf("the semantic layer changed after a hung indexer:\nbefore %s\nafter  %s", before, after)
	}
	if res := refs(t, e, "a.Store.Get", query.RefsParams{}); res.Semantic.State != "used" {
		t.Errorf("the previous semantic layer is not used after the hung indexer: %+v", res.Semantic)
	}
}

// An indexer that writes garbage instead of a SCIP index: the import
// refuses it with a clear error, nothing of it is imported, and the
// previous semantic layer stays.
func TestGarbageIndexIsRefused(t *testing.T) {
	for name, write := range map[string]string{
		"random bytes": `head -c 20000 /dev/urandom > "$out"`,
		"text":         `printf 'this is not a SCIP index\n' > "$out"`,
		"empty":        `: > "$out"`,
		"cut off":      `head -c 300 ` + fixtureSCIP(t) + ` > "$out"`,
		"no output":    `rm -f "$out"`,
	} {
		t.Run(name, func(t *testing.T) {
			e := openRepo(t)
			status, msg, before := faultyRun(t, e, fakeIndexer(t, write+"\nexit 0"), time.Minute)
			if status != semantic.JobFailed || (name != "no output" && !strings.Contains(msg, "nothing of it was imported")) {
				t.Errorf("job after an indexer wrote %s: %s %q, want failed with a reason", name, status, msg)
			}
			t.Logf("%s: %s", name, msg)
			if after := semIndexes(t, e); after != before {
				t.Errorf("the semantic layer changed:\nbefore %s\nafter  %s", before, after)
			}
			if res := refs(t, e, "a.Store.Get", query.RefsParams{}); res.Semantic.State != "used" {
				t.Errorf("the previous semantic layer is not used: %+v", res.Semantic)
			}
		})
	}
}

func fixtureSCIP(t *testing.T) string {
	p, err := filepath.Abs(filepath.Join("testdata", "fixture.scip"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
