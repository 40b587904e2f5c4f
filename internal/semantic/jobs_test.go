package semantic_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
	"github.com/cairnhq/cairn/internal/testenv"
)

// The refresh queue: scopes only widen for the same HEAD, a running job gets
// one queued follow-up, and a HEAD change supersedes queued and running jobs.
func TestEnqueueLattice(t *testing.T) {
	e := openRepo(t)
	db := e.db()
	ctx := context.Background()
	now := time.Now()
	req := func(files ...string) semantic.Request {
		r := semantic.Request{Indexer: "scip-go", Root: "", Trigger: "file_changed"}
		if files != nil {
			r.Files = files
		}
		return r
	}
	j1, err := semantic.Enqueue(ctx, db, "h1", req("b.go"), now)
	if err != nil {
		t.Fatal(err)
	}
	j2, _ := semantic.Enqueue(ctx, db, "h1", req("a.go", "b.go"), now)
	if j2.ID != j1.ID || j2.Scope != `["a.go","b.go"]` {
		t.Fatalf("same HEAD: job %d scope %s, want job %d widened to a.go, b.go", j2.ID, j2.Scope, j1.ID)
	}
	j3, _ := semantic.Enqueue(ctx, db, "h1", req("a.go"), now)
	if j3.ID != j1.ID || j3.Scope != `["a.go","b.go"]` {
		t.Fatalf("a narrower request changed the scope: %s", j3.Scope)
	}
	j4, _ := semantic.Enqueue(ctx, db, "h1", semantic.Request{Indexer: "scip-go", Trigger: "user"}, now)
	if j4.ID != j1.ID || j4.Scope != "" {
		t.Fatalf("a whole-project request must widen to everything: %q", j4.Scope)
	}
	running, ok, err := semantic.Claim(ctx, db, j1.ID, now)
	if err != nil || !ok || running.Status != semantic.JobRunning {
		t.Fatalf("claim: %+v %v %v", running, ok, err)
	}
	if _, ok, _ := semantic.Claim(ctx, db, j1.ID, now); ok {
		t.Fatal("a running job was claimed twice")
	}
	// A file change while it runs waits in one follow-up job.
	f1, _ := semantic.Enqueue(ctx, db, "h1", req("c.go"), now)
	f2, _ := semantic.Enqueue(ctx, db, "h1", req("d.go"), now)
	if f1.ID == j1.ID || f2.ID != f1.ID || f2.Scope != `["c.go","d.go"]` {
		t.Fatalf("follow-up jobs %d %d scope %s", f1.ID, f2.ID, f2.Scope)
	}
	// The whole project at the same HEAD is served by the running job.
	if j, _ := semantic.Enqueue(ctx, db, "h1", semantic.Request{Indexer: "scip-go", Trigger: "user"}, now); j.ID != f1.ID {
		t.Fatalf("with a follow-up queued, a user request widens it: got job %d", j.ID)
	}
	// HEAD moves: both are superseded, a new job starts from scratch.
	n, _ := semantic.Enqueue(ctx, db, "h2", req("e.go"), now)
	for _, id := range []int64{j1.ID, f1.ID} {
		j, _, _ := db.Job(ctx, id)
		if j.Status != semantic.JobSuperseded || j.Reason != "head_changed" {
			t.Errorf("job %d after the HEAD change: %s (%s)", id, j.Status, j.Reason)
		}
	}
	if n.Head != "h2" || n.Status != semantic.JobQueued || n.Scope != `["e.go"]` {
		t.Errorf("new job %+v", n)
	}
	// The superseded running job learns it right before importing.
	if err := semantic.CheckCurrent(ctx, db, j1.ID, "h2", now); !errors.Is(err, semantic.ErrSuperseded) {
		t.Errorf("CheckCurrent of a superseded job: %v", err)
	}
	// Finishing it does not resurrect it.
	semantic.Finish(ctx, db, j1.ID, nil, nil, now)
	if j, _, _ := db.Job(ctx, j1.ID); j.Status != semantic.JobSuperseded {
		t.Errorf("finish overwrote superseded: %s", j.Status)
	}
}

// fakeIndexer writes a script that plays scip-go: it copies the committed
// fixture index to --output, after running extra shell commands.
func fakeIndexer(t *testing.T, extra string) semantic.LookPath {
	t.Helper()
	dir := t.TempDir()
	scip, _ := filepath.Abs(filepath.Join("testdata", "fixture.scip"))
	script := "#!/bin/sh\nout=\nwhile [ $# -gt 0 ]; do [ \"$1\" = --output ] && out=$2; shift; done\n" + extra + "\ncp " + scip + " \"$out\"\n"
	p := filepath.Join(dir, "scip-go")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return func(name string) (string, error) {
		if name == "scip-go" {
			return p, nil
		}
		return "", os.ErrNotExist
	}
}

func newRunner(e *env, look semantic.LookPath, set ...func(*semantic.RunnerOptions)) *semantic.Runner {
	o := semantic.RunnerOptions{Index: e.ix, LookPath: look,
		Head: func(context.Context) string { return gitHead(e.root) },
		Sync: func(ctx context.Context) error { return nil }}
	for _, f := range set {
		f(&o)
	}
	return semantic.NewRunner(o)
}

func gitHead(root string) string {
	b, err := os.ReadFile(filepath.Join(root, ".git", "HEAD"))
	if err != nil {
		return ""
	}
	ref := strings.TrimSpace(strings.TrimPrefix(string(b), "ref: "))
	if v, err := os.ReadFile(filepath.Join(root, ".git", ref)); err == nil {
		return strings.TrimSpace(string(v))
	}
	return ref
}

