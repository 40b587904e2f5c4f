package obs

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/lockfile"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/task"
)

// Options configure a Monitor.
type Options struct {
	// StateDir holds the ledger ("" keeps everything in memory).
	StateDir string
	// Ledger bounds what the ledger keeps.
	Ledger ledger.Options
	// TaskDefaults are the budgets of a task opened without them.
	TaskDefaults task.Limits
	// Logger receives one line per call (nil: discarded).
	Logger *slog.Logger
	// Anonymized keeps error messages (which may quote symbol names and
	// paths) out of the logs and the ledger.
	Anonymized bool
	// Version and Repo are shown on the dashboard.
	Version, Repo string
}

// Monitor watches every call of one server process.
type Monitor struct {
	opts    Options
	log     *slog.Logger
	ledger  *ledger.Ledger // nil when it could not be opened
	tasks   *task.Manager
	metrics *Metrics
	recent  *recent
	savings *savings
	started time.Time
	// oneShotSeen is the last ledger operation read into the repository's
	// totals: the one-shot calls after it are other processes' (savings.go).
	oneShotSeen int64

	mu         sync.Mutex // guards the probes and tool stats below
	probe      func() IndexInfo
	readBudget func() int64
	caches     func() []CacheStat
	tools      map[string]*toolStats
}

type toolStats struct{ calls, errors int64 }

// Open starts a Monitor: it opens the ledger (moving a damaged one aside),
// closes as interrupted the tasks that a dead server left open, and reads
// the repository's savings so far. Warnings say what went wrong; a Monitor
// is returned whatever happened to the ledger.
func Open(ctx context.Context, opts Options) (*Monitor, []string) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	m := &Monitor{opts: opts, log: log, recent: newRecent(recentOps, recentErrors), started: time.Now(), tools: map[string]*toolStats{}}
	var warnings []string
	var base ledger.Totals
	if opts.StateDir != "" {
		l, w, err := ledger.Open(ledger.Path(opts.StateDir), opts.Ledger)
		warnings = append(warnings, w...)
		if err != nil {
			warnings = append(warnings, "the ledger cannot be opened ("+err.Error()+"); operations are not recorded")
		} else {
			m.ledger = l
			if ids, err := l.InterruptOrphans(ctx, lockfile.Alive); err == nil && len(ids) > 0 {
				log.Info("tasks interrupted by the last stop", "tasks", ids)
			}
			base, _ = l.Totals(ctx)
			m.oneShotSeen, _ = l.LastID(ctx)
		}
	}
	for _, w := range warnings {
		log.Warn(w)
	}
	var store task.Store
	if m.ledger != nil {
		store = m.ledger
	}
	m.tasks = task.NewManager(task.Options{Store: store, Defaults: opts.TaskDefaults})
	m.savings = newSavings(base)
	m.metrics = newMetrics(m)
	return m, warnings
}

// Close interrupts the open tasks (the server stops: no task survives it)
// and writes what the ledger has queued.
func (m *Monitor) Close() {
	m.tasks.InterruptAll(context.Background(), "the server stopped")
	if m.ledger != nil {
		m.ledger.Close()
	}
}

// Tasks is the task manager.
func (m *Monitor) Tasks() *task.Manager { return m.tasks }

// Ledger is the ledger (nil when it could not be opened).
func (m *Monitor) Ledger() *ledger.Ledger { return m.ledger }

// Metrics are the Prometheus collectors.
func (m *Monitor) Metrics() *Metrics { return m.metrics }

// Logger is the structured logger calls are logged to.
func (m *Monitor) Logger() *slog.Logger { return m.log }

// SetIndexProbe tells the Monitor how to read the index's state (at scrape
// and dashboard time).
func (m *Monitor) SetIndexProbe(f func() IndexInfo) {
	m.mu.Lock()
	m.probe = f
	m.mu.Unlock()
}

// SetReadBudget tells the Monitor how to read the session read budget's use.
func (m *Monitor) SetReadBudget(f func() int64) {
	m.mu.Lock()
	m.readBudget = f
	m.mu.Unlock()
}

