// Package task keeps task envelopes: a client opens a task with budgets for
// mutations, test runs, whole-file reads and time; every call made in it is
// counted, and a call the budget no longer covers is refused. Mutations and
// test failures are fingerprinted so that a client repeating itself is
// flagged as making no progress. The package decides nothing for the client:
// it counts, compares and refuses. Task rows go to the ledger as they change,
// so a task left open by a server that died is closed as interrupted by the
// next one.
package task

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/cairnhq/cairn/internal/bug"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/ledger"
)

// Limits are a task's budgets; 0 means the default.
type Limits struct {
	MaxMutations int   `json:"max_mutations"`
	MaxTestRuns  int   `json:"max_test_runs"`
	MaxReadBytes int64 `json:"max_read_bytes"`
	MaxDurationS int   `json:"max_duration_s"`
}

// Counters are what a task has spent and seen so far.
type Counters struct {
	Calls      int   `json:"calls"`
	Failures   int   `json:"failures"` // calls that returned an error
	Mutations  int   `json:"mutations"`
	TestRuns   int   `json:"test_runs"`
	ReadBytes  int64 `json:"read_bytes"`
	NoProgress int   `json:"no_progress"`
	Refused    int   `json:"refused"`
	// TokensSaved sums meta.tokens_saved over the task's calls.
	TokensSaved int64 `json:"tokens_saved"`
}

// Budget names, as limit_triggered and error details spell them.
const (
	BudgetMutations = "max_mutations"
	BudgetTestRuns  = "max_test_runs"
	BudgetReads     = "max_read_bytes"
	BudgetDuration  = "max_duration_s"
)

// No-progress reasons.
const (
	RepeatedMutation = "repeated_mutation" // the same delta as the mutation before
	RepeatedFailure  = "repeated_failure"  // the same failures after a mutation
)

// Task is one task envelope. Its fields are guarded by the Manager's mutex.
type Task struct {
	ID       string
	Session  string // the connection that opened it ("" for REST)
	Client   string
	State    string // ledger.State*
	Opened   time.Time
	Closed   time.Time
	Head     string
	Epoch    int64
	Limits   Limits
	Counters Counters
	LastMut  string // last mutation fingerprint
	LastFail string // last failure fingerprint
	// mutatedSinceRun is set by a mutation and cleared by a test run: a
	// failure repeated after a mutation means the mutation did not help.
	mutatedSinceRun bool
	LimitHit        string // the last budget that refused a call
	CloseReason     string
}

// Status is a copy of a task for responses.
type Status struct {
	TaskID      string    `json:"task_id"`
	State       string    `json:"state"`
	Client      string    `json:"client,omitempty"`
	OpenedAt    time.Time `json:"opened_at"`
	ClosedAt    time.Time `json:"closed_at,omitzero"`
	ElapsedS    int64     `json:"elapsed_s"`
	Head        string    `json:"head,omitempty"`
	Epoch       int64     `json:"epoch"`
	Limits      Limits    `json:"limits"`
	Counters    Counters  `json:"counters"`
	Remaining   Limits    `json:"remaining"`
	LastMutFP   string    `json:"last_mutation_fingerprint,omitempty"`
	LastFailFP  string    `json:"last_failure_fingerprint,omitempty"`
	LimitHit    string    `json:"limit_triggered,omitempty"`
	CloseReason string    `json:"close_reason,omitempty"`
}

// Store keeps task rows (the ledger); nil keeps them in memory only.
type Store interface {
	PutTask(ctx context.Context, t ledger.Task) error
}

// Manager holds the tasks of one server process.
type Manager struct {
	store    Store
	defaults Limits
	now      func() time.Time

	mu       sync.Mutex       // guards the maps and every Task's fields
	tasks    map[string]*Task // by id, open and closed (closed ones are pruned to keepClosed)
	sessions map[string]string
	closed   []string // ids of closed tasks, oldest first
}

// keepClosed is how many closed tasks stay in memory for task_status; older
// ones are read from the ledger.
const keepClosed = 100

// Options configure a Manager.
type Options struct {
	Store    Store
	Defaults Limits
	Now      func() time.Time
}

// NewManager makes a Manager.
func NewManager(opts Options) *Manager {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Manager{store: opts.Store, defaults: opts.Defaults, now: opts.Now, tasks: map[string]*Task{}, sessions: map[string]string{}}
}