// enqueue queues the whole-project scip-go job a user asks for at HEAD head.
func (e *env) enqueue(t *testing.T, head string, now time.Time) store.JobRow {
	t.Helper()
	j, err := semantic.Enqueue(context.Background(), e.db(), head, semantic.Request{Indexer: "scip-go", Trigger: "user"}, now)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// A job runs the indexer and imports its output in one transaction.
func TestRunnerImports(t *testing.T) {
	e := openRepo(t)
	ctx := context.Background()
	head := gitHead(e.root)
	j := e.enqueue(t, head, time.Now())
	newRunner(e, fakeIndexer(t, "")).RunQueued(ctx)
	got, _, _ := e.db().Job(ctx, j.ID)
	if got.Status != semantic.JobCompleted {
		t.Fatalf("job %+v", got)
	}
	fr, err := e.q().SemanticFreshness(ctx)
	if err != nil || len(fr) != 1 || fr[0].IndexedCommit != head || !fr[0].CommitKnown || fr[0].Stale {
		t.Fatalf("freshness %+v %v", fr, err)
	}
	if res := refs(t, e, "a.Store.Get", query.RefsParams{}); res.Semantic.State != "used" {
		t.Errorf("after the job: %+v", res.Semantic)
	}
}

// A job's progress during the import's write (which holds the database
// until it commits) is not saved to that database: a large import used to
// wait for ever on its own transaction.
func TestRunnerImportProgress(t *testing.T) {
	e := openRepo(t)
	ctx := context.Background()
	j := e.enqueue(t, gitHead(e.root), time.Now())
	r := newRunner(e, fakeIndexer(t, ""), func(o *semantic.RunnerOptions) { o.NoteEvery, o.ProgressEvery = time.Nanosecond, 1 })
	done := make(chan struct{})
	go func() { r.RunQueued(ctx); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the job did not finish within a minute: its progress waits on its own import")
	}
	if got, _, _ := e.db().Job(ctx, j.ID); got.Status != semantic.JobCompleted {
		t.Fatalf("job %+v", got)
	}
}

// HEAD moving while the indexer runs supersedes the job: the fresh HEAD
// check right before the import refuses its output.
func TestHeadChangeDuringRunSupersedes(t *testing.T) {
	e := openRepo(t)
	ctx := context.Background()
	j := e.enqueue(t, gitHead(e.root), time.Now())
	testenv.Isolate(t)
	newRunner(e, fakeIndexer(t, "git -c user.email=t@t -c user.name=t commit -q --allow-empty -m moved")).RunQueued(ctx)
	got, _, _ := e.db().Job(ctx, j.ID)
	if got.Status != semantic.JobSuperseded || !strings.Contains(got.Reason, "HEAD moved") {
		t.Fatalf("job after HEAD moved during the run: %s (%s) %s", got.Status, got.Reason, got.Error)
	}
	if idxs, _ := e.db().SemIndexes(ctx); len(idxs) != 0 {
		t.Errorf("a superseded job imported its output: %+v", idxs)
	}
}

// A file changed while the indexer ran is not used from its output.
func TestFileChangedDuringRun(t *testing.T) {
	e := openRepo(t)
	ctx := context.Background()
	e.enqueue(t, gitHead(e.root), time.Now())
	newRunner(e, fakeIndexer(t, "echo '// touched' >> b/b.go")).RunQueued(ctx)
	e.reconcile(t)
	fr, err := e.q().SemanticFreshness(ctx)
	if err != nil || len(fr) != 1 || fr[0].Changed != 1 || fr[0].Usable != 2 {
		t.Fatalf("freshness %+v %v", fr, err)
	}
	res := refs(t, e, "a.Store.Put", query.RefsParams{})
	if res.Semantic.FallbackTotal != 1 || res.Semantic.Fallback[0].Reason != semantic.DocChangedDuringRun.String() {
		t.Errorf("semantic use %+v", res.Semantic)
	}
}

// A job left running by a process that ended is failed when the index is
// next taken; queued jobs stay queued, and with none running nothing is
// written.
func TestRecoverJobs(t *testing.T) {
	e := openRepo(t)
	db := e.db()
	ctx := context.Background()
	now := time.Now()
	if err := semantic.RecoverJobs(ctx, db, now); err != nil {
		t.Fatalf("recover with no jobs: %v", err)
	}
	j := e.enqueue(t, "h1", now)
	if _, ok, err := semantic.Claim(ctx, db, j.ID, now); !ok || err != nil {
		t.Fatalf("claim: %v %v", ok, err)
	}
	queued, _ := semantic.Enqueue(ctx, db, "h1", semantic.Request{Indexer: "scip-go", Files: []string{"c.go"}, Trigger: "file_changed"}, now)
	if err := semantic.RecoverJobs(ctx, db, now); err != nil {
		t.Fatal(err)
	}
	got, _, _ := db.Job(ctx, j.ID)
	if got.Status != semantic.JobFailed || !strings.Contains(got.Error, "interrupted") {
		t.Errorf("the running job after recovery: %s %q", got.Status, got.Error)
	}
	if q, _, _ := db.Job(ctx, queued.ID); q.Status != semantic.JobQueued {
		t.Errorf("the queued job after recovery: %s", q.Status)
	}
}
