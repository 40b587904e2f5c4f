package ledger

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func open(t *testing.T, path string, opts Options) *Ledger {
	t.Helper()
	l, warnings, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Fatalf("unexpected warnings: %v", warnings)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestOperationsRoundTrip(t *testing.T) {
	ctx := context.Background()
	l := open(t, filepath.Join(t.TempDir(), FileName), Options{})
	now := time.Now().UTC().Truncate(time.Millisecond)
	l.Append(Operation{RequestID: "req_1", Client: "mcp:a", Time: now, Duration: 1500 * time.Microsecond, Type: "search", Success: true, Tokens: 40, TokensSaved: 900})
	l.Append(Operation{TaskID: "task_1", RequestID: "req_2", Time: now, Type: "write_source", Success: true,
		ChangedPaths: []string{"a.go"}, DiffStats: &DiffStats{FilesChanged: 1, Insertions: 2, Deletions: 1}, MutationFP: "mfp", NoProgress: "repeated_mutation"})
	l.Append(Operation{TaskID: "task_1", RequestID: "req_3", Time: now, Type: "write_source", ErrorCode: "TASK_BUDGET_EXCEEDED", LimitTriggered: "max_mutations"})
	l.Flush()
	ops, err := l.Operations(ctx, Filter{TaskID: "task_1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].RequestID != "req_3" || ops[0].LimitTriggered != "max_mutations" || ops[0].Success {
		t.Fatalf("task ops = %+v", ops)
	}
	if ops[1].DiffStats == nil || ops[1].DiffStats.Insertions != 2 || ops[1].ChangedPaths[0] != "a.go" || ops[1].NoProgress != "repeated_mutation" {
		t.Errorf("mutation = %+v", ops[1])
	}
	fails, _ := l.Operations(ctx, Filter{OnlyFails: true})
	if len(fails) != 1 {
		t.Errorf("failures = %d", len(fails))
	}
	tot, err := l.Totals(ctx)
	if err != nil || tot.Operations != 3 || tot.Failures != 1 || tot.TokensSaved != 900 || tot.Tokens != 40 {
		t.Errorf("totals = %+v %v", tot, err)
	}
	if got, _ := ReadTotals(ctx, l.Path()); got.TokensSaved != 900 {
		t.Errorf("read-only totals = %+v", got)
	}
	// Append-only: rows are never rewritten.
	if _, err := l.db.Exec(`UPDATE operations SET success = 1`); err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Errorf("update of an operation: %v", err)
	}
}

func TestRetention(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	clock := func() time.Time { return now }
	path := filepath.Join(t.TempDir(), FileName)
	l := open(t, path, Options{MaxAge: 24 * time.Hour, MaxOperations: 5, MaxTasks: 2, Now: clock})
	for i := 0; i < 3; i++ {
		l.Append(Operation{RequestID: "old", Time: now.Add(-48 * time.Hour), Type: "search", Success: true})
	}
	for i := 0; i < 8; i++ {
		l.Append(Operation{RequestID: "new", Time: now, Type: "search", Success: true})
	}
	l.Flush()
	for i, id := range []string{"t1", "t2", "t3", "t4"} {
		state := StateSuccess
		if id == "t1" {
			state = StateOpen // open tasks are kept whatever their age
		}
		opened := now.Add(time.Duration(i) * time.Minute)
		if id == "t2" {
			opened = now.Add(-72 * time.Hour)
		}
		if err := l.PutTask(ctx, Task{ID: id, Opened: opened, Closed: opened, State: state, PID: 1, Limits: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	ops, _ := l.Operations(ctx, Filter{Limit: 100})
	if len(ops) != 5 {
		t.Errorf("kept %d operations, want 5", len(ops))
	}
	for _, op := range ops {
		if op.RequestID == "old" {
			t.Errorf("an operation older than the retention is kept")
		}
	}
	tasks, _ := l.Tasks(ctx, 10)
	var ids []string
	for _, tk := range tasks {
		ids = append(ids, tk.ID)
	}
	if strings.Join(ids, ",") != "t4,t3,t1" {
		t.Errorf("kept tasks %v, want t4,t3 (the newest two closed) and t1 (open)", ids)
	}
}

func TestDamagedLedgerMovedAside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 400)), 0o600); err != nil {
		t.Fatal(err)
	}
	if ok, _ := Check(path); ok {
		t.Fatal("garbage passes the integrity check")
	}
	l, warnings, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "moved to") {
		t.Errorf("warnings = %v", warnings)
	}
	aside, _ := filepath.Glob(path + ".damaged-*")
	if len(aside) != 1 {
		t.Errorf("damaged file not kept aside: %v", aside)
	}
	l.Append(Operation{RequestID: "r", Time: time.Now(), Type: "status", Success: true})
	l.Flush()
	if tot, _ := l.Totals(context.Background()); tot.Operations != 1 {
		t.Errorf("the fresh ledger does not record: %+v", tot)
	}
	if ok, why := Check(path); !ok {
		t.Errorf("fresh ledger fails its check: %s", why)
	}
}

func TestInterruptOrphans(t *testing.T) {
	ctx := context.Background()
	l := open(t, filepath.Join(t.TempDir(), FileName), Options{})
	now := time.Now()
	for _, tk := range []Task{
		{ID: "dead", PID: 111, State: StateOpen},
		{ID: "alive", PID: 222, State: StateOpen},
		{ID: "done", PID: 111, State: StateSuccess},
	} {
		tk.Opened, tk.Limits = now, json.RawMessage(`{"max_mutations":3}`)
		if err := l.PutTask(ctx, tk); err != nil {
			t.Fatal(err)
		}
	}
	closed, err := l.InterruptOrphans(ctx, func(pid int) bool { return pid == 222 })
	if err != nil || len(closed) != 1 || closed[0] != "dead" {
		t.Fatalf("closed %v, %v", closed, err)
	}
	tk, ok, _ := l.Task(ctx, "dead")
	if !ok || tk.State != StateInterrupted || tk.Closed.IsZero() || string(tk.Limits) != `{"max_mutations":3}` {
		t.Errorf("dead task = %+v", tk)
	}
	if tk, _, _ := l.Task(ctx, "alive"); tk.State != StateOpen {
		t.Errorf("a live server's task was closed: %+v", tk)
	}
}
