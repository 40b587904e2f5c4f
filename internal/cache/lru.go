// Package cache holds bounded in-memory caches: an LRU map bounded by the
// bytes of what it holds and by its number of entries, with counts of its
// hits and misses. It knows nothing of what it stores or how keys are made:
// callers put everything an entry depends on into its key, so that an entry
// is never stale, only unused. It must not import any other package of the
// module.
package cache

import (
	"container/list"
	"sync"
	"sync/atomic"
)

// LRU is a least-recently-used map from strings to values, bounded by the
// sum of the sizes its entries were put with and by their count. It is safe
// for concurrent use.
type LRU[V any] struct {
	maxBytes   int64
	maxEntries int

	mu    sync.Mutex // guards the fields below
	order *list.List // of *entry[V], most recently used first
	byKey map[string]*list.Element
	bytes int64

	hits, misses, evictions atomic.Int64
}

type entry[V any] struct {
	key  string
	val  V
	size int64
}

// NewLRU returns an empty LRU that holds at most maxBytes (the sum of the
// sizes given to Put) in at most maxEntries entries.
func NewLRU[V any](maxBytes int64, maxEntries int) *LRU[V] {
	return &LRU[V]{maxBytes: maxBytes, maxEntries: maxEntries, order: list.New(), byKey: map[string]*list.Element{}}
}

// Get returns the value of key and counts a hit, or counts a miss.
func (c *LRU[V]) Get(key string) (V, bool) {
	v, ok := c.Peek(key)
	c.Count(ok)
	return v, ok
}

// Peek returns the value of key, counting nothing: for a caller that
// counts a request once it knows which of its caches the request was for.
func (c *LRU[V]) Peek(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry[V]).val, true
}

// Count counts a request: a hit or a miss.
func (c *LRU[V]) Count(hit bool) {
	if hit {
		c.hits.Add(1)
	} else {
		c.misses.Add(1)
	}
}

// Put stores v under key, as size bytes, evicting the least recently used
// entries to stay within bounds. A value larger than the whole cache is not
// stored.
func (c *LRU[V]) Put(key string, v V, size int64) {
	size = max(size, 1)
	if size > c.maxBytes || c.maxEntries <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		e := el.Value.(*entry[V])
		c.bytes += size - e.size
		e.val, e.size = v, size
		c.order.MoveToFront(el)
	} else {
		c.byKey[key] = c.order.PushFront(&entry[V]{key: key, val: v, size: size})
		c.bytes += size
	}
	for c.bytes > c.maxBytes || len(c.byKey) > c.maxEntries {
		el := c.order.Back()
		e := el.Value.(*entry[V])
		c.order.Remove(el)
		delete(c.byKey, e.key)
		c.bytes -= e.size
		c.evictions.Add(1)
	}
}

// Clear drops every entry (the counts stay).
func (c *LRU[V]) Clear() {
	c.mu.Lock()
	c.order.Init()
	c.byKey = map[string]*list.Element{}
	c.bytes = 0
	c.mu.Unlock()
}

// Stats are an LRU's counts since it was made.
type Stats struct {
	Hits, Misses, Evictions int64
	Entries                 int
	Bytes                   int64
}

// Stats returns the counts and the current size.
func (c *LRU[V]) Stats() Stats {
	c.mu.Lock()
	n, b := len(c.byKey), c.bytes
	c.mu.Unlock()
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Evictions: c.evictions.Load(), Entries: n, Bytes: b}
}
