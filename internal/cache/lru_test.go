package cache

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLRUEvictsLeastRecentlyUsed(t *testing.T) {
	c := NewLRU[string](30, 10)
	c.Put("a", "A", 10)
	c.Put("b", "B", 10)
	c.Put("c", "C", 10)
	if v, ok := c.Get("a"); !ok || v != "A" { // a is now the most recent
		t.Fatalf("Get(a) = %q, %v", v, ok)
	}
	c.Put("d", "D", 10) // over 30 bytes: b goes
	for key, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
		if _, ok := c.Get(key); ok != want {
			t.Errorf("Get(%s) found %v, want %v", key, ok, want)
		}
	}
	want := Stats{Hits: 4, Misses: 1, Evictions: 1, Entries: 3, Bytes: 30}
	if diff := cmp.Diff(want, c.Stats()); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
}

func TestLRUBounds(t *testing.T) {
	c := NewLRU[int](1000, 3)
	for i := range 5 {
		c.Put(fmt.Sprint(i), i, 1)
	}
	if st := c.Stats(); st.Entries != 3 || st.Evictions != 2 {
		t.Errorf("after 5 puts into 3 entries: %+v", st)
	}
	c.Put("big", 0, 1001) // larger than the whole cache: not kept, nothing evicted
	if _, ok := c.Get("big"); ok || c.Stats().Entries != 3 {
		t.Errorf("a value larger than the cache was kept or evicted others: %+v", c.Stats())
	}
	c.Put("2", 20, 500) // replacing an entry counts its new size
	if st := c.Stats(); st.Bytes != 502 || st.Entries != 3 {
		t.Errorf("after replacing: %+v", st)
	}
	c.Clear()
	if st := c.Stats(); st.Entries != 0 || st.Bytes != 0 {
		t.Errorf("after Clear: %+v", st)
	}
	off := NewLRU[int](1000, 0)
	off.Put("x", 1, 1)
	if _, ok := off.Get("x"); ok {
		t.Error("an LRU of 0 entries kept one")
	}
}

func TestLRUConcurrent(t *testing.T) {
	c := NewLRU[int](64, 16)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				key := fmt.Sprint((g * i) % 40)
				if v, ok := c.Get(key); ok && fmt.Sprint(v) != key {
					t.Errorf("Get(%s) = %d", key, v)
					return
				}
				var n int
				fmt.Sscan(key, &n)
				c.Put(key, n, 3)
			}
		}()
	}
	wg.Wait()
	if st := c.Stats(); st.Bytes > 64 || st.Entries > 16 || st.Hits+st.Misses != 8000 {
		t.Errorf("stats after concurrent use: %+v", st)
	}
}
