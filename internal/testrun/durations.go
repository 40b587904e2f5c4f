package testrun

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/cairnhq/cairn/internal/atomicfile"
)

// Durations remembers how long each target took in its last runs, so that
// batches are balanced by what targets really cost.
type Durations struct {
	path string
	mu   sync.Mutex         // guards runs
	runs map[string][]int64 // target id -> last durations in ms, oldest first
}

// keepRuns is how many durations per target are kept; the cost is their
// median, which one slow run does not move much.
const keepRuns = 5

// OpenDurations reads the history kept at path (a missing or unreadable
// file is an empty history).
func OpenDurations(path string) *Durations {
	d := &Durations{path: path, runs: map[string][]int64{}}
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &d.runs)
	}
	return d
}

// Cost is a target's median duration in seconds (1 when never run).
func (d *Durations) Cost(id string) float64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	rs := append([]int64(nil), d.runs[id]...)
	if len(rs) == 0 {
		return 1
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i] < rs[j] })
	return max(float64(rs[len(rs)/2])/1000, 0.001)
}

// Record adds a run's duration.
func (d *Durations) Record(id string, ms int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	rs := append(d.runs[id], ms)
	if len(rs) > keepRuns {
		rs = rs[len(rs)-keepRuns:]
	}
	d.runs[id] = rs
}

// Save writes the history (best effort: a history that cannot be kept
// only makes the next balance worse).
func (d *Durations) Save() {
	d.mu.Lock()
	b, err := json.Marshal(d.runs)
	d.mu.Unlock()
	if err != nil || d.path == "" {
		return
	}
	if os.MkdirAll(filepath.Dir(d.path), 0o755) != nil {
		return
	}
	atomicfile.Write(d.path, b, 0o644)
}
