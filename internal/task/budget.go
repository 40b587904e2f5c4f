package task

import (
	"context"
	"fmt"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
)

// Kind is what a call spends of a task's budgets.
type Kind int

// Kinds of calls.
const (
	Other    Kind = iota // counted, never refused
	Mutation             // write_source, edit_undo, refactor_apply, ...
	TestRun              // test_run
	FullRead             // a confirmed read_file_full
)

// Admit checks, before a call runs, that the task's budgets cover it. A
// refused call is counted and the budget it hit is recorded.
func (m *Manager) Admit(t *Task, kind Kind) error {
	if t == nil || kind == Other {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	budget, used, limit := "", int64(0), int64(0)
	elapsed := m.now().Sub(t.Opened)
	switch {
	case t.Limits.MaxDurationS > 0 && elapsed > time.Duration(t.Limits.MaxDurationS)*time.Second:
		budget, used, limit = BudgetDuration, int64(elapsed.Seconds()), int64(t.Limits.MaxDurationS)
	case kind == Mutation && t.Counters.Mutations >= t.Limits.MaxMutations:
		budget, used, limit = BudgetMutations, int64(t.Counters.Mutations), int64(t.Limits.MaxMutations)
	case kind == TestRun && t.Counters.TestRuns >= t.Limits.MaxTestRuns:
		budget, used, limit = BudgetTestRuns, int64(t.Counters.TestRuns), int64(t.Limits.MaxTestRuns)
	case kind == FullRead && t.Counters.ReadBytes >= t.Limits.MaxReadBytes:
		budget, used, limit = BudgetReads, t.Counters.ReadBytes, t.Limits.MaxReadBytes
	default:
		return nil
	}
	return m.refuseLocked(t, budget, used, limit)
}

func (m *Manager) refuseLocked(t *Task, budget string, used, limit int64) error {
	t.Counters.Refused++
	t.LimitHit = budget
	return &errs.Error{Kind: errs.TaskBudgetExceeded,
		Msg:     fmt.Sprintf("task %s has spent its %s budget (%d of %d)", t.ID, budget, used, limit),
		Details: map[string]any{"task_id": t.ID, "budget": budget, "used": used, "limit": limit},
		Fixes: []string{"task_status shows what the task spent and whether it is making progress",
			"task_close, then task_open with a larger budget if the work should go on"}}
}

// SpendRead takes n bytes of whole-file content from the task's read budget;
// a read that does not fit is refused before any content is returned.
func (m *Manager) SpendRead(t *Task, n int64) error {
	if t == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if t.Counters.ReadBytes+n > t.Limits.MaxReadBytes {
		return m.refuseLocked(t, BudgetReads, t.Counters.ReadBytes+n, t.Limits.MaxReadBytes)
	}
	t.Counters.ReadBytes += n
	return nil
}

// Outcome is what a finished call did, for the task's counters.
type Outcome struct {
	Kind        Kind
	Failed      bool   // the call returned an error
	Refused     bool   // the task's budget refused it (already counted)
	MutationFP  string // a mutation's fingerprint
	Ran         bool   // a test run ran (failures may be none)
	FailureFP   string // a test run's failure fingerprint ("" when it passed)
	TokensSaved int
}

// Record counts a finished call and returns why it makes no progress ("" if
// it may). A mutation whose delta equals the previous one is a no-op; the
// same failures after a mutation mean the mutation did not help.
func (m *Manager) Record(ctx context.Context, t *Task, o Outcome) (noProgress string) {
	if t == nil {
		return ""
	}
	m.mu.Lock()
	t.Counters.Calls++
	t.Counters.TokensSaved += int64(o.TokensSaved)
	if o.Failed && !o.Refused {
		t.Counters.Failures++
	}
	persist := false
	switch {
	case o.Kind == Mutation && !o.Failed:
		t.Counters.Mutations++
		if o.MutationFP != "" && o.MutationFP == t.LastMut {
			noProgress = RepeatedMutation
		}
		if o.MutationFP != "" {
			t.LastMut = o.MutationFP
		}
		t.mutatedSinceRun = true
		persist = true
	case o.Kind == TestRun && o.Ran:
		t.Counters.TestRuns++
		if o.FailureFP != "" && o.FailureFP == t.LastFail && t.mutatedSinceRun {
			noProgress = RepeatedFailure
		}
		t.LastFail = o.FailureFP
		t.mutatedSinceRun = false
		persist = true
	}
	if noProgress != "" {
		t.Counters.NoProgress++
	}
	if o.Refused {
		persist = true
	}
	var row = m.rowLocked(t)
	m.mu.Unlock()
	if persist {
		m.put(ctx, row)
	}
	return noProgress
}
