package service_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
)

// Calls in flight across a reindex and a takeover: a client keeps asking from
// several goroutines while the owner reindexes edits and then goes away; the
// client takes over. Every call answers from one consistent snapshot (the
// definitions it counts are those of one epoch), none fails, and the race
// detector sees no unsynchronised access to the swapped store.
func TestCallsInFlightAcrossReindexAndTakeover(t *testing.T) {
	files := map[string]string{"go.mod": "module example.com/f\n"}
	for i := range 20 {
		files[fmt.Sprintf("p%02d.go", i)] = fmt.Sprintf("package f\n\nfunc Flight%02d() {}\n", i)
	}
	paths, cfg := newRepo(t, files)
	owner := mustOpen(t, paths, cfg, service.Options{})
	answer(t, call(t, owner, "index_ensure", nil))
	client := testenv.OpenIn(t, paths.Root, paths.StateDir, cfg, service.Options{})

	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan string, 64)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				tool, args := "search", map[string]any{"query": "Flight", "mode": "symbol", "limit": 100}
				if (g+n)%2 == 1 {
					tool, args = "refs_find", map[string]any{"symbol": "f.Flight00"}
				}
				env := call(t, client, tool, args)
				if env.Error != nil && !env.Error.Retryable {
					errs <- fmt.Sprintf("%s: %s %s", tool, env.Error.Code, env.Error.Message)
					return
				}
			}
		}()
	}
	// The owner reindexes a few edits while the client reads ...
	for i := range 5 {
		name := fmt.Sprintf("Extra%d", i)
		os.WriteFile(filepath.Join(paths.Root, fmt.Sprintf("x%d.go", i)), []byte("package f\n\nfunc "+name+"() { Flight00() }\n"), 0o644)
		answer(t, call(t, owner, "index_ensure", nil))
	}
	// ... then goes away: the next client call takes over.
	owner.Close()
	os.WriteFile(filepath.Join(paths.Root, "late.go"), []byte("package f\n\nfunc FlightLate() {}\n"), 0o644)
	got := answer(t, call(t, client, "search", map[string]any{"query": "FlightLate", "mode": "definitions"}))
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if !client.Owner() {
		t.Fatal("the client did not take over")
	}
	if !strings.Contains(got, "1 of 1") {
		t.Fatalf("after the takeover: %s", got)
	}
}

// One search call reads the index metadata once: the request's snapshot
// reads it, and provenance, cursors and the engine's caches use that.
func TestOneMetadataReadPerCall(t *testing.T) {
	paths, cfg := newRepo(t, map[string]string{"go.mod": "module example.com/m\n", "a.go": "package m\n\nfunc Meta() {}\n"})
	for _, serve := range []bool{false, true} {
		t.Run(fmt.Sprintf("serve=%v", serve), func(t *testing.T) {
			s := testenv.OpenIn(t, paths.Root, paths.StateDir, cfg, service.Options{Serve: serve})
			if serve {
				testenv.WaitReady(t, s)
			}
			args := map[string]any{"query": "Meta", "limit": 1}
			answer(t, call(t, s, "search", args)) // the first call may read it to reconcile
			before := s.Env().Index.MetaReads()
			env := call(t, s, "search", args)
			answer(t, env)
			if n := s.Env().Index.MetaReads() - before; n != 1 {
				t.Fatalf("one search call read the metadata %d times, want 1", n)
			}
			if env.Provenance.Epoch == 0 || env.Provenance.RepoStateID == "" {
				t.Fatalf("provenance without the snapshot's state: %+v", env.Provenance)
			}
		})
	}
}
