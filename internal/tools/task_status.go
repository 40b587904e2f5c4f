package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/task"
)

// TaskStatusIn are the arguments of task_status.
type TaskStatusIn struct {
	TaskID string `json:"task_id,omitempty" jsonschema:"the task (default: the one open on this connection or named by X-Cairn-Task)"`
	// TestRun records a run made outside Cairn (a shell, CI) in the task.
	TestRun *TestRunRecord `json:"test_run,omitempty" jsonschema:"record a test run made outside Cairn: its failing tests (none: it passed); counts against max_test_runs and is fingerprinted"`
	Base
}

// TestRunRecord is a test run reported by the client.
type TestRunRecord struct {
	Failures []task.Failure `json:"failures" jsonschema:"the failing tests with their messages; empty when the run passed"`
}

// TaskStatusOut is task_status's payload.
type TaskStatusOut struct {
	Task task.Status `json:"task"`
	// Recent are the task's latest operations from the ledger, newest first.
	Recent []ledger.Operation `json:"recent"`
	// FailureFingerprint is the fingerprint of the test run just recorded.
	FailureFingerprint string `json:"failure_fingerprint,omitempty"`
	recorded           *TestRunRecord
}

// TestFailures makes a recorded run count as the task's test run.
func (o *TaskStatusOut) TestFailures() ([]task.Failure, bool) {
	if o.recorded == nil {
		return nil, false
	}
	return o.recorded.Failures, true
}

func init() {
	Register(Tool{
		Name: "task_status", Group: "task", NoIndex: true,
		Summary: "The current task: budgets, what is spent and left, fingerprints, no-progress count, latest operations. test_run records a test run made outside Cairn so the task counts and fingerprints it.",
		Doc: "Without task_id it reports the task open on this connection (or named by the X-Cairn-Task header over REST); a task of an earlier server run is read from the ledger, e.g. to see that it was interrupted. " +
			"test_run: {failures: [{test, message}]} records a run of the tests made outside Cairn (an empty list: it passed). It counts against max_test_runs like test_run, and its failures are fingerprinted (test ids and messages with addresses, durations and temp paths taken out): the same failures after a mutation are flagged as no progress.",
		When:     []string{"checking how much of a task's budget is left", "after running tests outside Cairn, to let the task see the result"},
		WhenNot:  []string{"the index's health: status"},
		Examples: []string{`{}`, `{"test_run": {"failures": [{"test": "pkg.TestParse", "message": "got 1, want 2"}]}}`},
	}, taskStatus)
}

// recentTaskOps is how many of a task's operations task_status lists.
const recentTaskOps = 10

func taskStatus(ctx context.Context, c *Call, in TaskStatusIn) (*TaskStatusOut, error) {
	m, err := c.monitor()
	if err != nil {
		return nil, err
	}
	out := &TaskStatusOut{Recent: []ledger.Operation{}}
	id, err := taskID(ctx, m, in.TaskID)
	if err != nil {
		return nil, err
	}
	st, ok := m.Tasks().Lookup(id)
	if !ok && m.Ledger() != nil {
		row, found, err := m.Ledger().Task(ctx, id)
		if err != nil {
			return nil, errs.Wrap(errs.Internal, err, "ledger")
		}
		st, ok = task.StatusFromRow(row), found
	}
	if !ok {
		return nil, &errs.Error{Kind: errs.NotFound, Msg: "no task " + id, Details: map[string]any{"task_id": id}, Fixes: []string{"task_open"}}
	}
	if in.TestRun != nil {
		if in.TaskID != "" && in.TaskID != id || st.State != ledger.StateOpen {
			return nil, errs.E(errs.Precondition, "a test run is recorded in the open task of this connection, not in %s (%s)", id, st.State)
		}
		if in.TestRun.Failures == nil {
			in.TestRun.Failures = []task.Failure{}
		}
		out.recorded = in.TestRun
		out.FailureFingerprint = task.FailureFingerprint(in.TestRun.Failures)
		// The counters change when the call finishes: report them as they
		// will be.
		st.Counters.TestRuns++
		st.Remaining.MaxTestRuns = max(st.Remaining.MaxTestRuns-1, 0)
	}
	out.Task = st
	if m.Ledger() != nil {
		m.Ledger().Flush()
		ops, err := m.Ledger().Operations(ctx, ledger.Filter{TaskID: id, Limit: recentTaskOps})
		if err == nil && ops != nil {
			out.Recent = ops
		}
	}
	c.Answer("%s %s: %d/%d mutations, %d/%d test runs, %d no-progress, %d refused", st.TaskID, st.State, st.Counters.Mutations,
		st.Limits.MaxMutations, st.Counters.TestRuns, st.Limits.MaxTestRuns, st.Counters.NoProgress, st.Counters.Refused)
	return out, nil
}
