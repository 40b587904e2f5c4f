package task

import (
	"context"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/ledger"
)

type memStore struct{ rows map[string]ledger.Task }

func (s *memStore) PutTask(_ context.Context, t ledger.Task) error {
	s.rows[t.ID] = t
	return nil
}

func TestFingerprints(t *testing.T) {
	a := MutationFingerprint([]FileChange{{"a.go", "updated", "h1"}, {"b.go", "created", "h2"}})
	b := MutationFingerprint([]FileChange{{"b.go", "unchanged", "h2"}, {"a.go", "unchanged", "h1"}})
	if a == "" || a != b {
		t.Errorf("a write that changed nothing differs from the write that left the same files: %q %q", a, b)
	}
	if c := MutationFingerprint([]FileChange{{"a.go", "updated", "h3"}, {"b.go", "created", "h2"}}); c == a {
		t.Errorf("different contents, same fingerprint")
	}
	f1 := FailureFingerprint([]Failure{{"pkg.TestA", "got 1, want 2 (took 0.12s) at 0xc000123 in /tmp/go-build123/x_test.go"}, {"pkg.TestB", "panic"}})
	f2 := FailureFingerprint([]Failure{{"pkg.TestB", "panic"}, {"pkg.TestA", "got 1, want 2 (took 3ms) at 0xc000999 in /tmp/go-build777/x_test.go"}})
	if f1 == "" || f1 != f2 {
		t.Errorf("the same failures fingerprint differently: %q %q", f1, f2)
	}
	if f3 := FailureFingerprint([]Failure{{"pkg.TestA", "got 1, want 3"}, {"pkg.TestB", "panic"}}); f3 == f1 {
		t.Errorf("another message, same fingerprint")
	}
	if FailureFingerprint(nil) != "" || MutationFingerprint(nil) != "" {
		t.Errorf("empty input has a fingerprint")
	}
}

// TestConvergence walks the loop a spinning agent makes: a write, a failing
// run, the same write again, the same failure, then one mutation too many.
func TestConvergence(t *testing.T) {
	ctx := context.Background()
	store := &memStore{rows: map[string]ledger.Task{}}
	m := NewManager(Options{Store: store})
	st, err := m.Open(ctx, "s1", "agent", Limits{MaxMutations: 2, MaxTestRuns: 5, MaxReadBytes: 100, MaxDurationS: 3600}, "head", 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Open(ctx, "s1", "agent", Limits{}, "", 0); !errs.Is(err, errs.Precondition) {
		t.Errorf("second open on a session: %v", err)
	}
	tk, _ := m.Current("s1", "")
	if tk == nil || tk.ID != st.TaskID {
		t.Fatalf("current = %v", tk)
	}
	fp := MutationFingerprint([]FileChange{{"a.go", "updated", "h1"}})
	fail := FailureFingerprint([]Failure{{"TestX", "boom"}})
	steps := []struct {
		kind Kind
		o    Outcome
		want string
	}{
		{Mutation, Outcome{Kind: Mutation, MutationFP: fp}, ""},
		{TestRun, Outcome{Kind: TestRun, Ran: true, FailureFP: fail}, ""},
		{Mutation, Outcome{Kind: Mutation, MutationFP: fp}, RepeatedMutation},
		{TestRun, Outcome{Kind: TestRun, Ran: true, FailureFP: fail}, RepeatedFailure},
		{TestRun, Outcome{Kind: TestRun, Ran: true, FailureFP: fail}, ""}, // no mutation between: not flagged
	}
	for i, s := range steps {
		if err := m.Admit(tk, s.kind); err != nil {
			t.Fatalf("step %d refused: %v", i, err)
		}
		if got := m.Record(ctx, tk, s.o); got != s.want {
			t.Errorf("step %d: no progress %q, want %q", i, got, s.want)
		}
	}
	err = m.Admit(tk, Mutation)
	if !errs.Is(err, errs.TaskBudgetExceeded) || errs.As(err).Details["budget"] != BudgetMutations {
		t.Fatalf("third mutation: %v", err)
	}
	m.Record(ctx, tk, Outcome{Kind: Mutation, Failed: true, Refused: true})
	got := m.Status(tk)
	want := Counters{Calls: 6, Failures: 0, Mutations: 2, TestRuns: 3, NoProgress: 2, Refused: 1}
	if got.Counters != want || got.LimitHit != BudgetMutations || got.Remaining.MaxMutations != 0 {
		t.Errorf("counters = %+v (limit %q), want %+v", got.Counters, got.LimitHit, want)
	}
	if row := store.rows[tk.ID]; row.LastMutFP != fp || row.LastFailFP != fail || row.State != ledger.StateOpen {
		t.Errorf("ledger row = %+v", row)
	}
	// Reads: a read that does not fit is refused whole.
	if err := m.SpendRead(tk, 60); err != nil {
		t.Fatal(err)
	}
	if err := m.SpendRead(tk, 60); !errs.Is(err, errs.TaskBudgetExceeded) {
		t.Errorf("over-budget read: %v", err)
	}
	if _, err := m.Close(ctx, tk.ID, false, ""); err != nil {
		t.Fatal(err)
	}
	if tk, _ := m.Current("s1", ""); tk != nil {
		t.Errorf("closed task still current")
	}
	if _, err := m.Current("", st.TaskID); !errs.Is(err, errs.Precondition) {
		t.Errorf("naming a closed task: %v", err)
	}
	if store.rows[st.TaskID].State != ledger.StateSuccess {
		t.Errorf("closed row = %+v", store.rows[st.TaskID])
	}
}

func TestDurationAndInterrupt(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	m := NewManager(Options{Now: func() time.Time { return now }})
	st, _ := m.Open(ctx, "s", "c", Limits{MaxMutations: 10, MaxTestRuns: 10, MaxReadBytes: 10, MaxDurationS: 60}, "", 0)
	tk, _ := m.Current("", st.TaskID)
	if err := m.Admit(tk, Mutation); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Minute)
	if err := m.Admit(tk, Other); err != nil {
		t.Errorf("a read is refused after the duration: %v", err)
	}
	if err := m.Admit(tk, TestRun); !errs.Is(err, errs.TaskBudgetExceeded) || errs.As(err).Details["budget"] != BudgetDuration {
		t.Errorf("test run after the duration: %v", err)
	}
	m.Interrupt(ctx, "s", "the client disconnected")
	if got, _ := m.Lookup(st.TaskID); got.State != ledger.StateInterrupted || got.ElapsedS != 120 {
		t.Errorf("after disconnect: %+v", got)
	}
	if m.OpenCount() != 0 {
		t.Errorf("open tasks left")
	}
}
