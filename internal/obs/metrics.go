package obs

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// IndexInfo is the index as the metrics report it.
type IndexInfo struct {
	State  string // indexing, ready, stale, failed
	Reason string
	Epoch  int64
	// Lag counts file changes seen by the watcher that no committed epoch
	// covers yet.
	Lag       int64
	IndexedAt time.Time
	Files     int
}

// indexStates are the values of cairn_index_state's state label.
var indexStates = []string{"indexing", "ready", "stale", "failed"}

// latencyBuckets span a cached lookup (sub-millisecond) to a cold rebuild.
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 120}

// Metrics are the Prometheus collectors of one server process.
type Metrics struct {
	reg *prometheus.Registry

	calls       *prometheus.CounterVec   // tool, outcome
	latency     *prometheus.HistogramVec // tool
	tokens      prometheus.Counter
	saved       prometheus.Counter
	reconcile   *prometheus.HistogramVec // kind
	tasksOpened prometheus.Counter
	tasksClosed *prometheus.CounterVec // state
	refusals    *prometheus.CounterVec // budget
	noProgress  *prometheus.CounterVec // reason
	mutations   prometheus.Counter
	testRuns    prometheus.Counter
}

// newMetrics registers the collectors; m supplies the values read at scrape
// time (index state, open tasks, budget use).
func newMetrics(m *Monitor) *Metrics {
	reg := prometheus.NewRegistry()
	x := &Metrics{reg: reg,
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cairn_tool_calls_total",
			Help: "Tool calls answered, by tool and outcome (ok or the error code)."}, []string{"tool", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cairn_tool_duration_seconds",
			Help: "Time to answer a tool call, by tool.", Buckets: latencyBuckets}, []string{"tool"}),
		tokens: prometheus.NewCounter(prometheus.CounterOpts{Name: "cairn_tokens_returned_total",
			Help: "Estimated tokens of every response sent (meta.tokens)."}),
		saved: prometheus.NewCounter(prometheus.CounterOpts{Name: "cairn_tokens_saved_total",
			Help: "Estimated tokens the clients did not have to read (meta.tokens_saved)."}),
		reconcile: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "cairn_reconcile_duration_seconds",
			Help: "Time to bring the index up to date: full (scan of the tree) or paths (changed files).", Buckets: latencyBuckets}, []string{"kind"}),
		tasksOpened: prometheus.NewCounter(prometheus.CounterOpts{Name: "cairn_tasks_opened_total", Help: "Tasks opened."}),
		tasksClosed: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cairn_tasks_closed_total",
			Help: "Tasks closed, by final state."}, []string{"state"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cairn_task_budget_refusals_total",
			Help: "Calls refused because a task's budget was spent, by budget."}, []string{"budget"}),
		noProgress: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "cairn_task_no_progress_total",
			Help: "Calls flagged as making no progress, by reason."}, []string{"reason"}),
		mutations: prometheus.NewCounter(prometheus.CounterOpts{Name: "cairn_task_mutations_total", Help: "Mutations made inside tasks."}),
		testRuns:  prometheus.NewCounter(prometheus.CounterOpts{Name: "cairn_task_test_runs_total", Help: "Test runs made inside tasks."}),
	}
	reg.MustRegister(x.calls, x.latency, x.tokens, x.saved, x.reconcile, x.tasksOpened, x.tasksClosed, x.refusals, x.noProgress,
		x.mutations, x.testRuns,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		&scrapeCollector{m: m})
	return x
}

// Handler serves the metrics in the Prometheus text format.
func (x *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(x.reg, promhttp.HandlerOpts{})
}

// Registry is the registry the metrics are in (tests gather it).
func (x *Metrics) Registry() *prometheus.Registry { return x.reg }

// scrapeCollector reports what is read when scraped rather than counted as
// it happens: the index, the open tasks and their budget use, the ledger.
type scrapeCollector struct{ m *Monitor }

var (
	descIndexState = prometheus.NewDesc("cairn_index_state", "1 for the index's current state.", []string{"state"}, nil)
	descEpoch      = prometheus.NewDesc("cairn_index_epoch", "The index's epoch (one per committed batch of changes).", nil, nil)
	descLag        = prometheus.NewDesc("cairn_index_epoch_lag", "File changes seen that no committed epoch covers yet.", nil, nil)
	descAge        = prometheus.NewDesc("cairn_index_age_seconds", "Seconds since the index last committed an epoch.", nil, nil)
	descFiles      = prometheus.NewDesc("cairn_index_files", "Files in the index.", nil, nil)
	descTasksOpen  = prometheus.NewDesc("cairn_tasks_open", "Tasks open now.", nil, nil)
	descBudgetUse  = prometheus.NewDesc("cairn_task_budget_used_ratio", "Highest share of a budget spent by an open task (0 to 1).", []string{"budget"}, nil)
	descDropped    = prometheus.NewDesc("cairn_ledger_dropped_total", "Operations the ledger's writer could not keep up with.", nil, nil)
	descReadBudget = prometheus.NewDesc("cairn_read_budget_used_bytes", "Bytes of whole files handed out from the session read budget.", nil, nil)
)

func (c *scrapeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descIndexState, descEpoch, descLag, descAge, descFiles, descTasksOpen, descBudgetUse, descDropped, descReadBudget} {
		ch <- d
	}
}

func (c *scrapeCollector) Collect(ch chan<- prometheus.Metric) {
	m := c.m
	if info, ok := m.indexInfo(); ok {
		for _, s := range indexStates {
			v := 0.0
			if s == info.State {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(descIndexState, prometheus.GaugeValue, v, s)
		}
		ch <- prometheus.MustNewConstMetric(descEpoch, prometheus.GaugeValue, float64(info.Epoch))
		ch <- prometheus.MustNewConstMetric(descLag, prometheus.GaugeValue, float64(info.Lag))
		if !info.IndexedAt.IsZero() {
			ch <- prometheus.MustNewConstMetric(descAge, prometheus.GaugeValue, time.Since(info.IndexedAt).Seconds())
		}
		ch <- prometheus.MustNewConstMetric(descFiles, prometheus.GaugeValue, float64(info.Files))
	}
	open, use := m.budgetUse()
	ch <- prometheus.MustNewConstMetric(descTasksOpen, prometheus.GaugeValue, float64(open))
	for _, b := range budgetNames {
		ch <- prometheus.MustNewConstMetric(descBudgetUse, prometheus.GaugeValue, use[b], b)
	}
	if m.ledger != nil {
		ch <- prometheus.MustNewConstMetric(descDropped, prometheus.CounterValue, float64(m.ledger.Dropped()))
	}
	if m.readBudget != nil {
		ch <- prometheus.MustNewConstMetric(descReadBudget, prometheus.GaugeValue, float64(m.readBudget()))
	}
}
