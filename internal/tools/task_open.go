package tools

import (
	"context"
	"fmt"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/task"
)

// TaskOpenIn are the arguments of task_open.
type TaskOpenIn struct {
	MaxMutations int   `json:"max_mutations,omitempty" jsonschema:"mutations allowed (write_source, edit_undo, refactor_apply...; dry runs are free)"`
	MaxTestRuns  int   `json:"max_test_runs,omitempty" jsonschema:"test runs allowed"`
	MaxReadBytes int64 `json:"max_read_bytes,omitempty" jsonschema:"bytes of whole files (read_file_full) allowed"`
	MaxDurationS int   `json:"max_duration_s,omitempty" jsonschema:"seconds after which mutations, test runs and whole-file reads are refused"`
	Base
}

// TaskOut is the payload of the task tools: the task with its budgets,
// counters and what is left.
type TaskOut struct {
	Task task.Status `json:"task"`
}

// Caps of a task's budgets: a task asks for what it needs, up to these.
var (
	mutationsBudget = Budget{0, 1000}
	testRunsBudget  = Budget{0, 500}
	readBytesBudget = Budget{0, 64 << 20}
	durationBudget  = Budget{0, 24 * 3600}
)

func init() {
	Register(Tool{
		Name: "task_open", Group: "task", NoIndex: true,
		Summary: "Open a task: budgets for mutations, test runs, whole-file reads and time on this connection; every later response's meta.task shows what is spent. Over-budget calls fail with TASK_BUDGET_EXCEEDED; repeated identical mutations or failures are flagged as no progress.",
		Doc: "A task groups the calls of one piece of work. Over MCP it belongs to the connection: every later call on it runs in the task until task_close. " +
			"Over REST there is no connection: send the returned task_id in the X-Cairn-Task header of each call that belongs to the task. " +
			"Budgets left out take the configured defaults (task.max_mutations, task.max_test_runs, task.max_read_kib, task.max_duration_s) and are capped (1000 mutations, 500 test runs, 64 MiB, 24 h). " +
			"A mutation is a call of an edit tool that may change files (dry runs and refactor plans are free); a test run is test_run, or a run recorded with task_status test_run; a whole-file read is read_file_full with confirm. " +
			"When a budget is spent, the calls it covers fail with TASK_BUDGET_EXCEEDED (exit 7) until the task is closed; other calls go on. " +
			"A mutation that leaves the files exactly as the previous one did, and the same failing tests after a mutation, are flagged in provenance warnings and counted as no_progress. " +
			"Tasks are recorded in the ledger; a server that stops or restarts closes its open tasks as interrupted.",
		When:     []string{"starting a change you want bounded and audited", "an agent loop that should stop when it stops making progress"},
		WhenNot:  []string{"reading and searching only: no task is needed", "resetting the whole-file read budget: reset_budget"},
		Examples: []string{`{}`, `{"max_mutations": 10, "max_test_runs": 5, "max_duration_s": 1800}`},
	}, taskOpen)
}

// monitor is the Monitor of a serving process, or why tasks are unavailable.
func (c *Call) monitor() (*obs.Monitor, error) {
	if c.Env.Ops == nil {
		return nil, &errs.Error{Kind: errs.Precondition, Msg: "tasks are kept by a running server; this process answers one command and exits",
			Fixes: []string{"connect through `cairn mcp` (stdio) or `cairn up` (HTTP)"}}
	}
	return c.Env.Ops, nil
}

// taskID is the task a call names: id, or when it is "" the task open on
// the call's connection (NOT_FOUND when none is).
func taskID(ctx context.Context, m *obs.Monitor, id string) (string, error) {
	if id != "" {
		return id, nil
	}
	t, err := m.CurrentTask(ctx)
	if err != nil {
		return "", err
	}
	if t == nil {
		return "", &errs.Error{Kind: errs.NotFound, Msg: "no task is open on this connection", Fixes: []string{"task_open"}}
	}
	return t.ID, nil
}

func taskOpen(ctx context.Context, c *Call, in TaskOpenIn) (*TaskOut, error) {
	m, err := c.monitor()
	if err != nil {
		return nil, err
	}
	if in.MaxMutations < 0 || in.MaxTestRuns < 0 || in.MaxReadBytes < 0 || in.MaxDurationS < 0 {
		return nil, errs.E(errs.InvalidArgument, "budgets must be positive; leave one out for the default")
	}
	def := m.Tasks().Defaults()
	bound := func(name string, requested, def int, b Budget) int {
		b.Default = min(def, b.Cap)
		return c.Bound(name, requested, b)
	}
	limits := task.Limits{
		MaxMutations: bound("max_mutations", in.MaxMutations, def.MaxMutations, mutationsBudget),
		MaxTestRuns:  bound("max_test_runs", in.MaxTestRuns, def.MaxTestRuns, testRunsBudget),
		MaxReadBytes: int64(bound("max_read_bytes", int(in.MaxReadBytes), int(def.MaxReadBytes), readBytesBudget)),
		MaxDurationS: bound("max_duration_s", in.MaxDurationS, def.MaxDurationS, durationBudget),
	}
	st := c.State()
	out, err := m.OpenTask(ctx, limits, st.Head, st.Epoch)
	if err != nil {
		return nil, err
	}
	c.ops.opened = out.TaskID
	c.Answer("opened %s: %d mutations, %d test runs, %d KiB of whole files, %s", out.TaskID, limits.MaxMutations, limits.MaxTestRuns,
		limits.MaxReadBytes>>10, fmtDuration(limits.MaxDurationS))
	if obs.ClientOf(ctx).Transport == "rest" {
		c.Warn("REST calls have no connection: send X-Cairn-Task: %s with each call of this task", out.TaskID)
	}
	c.Next("task_status", map[string]any{}, "see what the task has spent")
	c.Next("task_close", map[string]any{"outcome": "success"}, "close the task when the work is done")
	return &TaskOut{Task: out}, nil
}

func fmtDuration(s int) string {
	switch {
	case s%3600 == 0:
		return fmt.Sprintf("%d h", s/3600)
	case s%60 == 0:
		return fmt.Sprintf("%d min", s/60)
	}
	return fmt.Sprintf("%d s", s)
}
