package obs

import "github.com/prometheus/client_golang/prometheus"

// CacheStat counts the requests of one cache of the query engines: served
// from the cache (hits) or computed (misses).
type CacheStat struct {
	Name   string `json:"cache"`
	Hits   int64  `json:"hits"`
	Misses int64  `json:"misses"`
	// Updates are the misses of a view kept per index version that were
	// served by updating the previous version's view with what changed
	// (the others were built from nothing).
	Updates int64 `json:"updates,omitempty"`
}

// HitRatio is the share of requests the cache served (0 before any).
func (c CacheStat) HitRatio() float64 {
	if n := c.Hits + c.Misses; n > 0 {
		return float64(c.Hits) / float64(n)
	}
	return 0
}

// CacheView is a cache on the dashboard.
type CacheView struct {
	CacheStat
	HitRatio float64 `json:"hit_ratio"`
}

var (
	descCacheRequests = prometheus.NewDesc("cairn_cache_requests_total",
		"Requests of the query caches (views kept per index version), by cache and result (hit or miss).", []string{"cache", "result"}, nil)
	descCacheUpdates = prometheus.NewDesc("cairn_cache_updates_total",
		"Misses of a view kept per index version that were served by updating the previous version's view with the files that changed, not built again.", []string{"cache"}, nil)
	descCacheRatio = prometheus.NewDesc("cairn_cache_hit_ratio",
		"Share of a query cache's requests it served since the process started (0 to 1).", []string{"cache"}, nil)
)

// SetCacheProbe tells the Monitor how to read the caches' counts (at
// scrape and dashboard time).
func (m *Monitor) SetCacheProbe(f func() []CacheStat) {
	m.mu.Lock()
	m.caches = f
	m.mu.Unlock()
}

func (m *Monitor) cacheStats() []CacheStat {
	m.mu.Lock()
	f := m.caches
	m.mu.Unlock()
	if f == nil {
		return nil
	}
	return f()
}

// cacheViews are the caches' counts with their hit ratios.
func (m *Monitor) cacheViews() []CacheView {
	out := []CacheView{}
	for _, c := range m.cacheStats() {
		out = append(out, CacheView{CacheStat: c, HitRatio: c.HitRatio()})
	}
	return out
}

func collectCaches(m *Monitor, ch chan<- prometheus.Metric) {
	for _, c := range m.cacheStats() {
		ch <- prometheus.MustNewConstMetric(descCacheRequests, prometheus.CounterValue, float64(c.Hits), c.Name, "hit")
		ch <- prometheus.MustNewConstMetric(descCacheRequests, prometheus.CounterValue, float64(c.Misses), c.Name, "miss")
		ch <- prometheus.MustNewConstMetric(descCacheRatio, prometheus.GaugeValue, c.HitRatio(), c.Name)
		if c.Updates > 0 {
			ch <- prometheus.MustNewConstMetric(descCacheUpdates, prometheus.CounterValue, float64(c.Updates), c.Name)
		}
	}
}
