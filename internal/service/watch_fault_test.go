package service_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/service"
)

// A watcher that misses changes: events dropped (the watches gone), an
// overflowed queue, the watcher closed under the server. The safety scan
// catches dropped events within its interval; an overflow makes the next
// answer wait for a full scan; a closed watcher leaves every call to
// rescan. In each case a file written meanwhile is found.
func TestWatcherThatMissesChanges(t *testing.T) {
	for _, c := range []struct {
		name   string
		safety time.Duration
		fault  func(s *service.Service)
		// next: the first answer after the write must already see it;
		// otherwise within the safety interval and a margin.
		next bool
	}{
		{"events dropped", 300 * time.Millisecond, func(s *service.Service) { s.DropWatches() }, false},
		{"queue overflowed", time.Hour, func(s *service.Service) { s.DropWatches() }, true},
		{"watcher closed", time.Hour, func(s *service.Service) {
			s.CloseWatcher()
			deadline := time.Now().Add(5 * time.Second)
			for !s.WatcherStopped() && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if !s.WatcherStopped() {
				t.Fatal("the service did not notice its watcher stopped")
			}
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			paths, cfg := newRepo(t, map[string]string{"go.mod": "module example.com/wf\n", "a.go": "package wf\n\nfunc A() {}\n"})
			s := mustOpen(t, paths, cfg, service.Options{Serve: true, SafetyScan: c.safety})
			defer s.Close()
			found := func(name string) bool {
				env := call(t, s, "search", map[string]any{"query": name, "mode": "symbol"})
				if env.Error != nil {
					t.Fatalf("search %s: %s %s", name, env.Error.Code, env.Error.Message)
				}
				b, _ := json.Marshal(env.Data)
				return strings.Contains(string(b), strings.ToLower(name)+".go")
			}
			if !found("A") {
				t.Fatal("the first index does not answer")
			}
			c.fault(s)
			name := "Missed" + strings.ReplaceAll(c.name, " ", "")
			src := fmt.Sprintf("package wf\n\nfunc %s() {}\n", name)
			if err := os.WriteFile(filepath.Join(paths.Root, strings.ToLower(name)+".go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			if c.name == "queue overflowed" {
				s.OverflowWatcher()
			}
			if c.next {
				if !found(name) {
					t.Errorf("%s: the next answer does not see the file written meanwhile", c.name)
				}
				return
			}
			deadline := time.Now().Add(c.safety + 5*time.Second)
			for !found(name) {
				if time.Now().After(deadline) {
					t.Fatalf("%s: the safety scan did not pick up the file within %s", c.name, c.safety+5*time.Second)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}
