package obs

import (
	"os"
	"sort"
	"time"

	"github.com/cairnhq/cairn/internal/task"
)

// ToolView is one tool's line on the dashboard: all-time counts of this
// process (the same numbers as cairn_tool_calls_total) and the latency of
// its recent calls.
type ToolView struct {
	Tool   string  `json:"tool"`
	Calls  int64   `json:"calls"`
	Errors int64   `json:"errors"`
	P50MS  float64 `json:"p50_ms"`
	P95MS  float64 `json:"p95_ms"`
}

// IndexView is the index on the dashboard.
type IndexView struct {
	State     string    `json:"state"`
	Reason    string    `json:"reason,omitempty"`
	Epoch     int64     `json:"epoch"`
	Lag       int64     `json:"epoch_lag"`
	IndexedAt time.Time `json:"indexed_at,omitzero"`
	AgeS      float64   `json:"age_s"`
	Files     int       `json:"files"`
}

// Dashboard is what /api/v1/dashboard returns: one read of everything the
// dashboard page shows.
type Dashboard struct {
	GeneratedAt time.Time     `json:"generated_at"`
	Server      ServerView    `json:"server"`
	Index       IndexView     `json:"index"`
	Totals      Totals        `json:"totals"`
	Errors      int64         `json:"errors"`
	Tools       []ToolView    `json:"tools"`
	Tasks       []task.Status `json:"tasks"`
	Savings     Savings       `json:"savings"`
	Caches      []CacheView   `json:"caches"`
	// Operations are the recent operations that match the filter, newest
	// first; Matched counts them all (Operations is cut at the limit).
	Operations []OpView `json:"operations"`
	Matched    int      `json:"matched"`
	Filter     OpFilter `json:"filter"`
	// RecentErrors are the latest failed calls, whatever the filter.
	RecentErrors []OpView `json:"recent_errors"`
	// Status is the status tool's payload (freshness, semantic layer and
	// jobs), filled in by the HTTP adapter.
	Status any `json:"status,omitempty"`
}

// ServerView describes the process.
type ServerView struct {
	PID       int       `json:"pid"`
	Version   string    `json:"version"`
	Repo      string    `json:"repo"`
	StartedAt time.Time `json:"started_at"`
	UptimeS   float64   `json:"uptime_s"`
	Ledger    string    `json:"ledger,omitempty"`
}

// Dashboard reads everything the dashboard shows, with the operations
// filtered by f.
func (m *Monitor) Dashboard(f OpFilter) Dashboard {
	if f.Limit <= 0 || f.Limit > 500 {
		f.Limit = 100
	}
	d := Dashboard{GeneratedAt: time.Now().UTC(), Filter: f,
		Server: ServerView{PID: os.Getpid(), Version: m.opts.Version, Repo: m.opts.Repo, StartedAt: m.started.UTC(),
			UptimeS: time.Since(m.started).Seconds()}}
	if m.ledger != nil {
		d.Server.Ledger = m.ledger.Path()
	}
	if info, ok := m.indexInfo(); ok {
		d.Index = IndexView{State: info.State, Reason: info.Reason, Epoch: info.Epoch, Lag: info.Lag, IndexedAt: info.IndexedAt, Files: info.Files}
		if !info.IndexedAt.IsZero() {
			d.Index.AgeS = time.Since(info.IndexedAt).Seconds()
		}
	}
	lat := m.recent.latency()
	m.mu.Lock()
	for name, ts := range m.tools {
		d.Tools = append(d.Tools, ToolView{Tool: name, Calls: ts.calls, Errors: ts.errors, P50MS: lat[name][0], P95MS: lat[name][1]})
		d.Errors += ts.errors
	}
	m.mu.Unlock()
	sort.Slice(d.Tools, func(i, j int) bool { return d.Tools[i].Tool < d.Tools[j].Tool })
	if d.Tools == nil {
		d.Tools = []ToolView{}
	}
	d.Tasks = m.tasks.List()
	d.Savings = m.Savings()
	d.Caches = m.cacheViews()
	d.Totals = d.Savings.Process
	d.Operations, d.Matched = m.recent.query(f)
	d.RecentErrors = m.recent.errorsNewest(20)
	return d
}
