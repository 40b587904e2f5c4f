package service

import (
	"context"
	"time"

	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/task"
)

// startOps gives a serving process its Monitor: the ledger in the state
// dir (tasks a dead server left open are closed as interrupted), task
// budgets from the configuration, metrics that read the index. Its
// warnings (a damaged ledger moved aside) reach the next response.
func (s *Service) startOps(ctx context.Context) {
	cfg := s.cfg
	m, warnings := obs.Open(ctx, obs.Options{
		StateDir: s.paths.StateDir,
		Ledger: ledger.Options{MaxAge: time.Duration(cfg.Ledger.RetentionDays) * 24 * time.Hour, MaxTasks: cfg.Ledger.MaxTasks,
			MaxOperations: cfg.Ledger.MaxOperations},
		TaskDefaults: task.Limits{MaxMutations: cfg.Task.MaxMutations, MaxTestRuns: cfg.Task.MaxTestRuns,
			MaxReadBytes: int64(cfg.Task.MaxReadKiB) << 10, MaxDurationS: cfg.Task.MaxDurationS},
		Logger:     s.opts.Logger,
		Anonymized: cfg.Privacy == "anonymized",
		Version:    s.opts.Version,
		Repo:       s.paths.Root,
	})
	for _, w := range warnings {
		s.addWarning(w)
	}
	m.SetIndexProbe(s.indexInfo)
	reads := s.env.Reads
	m.SetReadBudget(reads.Used)
	m.SetCacheProbe(s.cacheStats)
	s.ops = m
	s.env.Ops = m
}

// cacheStats are a server's caches with their counts: the answer caches,
// then the views of change analysis (nil for a one-shot command).
func (s *Service) cacheStats() []obs.CacheStat {
	if !s.opts.Serve {
		return nil
	}
	var out []obs.CacheStat
	for _, c := range s.env.Answers.Stats() {
		out = append(out, obs.CacheStat{Name: c.Name, Hits: c.Hits, Misses: c.Misses})
	}
	for _, c := range s.env.Changes.Stats() {
		out = append(out, obs.CacheStat{Name: c.Name, Hits: c.Hits, Misses: c.Misses, Updates: c.Updates})
	}
	return out
}

// caches are the counts of the caches of this process when it serves, or
// else of the server that owns the index (nil when none does).
func (s *Service) caches(ctx context.Context) []obs.CacheStat {
	if s.opts.Serve {
		return s.cacheStats()
	}
	if s.ix.Writable() {
		return nil // this command owns the index: no server runs
	}
	reply, err := askOwner(ctx, s.paths.StateDir, ownerRequest{Op: "caches"}, time.Second)
	if err != nil {
		return nil
	}
	return reply.Caches
}

// Monitor is the serving process's Monitor (nil for one-shot commands).
func (s *Service) Monitor() *obs.Monitor { return s.ops }

// probeWait bounds the metrics' read of the index state. The read needs one
// of the store's few pooled connections, which concurrent requests' snapshots
// may all hold: a scrape must not wait for them.
const probeWait = 500 * time.Millisecond

// indexInfo is the index as the metrics and the dashboard show it. When the
// state cannot be read within probeWait, the epoch and file count are those
// the last scrape read.
func (s *Service) indexInfo() obs.IndexInfo {
	state, reason := s.State()
	info := obs.IndexInfo{State: state, Reason: reason}
	ctx, cancel := context.WithTimeout(context.Background(), probeWait)
	st, err := s.ix.State(ctx)
	cancel()
	if err == nil {
		info.Epoch, info.Files = st.Epoch, st.Files
		info.IndexedAt, _ = time.Parse(time.RFC3339, st.IndexedAt)
		s.lastInfo.Store(&info)
	} else if last := s.lastInfo.Load(); last != nil {
		info.Epoch, info.Files, info.IndexedAt = last.Epoch, last.Files, last.IndexedAt
	}
	if w := s.watcher(); w != nil {
		info.Lag = max(w.seen.Load()-w.indexed.Load(), 0)
	}
	return info
}

// observeReconcile records the duration of a reconcile (full: a scan of the
// tree; paths: the files a watcher or a write named).
func (s *Service) observeReconcile(kind string, start time.Time) {
	if s.ops != nil {
		s.ops.ObserveReconcile(kind, time.Since(start))
	}
}
