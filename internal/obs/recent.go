package obs

import (
	"sort"
	"sync"
	"time"

	"github.com/cairnhq/cairn/internal/ledger"
)

// How many operations and errors the dashboard can show: the recent past of
// this process (the ledger keeps the longer history).
const (
	recentOps    = 5000
	recentErrors = 200
)

// OpView is an operation as the dashboard shows it.
type OpView struct {
	ledger.Operation
	DurationMS float64 `json:"duration_ms"`
	ClientName string  `json:"client_name,omitempty"`
}

// recent keeps the latest operations and errors in rings.
type recent struct {
	mu     sync.Mutex // guards the rings
	ops    ring
	errors ring
}

type ring struct {
	items []OpView
	next  int
	full  bool
}

func (r *ring) add(v OpView) {
	if r.full {
		r.items[r.next] = v
	} else {
		r.items = append(r.items, v)
	}
	r.next++
	if r.next == cap(r.items) {
		r.next, r.full = 0, true
	}
}

// newest lists the ring newest first.
func (r *ring) newest() []OpView {
	out := make([]OpView, 0, len(r.items))
	for i := 1; i <= len(r.items); i++ {
		out = append(out, r.items[(r.next-i+len(r.items))%len(r.items)])
	}
	return out
}

func newRecent(ops, errs int) *recent {
	return &recent{ops: ring{items: make([]OpView, 0, ops)}, errors: ring{items: make([]OpView, 0, errs)}}
}

func (r *recent) add(op ledger.Operation, c Client) {
	v := OpView{Operation: op, DurationMS: float64(op.Duration.Microseconds()) / 1000, ClientName: c.Name}
	r.mu.Lock()
	r.ops.add(v)
	if !op.Success {
		r.errors.add(v)
	}
	r.mu.Unlock()
}

// OpFilter selects recent operations.
type OpFilter struct {
	Task    string
	Tool    string
	Outcome string // ok, error, or an error code
	Since   time.Time
	Limit   int
}

func (f OpFilter) match(v OpView) bool {
	switch {
	case f.Task != "" && v.TaskID != f.Task,
		f.Tool != "" && v.Type != f.Tool,
		!f.Since.IsZero() && v.Time.Before(f.Since):
		return false
	case f.Outcome == "ok":
		return v.Success
	case f.Outcome == "error":
		return !v.Success
	case f.Outcome != "":
		return v.ErrorCode == f.Outcome
	}
	return true
}

// query lists the matching operations, newest first, and how many matched.
func (r *recent) query(f OpFilter) ([]OpView, int) {
	r.mu.Lock()
	all := r.ops.newest()
	r.mu.Unlock()
	out := []OpView{}
	n := 0
	for _, v := range all {
		if f.match(v) {
			n++
			if f.Limit <= 0 || len(out) < f.Limit {
				out = append(out, v)
			}
		}
	}
	return out, n
}

func (r *recent) errorsNewest(limit int) []OpView {
	r.mu.Lock()
	all := r.errors.newest()
	r.mu.Unlock()
	if len(all) > limit {
		all = all[:limit]
	}
	return all
}

// latency is the p50 and p95 of the recent durations of each tool, in ms.
func (r *recent) latency() map[string][2]float64 {
	r.mu.Lock()
	by := map[string][]float64{}
	for _, v := range r.ops.items {
		by[v.Type] = append(by[v.Type], v.DurationMS)
	}
	r.mu.Unlock()
	out := map[string][2]float64{}
	for tool, ds := range by {
		sort.Float64s(ds)
		out[tool] = [2]float64{quantile(ds, 0.5), quantile(ds, 0.95)}
	}
	return out
}

func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q * float64(len(sorted)-1))
	return sorted[i]
}