func (m *Monitor) indexInfo() (IndexInfo, bool) {
	m.mu.Lock()
	f := m.probe
	m.mu.Unlock()
	if f == nil {
		return IndexInfo{}, false
	}
	return f(), true
}

// ObserveReconcile records how long bringing the index up to date took.
func (m *Monitor) ObserveReconcile(kind string, d time.Duration) {
	m.metrics.reconcile.WithLabelValues(kind).Observe(d.Seconds())
}

// budgetNames are the budgets in the order metrics list them.
var budgetNames = []string{task.BudgetMutations, task.BudgetTestRuns, task.BudgetReads, task.BudgetDuration}

// budgetUse is the number of open tasks and, per budget, the largest share
// an open task has spent.
func (m *Monitor) budgetUse() (int, map[string]float64) {
	use := map[string]float64{}
	open := 0
	for _, st := range m.tasks.List() {
		if st.State != ledger.StateOpen {
			continue
		}
		open++
		ratio := func(used, limit float64) float64 {
			if limit <= 0 {
				return 0
			}
			return min(used/limit, 1)
		}
		for b, r := range map[string]float64{
			task.BudgetMutations: ratio(float64(st.Counters.Mutations), float64(st.Limits.MaxMutations)),
			task.BudgetTestRuns:  ratio(float64(st.Counters.TestRuns), float64(st.Limits.MaxTestRuns)),
			task.BudgetReads:     ratio(float64(st.Counters.ReadBytes), float64(st.Limits.MaxReadBytes)),
			task.BudgetDuration:  ratio(float64(st.ElapsedS), float64(st.Limits.MaxDurationS)),
		} {
			use[b] = max(use[b], r)
		}
	}
	return open, use
}

// OpenTask opens a task for the caller of ctx.
func (m *Monitor) OpenTask(ctx context.Context, limits task.Limits, head string, epoch int64) (task.Status, error) {
	c := ClientOf(ctx)
	session := ""
	if c.Session {
		session = c.ID
	}
	st, err := m.tasks.Open(ctx, session, clientLabel(c), limits, head, epoch)
	if err == nil {
		m.metrics.tasksOpened.Inc()
		m.log.Info("task opened", "task_id", st.TaskID, "client", c.ID)
	}
	return st, err
}

// CloseTask closes a task.
func (m *Monitor) CloseTask(ctx context.Context, id string, failed bool, reason string) (task.Status, error) {
	st, err := m.tasks.Close(ctx, id, failed, reason)
	if err == nil {
		m.metrics.tasksClosed.WithLabelValues(st.State).Inc()
		m.log.Info("task closed", "task_id", st.TaskID, "state", st.State)
	}
	return st, err
}

// SessionEnded closes the task open on a connection that went away.
func (m *Monitor) SessionEnded(ctx context.Context, session string) {
	if t, _ := m.tasks.Current(session, ""); t != nil {
		m.tasks.Interrupt(ctx, session, "the client disconnected")
		m.metrics.tasksClosed.WithLabelValues(ledger.StateInterrupted).Inc()
		m.log.Info("task interrupted", "task_id", t.ID, "reason", "the client disconnected")
	}
}

// CurrentTask is the task the caller of ctx is in (nil when none).
func (m *Monitor) CurrentTask(ctx context.Context) (*task.Task, error) {
	c := ClientOf(ctx)
	session := ""
	if c.Session {
		session = c.ID
	}
	return m.tasks.Current(session, TaskOf(ctx))
}

func clientLabel(c Client) string {
	if c.Name != "" {
		return c.Name + " (" + c.ID + ")"
	}
	return c.ID
}

// TaskMeta is the meta form of a task's status.
func TaskMeta(st task.Status) *protocol.TaskMeta {
	return &protocol.TaskMeta{State: st.State, Mutations: st.Counters.Mutations, MaxMutations: st.Limits.MaxMutations,
		TestRuns: st.Counters.TestRuns, MaxTestRuns: st.Limits.MaxTestRuns, ReadBytes: st.Counters.ReadBytes,
		MaxReadBytes: st.Limits.MaxReadBytes, ElapsedS: st.ElapsedS, MaxDurationS: st.Limits.MaxDurationS,
		NoProgress: st.Counters.NoProgress, Refused: st.Counters.Refused}
}
