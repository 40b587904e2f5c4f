package obs

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/cairnhq/cairn/internal/ledger"
)

// Totals are running sums of calls and tokens.
type Totals struct {
	Calls       int64 `json:"calls"`
	Tokens      int64 `json:"tokens"`
	TokensSaved int64 `json:"tokens_saved"`
}

// ClientTotals are one client connection's running sums.
type ClientTotals struct {
	Client
	Totals
	First time.Time `json:"first"`
	Last  time.Time `json:"last"`
}

// TaskTotals are one task's savings.
type TaskTotals struct {
	TaskID      string `json:"task_id"`
	Calls       int64  `json:"calls"`
	TokensSaved int64  `json:"tokens_saved"`
}

// Savings are the running totals of tokens saved: for the repository (every
// operation the ledger holds, this process's included), for this process,
// per client connection and per task.
type Savings struct {
	Repository Totals         `json:"repository"`
	Process    Totals         `json:"process"`
	Clients    []ClientTotals `json:"clients"`
	Tasks      []TaskTotals   `json:"tasks"`
}

// savings accumulates the totals of this process.
type savings struct {
	mu      sync.Mutex // guards the fields below
	base    Totals     // the repository's totals when the process started, and one-shot calls since
	process Totals
	clients map[string]*ClientTotals
}

func newSavings(base ledger.Totals) *savings {
	return &savings{base: Totals{Calls: base.Operations, Tokens: base.Tokens, TokensSaved: base.TokensSaved},
		clients: map[string]*ClientTotals{}}
}

func (s *savings) add(c Client, tokens, saved int, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.process.Calls++
	s.process.Tokens += int64(tokens)
	s.process.TokensSaved += int64(saved)
	ct := s.clients[c.ID]
	if ct == nil {
		ct = &ClientTotals{Client: c, First: at}
		s.clients[c.ID] = ct
	}
	if c.Name != "" {
		ct.Name = c.Name
	}
	ct.Calls++
	ct.Tokens += int64(tokens)
	ct.TokensSaved += int64(saved)
	ct.Last = at
}

func (s *savings) snapshot() (repo, process Totals, clients []ClientTotals) {
	s.mu.Lock()
	defer s.mu.Unlock()
	process = s.process
	repo = Totals{Calls: s.base.Calls + process.Calls, Tokens: s.base.Tokens + process.Tokens, TokensSaved: s.base.TokensSaved + process.TokensSaved}
	clients = []ClientTotals{}
	for _, c := range s.clients {
		clients = append(clients, *c)
	}
	sort.Slice(clients, func(i, j int) bool {
		if clients[i].TokensSaved != clients[j].TokensSaved {
			return clients[i].TokensSaved > clients[j].TokensSaved
		}
		return clients[i].ID < clients[j].ID
	})
	return repo, process, clients
}

// Savings are the running totals now. The repository's count the one-shot
// CLI calls other processes recorded in the ledger since this one started.
func (m *Monitor) Savings() Savings {
	m.readOneShots()
	repo, process, clients := m.savings.snapshot()
	out := Savings{Repository: repo, Process: process, Clients: clients, Tasks: []TaskTotals{}}
	for _, st := range m.tasks.List() {
		out.Tasks = append(out.Tasks, TaskTotals{TaskID: st.TaskID, Calls: int64(st.Counters.Calls), TokensSaved: st.Counters.TokensSaved})
	}
	return out
}

// readOneShots adds to the repository's totals the one-shot calls the
// ledger holds that were recorded since the last read.
func (m *Monitor) readOneShots() {
	if m.ledger == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t, last, err := m.ledger.ClientTotals(context.Background(), OneShotClient, m.oneShotSeen)
	if err != nil {
		return
	}
	m.oneShotSeen = last
	if t.Operations == 0 {
		return
	}
	s := m.savings
	s.mu.Lock()
	s.base.Calls += t.Operations
	s.base.Tokens += t.Tokens
	s.base.TokensSaved += t.TokensSaved
	s.mu.Unlock()
}
