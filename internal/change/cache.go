package change

import (
	"sync"
	"sync/atomic"

	"github.com/cairnhq/cairn/internal/index"
)

// Cache holds the views change analysis builds once per index version and
// shares across requests: the reverse import graph (depgraph.go) and the
// reverse reference index (refindex.go). Building either reads every file's
// rows, which costs far more than one request should pay, and the index
// changes only between epochs. A service makes one Cache and hands it to
// every request; a nil Cache builds the views for each request.
type Cache struct {
	deps versioned[*depGraph]
	refs versioned[*refIndex]
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{} }

// CacheStat counts the requests of one view: served from the cache (hits)
// or not (misses: the first request of an index version), and of the
// misses those served by updating the view of an earlier version with
// what changed since (updates) instead of building it again.
type CacheStat struct {
	Name    string
	Hits    int64
	Misses  int64
	Updates int64
}

// Stats are the counts of each view, in a fixed order.
func (c *Cache) Stats() []CacheStat {
	if c == nil {
		return nil
	}
	return []CacheStat{
		{Name: "reverse_imports", Hits: c.deps.hits.Load(), Misses: c.deps.misses.Load(), Updates: c.deps.updates.Load()},
		{Name: "reverse_refs", Hits: c.refs.hits.Load(), Misses: c.refs.misses.Load(), Updates: c.refs.updates.Load()},
	}
}

func (c *Cache) depGraph(v index.Version, build func() (*depGraph, error), update func(*depGraph, index.Version) (*depGraph, bool, error)) (*depGraph, error) {
	if c == nil {
		return build()
	}
	return c.deps.get(v, build, update)
}

func (c *Cache) refIndex(v index.Version, build func() (*refIndex, error), update func(*refIndex, index.Version) (*refIndex, bool, error)) (*refIndex, error) {
	if c == nil {
		return build()
	}
	return c.refs.get(v, build, update)
}

// versioned is one view, kept for the index version it was built at.
type versioned[T any] struct {
	mu  sync.Mutex // guards the fields below; held while building, so a view is built once
	ver index.Version
	val T
	ok  bool

	hits, misses, updates atomic.Int64
}

// get returns the view of version v. When the one kept is of an earlier
// version, update makes v's from it if it can (reporting false when it
// cannot); otherwise build makes it from nothing. A request of a version
// older than the one kept (a snapshot taken before the last commit) gets a
// view built for it alone: the newer one stays.
func (x *versioned[T]) get(v index.Version, build func() (T, error), update func(T, index.Version) (T, bool, error)) (T, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.ok && x.ver == v {
		x.hits.Add(1)
		return x.val, nil
	}
	x.misses.Add(1)
	if x.ok && x.ver.Store == v.Store && v.Epoch < x.ver.Epoch {
		return build()
	}
	if x.ok && x.ver.Store == v.Store && update != nil {
		val, ok, err := update(x.val, x.ver)
		if err != nil {
			return val, err
		}
		if ok {
			x.updates.Add(1)
			x.ver, x.val = v, val
			return val, nil
		}
	}
	val, err := build()
	if err != nil {
		return val, err
	}
	x.ver, x.val, x.ok = v, val, true
	return val, nil
}