// Defaults are the limits of a task opened without any.
func (m *Manager) Defaults() Limits { return m.defaults }

func newID() string {
	var b [6]byte
	rand.Read(b[:])
	return "task_" + hex.EncodeToString(b[:])
}

// Open starts a task for a session (a connection; "" for a client without
// one, which then names the task on every call). A session has one open
// task at a time.
func (m *Manager) Open(ctx context.Context, session, client string, limits Limits, head string, epoch int64) (Status, error) {
	m.mu.Lock()
	if id, ok := m.sessions[session]; ok && session != "" {
		m.mu.Unlock()
		return Status{}, &errs.Error{Kind: errs.Precondition, Msg: fmt.Sprintf("task %s is still open on this connection", id),
			Details: map[string]any{"task_id": id}, Fixes: []string{"task_close, then task_open"}}
	}
	t := &Task{ID: newID(), Session: session, Client: client, State: ledger.StateOpen, Opened: m.now().UTC(), Head: head, Epoch: epoch,
		Limits: limits}
	m.tasks[t.ID] = t
	if session != "" {
		m.sessions[session] = t.ID
	}
	return m.unlockAndPut(ctx, t), nil
}

// Current is the task a call runs in: the one named (explicit, e.g. a REST
// header) or else the one open on the call's session. A named task that is
// unknown or closed is an error: the client thinks it is in a task and is
// not.
func (m *Manager) Current(session, named string) (*Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if named != "" {
		t, ok := m.tasks[named]
		switch {
		case !ok:
			return nil, &errs.Error{Kind: errs.NotFound, Msg: "no open task " + named + " in this server",
				Details: map[string]any{"task_id": named}, Fixes: []string{"task_open to start a new task"}}
		case t.State != ledger.StateOpen:
			return nil, &errs.Error{Kind: errs.Precondition, Msg: fmt.Sprintf("task %s is %s", named, t.State),
				Details: map[string]any{"task_id": named, "state": t.State}, Fixes: []string{"task_open to start a new task"}}
		}
		return t, nil
	}
	if id, ok := m.sessions[session]; ok && session != "" {
		return m.tasks[id], nil
	}
	return nil, nil
}

// Lookup finds a task this process knows (open or recently closed).
func (m *Manager) Lookup(id string) (Status, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok {
		return Status{}, false
	}
	return m.statusLocked(t), true
}

// Status is a copy of the task.
func (m *Manager) Status(t *Task) Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.statusLocked(t)
}

// List is every task in memory, open ones first, newest first.
func (m *Manager) List() []Status {
	m.mu.Lock()
	out := make([]Status, 0, len(m.tasks))
	for _, t := range m.tasks {
		out = append(out, m.statusLocked(t))
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		oi, oj := out[i].State == ledger.StateOpen, out[j].State == ledger.StateOpen
		if oi != oj {
			return oi
		}
		if !out[i].OpenedAt.Equal(out[j].OpenedAt) {
			return out[i].OpenedAt.After(out[j].OpenedAt)
		}
		return out[i].TaskID < out[j].TaskID
	})
	return out
}

// OpenCount is the number of open tasks.
func (m *Manager) OpenCount() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, t := range m.tasks {
		if t.State == ledger.StateOpen {
			n++
		}
	}
	return n
}

// Close ends a task with an outcome (success or failed).
func (m *Manager) Close(ctx context.Context, id string, failed bool, reason string) (Status, error) {
	state := ledger.StateSuccess
	if failed {
		state = ledger.StateFailed
	}
	m.mu.Lock()
	t, ok := m.tasks[id]
	if !ok || t.State != ledger.StateOpen {
		m.mu.Unlock()
		if !ok {
			return Status{}, &errs.Error{Kind: errs.NotFound, Msg: "no open task " + id + " in this server", Details: map[string]any{"task_id": id}}
		}
		return Status{}, &errs.Error{Kind: errs.Precondition, Msg: fmt.Sprintf("task %s is already %s", id, t.State),
			Details: map[string]any{"task_id": id, "state": t.State}}
	}
	m.closeLocked(t, state, reason)
	return m.unlockAndPut(ctx, t), nil
}

