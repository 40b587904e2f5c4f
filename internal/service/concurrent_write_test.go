package service_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/service"
)

// Many writes at once, with reads between them, in a serving process (its
// watcher reconciles too): each write waits for the index's writer without
// holding a connection of the store's small pool, so none of them stalls
// the writer. Before, a handful of concurrent writes took every pooled
// connection while they waited for the reconcile, whose commit then waited
// for a connection: every call hung until its deadline.
func TestConcurrentWritesDoNotStarveTheWriter(t *testing.T) {
	files := map[string]string{"go.mod": "module example.com/cw\n"}
	for i := range 20 {
		files[fmt.Sprintf("p/f%d.go", i)] = fmt.Sprintf("package p\n\n// F%d is a function.\nfunc F%d() int { return %d }\n", i, i, i)
	}
	paths, cfg := newRepo(t, files)
	ctx := context.Background()
	s, err := service.Open(ctx, paths, cfg, service.Options{Serve: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	answer(t, call(t, s, "index_ensure", nil))

	const writers, rounds = 12, 3
	var wg sync.WaitGroup
	var mu sync.Mutex // guards slow and failed
	var slow, failed []string
	start := time.Now()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				content := fmt.Sprintf("package s%d\n\n// W%d is write %d.\nfunc W%d() int { return %d }\n", w, w, r, w, r)
				action := mutate.Update
				if r == 0 {
					action = mutate.Create
				}
				t0 := time.Now()
				env := call(t, s, "write_source", map[string]any{"edits": []mutate.FileEdit{{Path: fmt.Sprintf("s%d/w.go", w), Action: action, Content: &content}}})
				d := time.Since(t0)
				read := call(t, s, "search", map[string]any{"query": fmt.Sprintf("F%d", (w+r)%20), "mode": "symbol"})
				mu.Lock()
				if env.Error != nil {
					failed = append(failed, fmt.Sprintf("write %d/%d: %s %s", w, r, env.Error.Code, env.Error.Message))
				}
				if read.Error != nil {
					failed = append(failed, fmt.Sprintf("search %d/%d: %s %s", w, r, read.Error.Code, read.Error.Message))
				}
				if d > 15*time.Second {
					slow = append(slow, fmt.Sprintf("write %d/%d took %s", w, r, d.Round(time.Millisecond)))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d writes and %d searches in %s", writers*rounds, writers*rounds, time.Since(start).Round(time.Millisecond))
	for _, f := range failed {
		t.Error(f)
	}
	for _, s := range slow {
		t.Error(s)
	}
	env := call(t, s, "search", map[string]any{"query": "W11", "mode": "symbol"})
	if answer(t, env); len(fmt.Sprint(env.Data)) == 0 {
		t.Error("the last write is not found")
	}
}
