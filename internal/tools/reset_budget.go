package tools

import "context"

// ResetBudgetIn are the arguments of reset_budget.
type ResetBudgetIn struct {
	Base
}

// ResetBudgetOut is reset_budget's payload.
type ResetBudgetOut struct {
	Before BudgetReport `json:"before"`
	After  BudgetReport `json:"after"`
}

func init() {
	Register(Tool{
		Name: "reset_budget", Group: "task", NoIndex: true,
		Summary: "Reset the session read budget that gates whole-file reads (read_file_full) when it is spent; returns the budget before and after. A task's own read budget is not reset.",
		Doc: "The session read budget (read.session_budget_kib, default 2 MiB) counts the bytes read_file_full has handed out in this server process, for every client. " +
			"Resetting it is a decision to read more whole files; reading spans with read_source costs nothing from it. " +
			"A task's max_read_bytes is part of the task and stays spent until the task is closed.",
		When:     []string{"read_file_full failed because the session read budget is spent and the whole file is really needed"},
		WhenNot:  []string{"reading part of a file: read_source"},
		Examples: []string{`{}`},
	}, resetBudget)
}

func resetBudget(ctx context.Context, c *Call, _ ResetBudgetIn) (*ResetBudgetOut, error) {
	b := c.Env.reads()
	out := &ResetBudgetOut{Before: b.Report()}
	b.Reset()
	out.After = b.Report()
	c.Answer("session read budget reset: %d of %d bytes had been used", out.Before.Used, out.Before.Limit)
	return out, nil
}
