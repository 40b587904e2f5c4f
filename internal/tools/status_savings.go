package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/obs"
)

// SavingsStatus is status's part on tokens saved: the repository's totals
// over the operations the ledger keeps, and for a server, its own totals,
// per client connection and per task.
type SavingsStatus struct {
	Repository obs.Totals         `json:"repository"`
	Process    *obs.Totals        `json:"process,omitempty"`
	Clients    []obs.ClientTotals `json:"clients,omitempty"`
	Tasks      []obs.TaskTotals   `json:"tasks,omitempty"`
	OpenTasks  int                `json:"open_tasks"`
}

// savingsStatus reads the totals from the Monitor of a server, or from the
// ledger a server left in the state dir (nil when there is neither).
func (c *Call) savingsStatus(ctx context.Context) *SavingsStatus {
	if m := c.Env.Ops; m != nil {
		s := m.Savings()
		return &SavingsStatus{Repository: s.Repository, Process: &s.Process, Clients: s.Clients, Tasks: s.Tasks, OpenTasks: m.Tasks().OpenCount()}
	}
	t, err := ledger.ReadTotals(ctx, ledger.Path(c.Env.Paths.StateDir))
	if err != nil || t.Operations == 0 {
		return nil
	}
	return &SavingsStatus{Repository: obs.Totals{Calls: t.Operations, Tokens: t.Tokens, TokensSaved: t.TokensSaved}}
}
