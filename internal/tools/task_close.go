package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
)

// TaskCloseIn are the arguments of task_close.
type TaskCloseIn struct {
	TaskID  string `json:"task_id,omitempty" jsonschema:"the task (default: the one open on this connection or named by X-Cairn-Task)"`
	Outcome string `json:"outcome,omitempty" jsonschema:"success (default) or failed"`
	Base
}

func init() {
	Register(Tool{
		Name: "task_close", Group: "task", NoIndex: true,
		Summary: "Close the current task as success or failed; returns its final counters. Later calls on the connection run outside any task until task_open.",
		Doc: "The task's row in the ledger gets its final state and counters. Closing is the only way out of a task whose budget is spent. " +
			"outcome is the client's own judgement: Cairn does not infer success.",
		When:     []string{"the work of the task is done, or abandoned"},
		WhenNot:  []string{"checking what is left: task_status"},
		Examples: []string{`{}`, `{"outcome": "failed"}`},
	}, taskClose)
}

func taskClose(ctx context.Context, c *Call, in TaskCloseIn) (*TaskOut, error) {
	m, err := c.monitor()
	if err != nil {
		return nil, err
	}
	if in.Outcome != "" && in.Outcome != "success" && in.Outcome != "failed" {
		return nil, errs.E(errs.InvalidArgument, "outcome must be success or failed, not %q", errs.Abbrev(in.Outcome))
	}
	id, err := taskID(ctx, m, in.TaskID)
	if err != nil {
		return nil, err
	}
	st, err := m.CloseTask(ctx, id, in.Outcome == "failed", "closed by the client")
	if err != nil {
		return nil, err
	}
	c.Answer("closed %s as %s after %d s: %d mutations, %d test runs, %d no-progress, %d tokens saved", st.TaskID, st.State, st.ElapsedS,
		st.Counters.Mutations, st.Counters.TestRuns, st.Counters.NoProgress, st.Counters.TokensSaved)
	return &TaskOut{Task: st}, nil
}