// Interrupt closes every task open on a session that ended (the client
// disconnected) as interrupted.
func (m *Manager) Interrupt(ctx context.Context, session, reason string) {
	m.mu.Lock()
	id, ok := m.sessions[session]
	if !ok {
		m.mu.Unlock()
		return
	}
	t := m.tasks[id]
	m.closeLocked(t, ledger.StateInterrupted, reason)
	row := m.rowLocked(t)
	m.mu.Unlock()
	m.put(ctx, row)
}

// InterruptAll closes every open task as interrupted (the server stops).
func (m *Manager) InterruptAll(ctx context.Context, reason string) {
	m.mu.Lock()
	var rows []ledger.Task
	for _, t := range m.tasks {
		if t.State == ledger.StateOpen {
			m.closeLocked(t, ledger.StateInterrupted, reason)
			rows = append(rows, m.rowLocked(t))
		}
	}
	m.mu.Unlock()
	for _, r := range rows {
		m.put(ctx, r)
	}
}

func (m *Manager) closeLocked(t *Task, state, reason string) {
	t.State, t.Closed, t.CloseReason = state, m.now().UTC(), reason
	if m.sessions[t.Session] == t.ID {
		delete(m.sessions, t.Session)
	}
	m.closed = append(m.closed, t.ID)
	for len(m.closed) > keepClosed {
		delete(m.tasks, m.closed[0])
		m.closed = m.closed[1:]
	}
}

// unlockAndPut takes t's row and status under m.mu, which the caller holds,
// releases the lock and then writes the row, so that the ledger write runs
// outside the lock; it returns the status.
func (m *Manager) unlockAndPut(ctx context.Context, t *Task) Status {
	row, st := m.rowLocked(t), m.statusLocked(t)
	m.mu.Unlock()
	m.put(ctx, row)
	return st
}

func (m *Manager) put(ctx context.Context, row ledger.Task) {
	if m.store != nil {
		m.store.PutTask(context.WithoutCancel(ctx), row) // a full disk must not fail the call
	}
}

func (m *Manager) rowLocked(t *Task) ledger.Task {
	limits, _ := json.Marshal(t.Limits)
	counters, _ := json.Marshal(t.Counters)
	return ledger.Task{ID: t.ID, Opened: t.Opened, Closed: t.Closed, State: t.State, Client: t.Client, PID: os.Getpid(),
		Head: t.Head, Epoch: t.Epoch, Limits: limits, Counters: counters, LastMutFP: t.LastMut, LastFailFP: t.LastFail,
		CloseReason: t.CloseReason}
}

func (m *Manager) statusLocked(t *Task) Status {
	end := m.now()
	if !t.Closed.IsZero() {
		end = t.Closed
	}
	return Status{TaskID: t.ID, State: t.State, Client: t.Client, OpenedAt: t.Opened, ClosedAt: t.Closed,
		ElapsedS: int64(end.Sub(t.Opened).Seconds()), Head: t.Head, Epoch: t.Epoch, Limits: t.Limits, Counters: t.Counters,
		Remaining: Limits{
			MaxMutations: max(t.Limits.MaxMutations-t.Counters.Mutations, 0),
			MaxTestRuns:  max(t.Limits.MaxTestRuns-t.Counters.TestRuns, 0),
			MaxReadBytes: max(t.Limits.MaxReadBytes-t.Counters.ReadBytes, 0),
			MaxDurationS: max(t.Limits.MaxDurationS-int(end.Sub(t.Opened).Seconds()), 0),
		},
		LastMutFP: t.LastMut, LastFailFP: t.LastFail, LimitHit: t.LimitHit, CloseReason: t.CloseReason}
}

// StatusFromRow turns a ledger row (a task of an earlier server) into a Status.
func StatusFromRow(r ledger.Task) Status {
	st := Status{TaskID: r.ID, State: r.State, Client: r.Client, OpenedAt: r.Opened, ClosedAt: r.Closed, Head: r.Head, Epoch: r.Epoch,
		LastMutFP: r.LastMutFP, LastFailFP: r.LastFailFP, CloseReason: r.CloseReason}
	bug.Unmarshal(r.Limits, &st.Limits, "task %s: limits", r.ID) // written by PutTask
	bug.Unmarshal(r.Counters, &st.Counters, "task %s: counters", r.ID)
	if !r.Closed.IsZero() {
		st.ElapsedS = int64(r.Closed.Sub(r.Opened).Seconds())
	}
	return st
}
