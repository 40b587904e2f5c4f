package service_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/store"
)

// Many writes at once, with reads between them, in a serving process (its
// watcher reconciles too): each write waits for the index's writer without
// holding a connection of the store's small pool, and a read reads only
// through its snapshot, so no call holds one pooled connection while it
// waits for another. Before, a handful of concurrent writes took every
// pooled connection while they waited for the reconcile, whose commit then
// waited for a connection; and reads that decoded facts through the pool
// beside their snapshot's connection waited for each other: every call
// hung until its deadline.
func TestConcurrentWritesDoNotStarveTheWriter(t *testing.T) {
	files := map[string]string{"go.mod": "module example.com/cw\n"}
	for i := range 20 {
		files[fmt.Sprintf("p/f%d.go", i)] = fmt.Sprintf("package p\n\n// F%d is a function.\nfunc F%d() int { return %d }\n", i, i, i)
	}
	paths, cfg := newRepo(t, files)
	s := mustOpen(t, paths, cfg, service.Options{Serve: true})
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
				sym := fmt.Sprintf("p/f%d.go#F%d", (w+r)%20, (w+r)%20)
				reads := map[string]*protocol.Envelope{
					"search":        call(t, s, "search", map[string]any{"query": fmt.Sprintf("F%d", (w+r)%20), "mode": "symbol"}),
					"refs_find":     call(t, s, "refs_find", map[string]any{"symbol": sym}),
					"graph_callers": call(t, s, "graph_callers", map[string]any{"symbol": sym, "depth": 2}),
				}
				mu.Lock()
				if env.Error != nil {
					failed = append(failed, fmt.Sprintf("write %d/%d: %s %s", w, r, env.Error.Code, env.Error.Message))
				}
				for tool, read := range reads {
					if read.Error != nil {
						failed = append(failed, fmt.Sprintf("%s %d/%d: %s %s", tool, w, r, read.Error.Code, read.Error.Message))
					}
				}
				if d > 15*time.Second {
					slow = append(slow, fmt.Sprintf("write %d/%d took %s", w, r, d.Round(time.Millisecond)))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Logf("%d writes and %d reads in %s", writers*rounds, 3*writers*rounds, time.Since(start).Round(time.Millisecond))
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

// A request reads only through its snapshot: with every pooled connection
// of the store held by snapshots (as many concurrent requests do), a query
// on one of them still answers instead of waiting for a connection that
// none of the holders will give back.
func TestQueryReadsOnlyThroughItsSnapshot(t *testing.T) {
	paths, cfg := newRepo(t, map[string]string{"go.mod": "module example.com/q\n",
		"a.go": "package q\n\nfunc A() int { return B() }\n", "b.go": "package q\n\nfunc B() int { return 1 }\n"})
	ctx := context.Background()
	s := mustOpen(t, paths, cfg, service.Options{})
	answer(t, call(t, s, "index_ensure", nil))
	s.Close()
	// A new process: no facts decoded yet.
	s = mustOpen(t, paths, cfg, service.Options{})
	defer s.Close()
	env := s.Env()
	var snaps []*index.Snapshot
	defer func() {
		for _, sn := range snaps {
			sn.Release()
		}
	}()
	for range store.MaxConns {
		sn, err := env.Index.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, sn)
	}
	e := env.Engine.On(snaps[len(snaps)-1])
	qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	r, err := e.At(qctx, paths.Root, "a.go", 3, 23, true)
	if err != nil {
		t.Fatalf("the identifier at a.go:3:23 with every connection held by snapshots: %v", err)
	}
	if r.Row.Name != "B" {
		t.Errorf("a.go:3:23 resolves to %q, want B", r.Row.Name)
	}
}
