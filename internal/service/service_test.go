package service_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	_ "github.com/cairnhq/cairn/internal/lang/all"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// newRepo makes a git repository of files, with its state in a temporary
// directory, for services the test opens itself.
func newRepo(t *testing.T, files map[string]string) (config.Paths, config.Config) {
	t.Helper()
	testenv.Isolate(t)
	dir := testenv.Repo(t, files)
	paths, err := config.Locate(context.Background(), dir, filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	return paths, config.Default()
}

// mustOpen opens a service over paths; the caller closes it.
func mustOpen(t *testing.T, paths config.Paths, cfg config.Config, opts service.Options) *service.Service {
	t.Helper()
	s, err := service.Open(context.Background(), paths, cfg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// serving opens a serving owner (its file watcher on) over a new repository
// of files, closed when the test ends, and waits for its first index.
func serving(t *testing.T, files map[string]string) (config.Paths, *service.Service) {
	t.Helper()
	paths, cfg := newRepo(t, files)
	s := testenv.OpenIn(t, paths.Root, paths.StateDir, cfg, service.Options{Serve: true})
	testenv.WaitReady(t, s)
	return paths, s
}

func call(t *testing.T, s *service.Service, tool string, args any) *protocol.Envelope {
	t.Helper()
	raw, _ := json.Marshal(args)
	return tools.Invoke(context.Background(), s.Env(), tool, raw)
}

func answer(t *testing.T, env *protocol.Envelope) string {
	t.Helper()
	if env.Error != nil {
		t.Fatalf("error %s: %s", env.Error.Code, env.Error.Message)
	}
	return env.Answer
}

// A second process (here: a second Service on the same state) cannot own the
// index; it asks the owner to reconcile, so it still sees the latest edit.
func TestClientAsksOwner(t *testing.T) {
	paths, cfg := newRepo(t, map[string]string{"go.mod": "module example.com/o\n", "a.go": "package o\n\nfunc First() {}\n"})
	owner := testenv.OpenIn(t, paths.Root, paths.StateDir, cfg, service.Options{})
	answer(t, call(t, owner, "index_ensure", nil))
	client := testenv.OpenIn(t, paths.Root, paths.StateDir, cfg, service.Options{})
	if client.Owner() {
		t.Fatal("the second service took the writer lock")
	}
	os.WriteFile(filepath.Join(paths.Root, "b.go"), []byte("package o\n\nfunc Second() {}\n"), 0o644)
	env := call(t, client, "search", map[string]any{"query": "Second", "mode": "definitions"})
	if got := answer(t, env); !strings.Contains(got, "1 of 1") {
		t.Fatalf("client did not see the edit: %s", got)
	}
	if env.Provenance.Freshness != protocol.Fresh {
		t.Fatalf("freshness %s, warnings %v", env.Provenance.Freshness, env.Provenance.Warnings)
	}
	// The owner goes away: the client takes over and keeps answering.
	owner.Close()
	os.WriteFile(filepath.Join(paths.Root, "c.go"), []byte("package o\n\nfunc Third() {}\n"), 0o644)
	if got := answer(t, call(t, client, "search", map[string]any{"query": "Third", "mode": "definitions"})); !strings.Contains(got, "1 of 1") {
		t.Fatalf("after takeover: %s", got)
	}
	if !client.Owner() {
		t.Fatal("the client did not take over")
	}
}

// A serving owner keeps the index fresh from file events: a query right after
// an edit waits for it (bounded) and sees it.
func TestServingWatcher(t *testing.T) {
	paths, s := serving(t, map[string]string{"go.mod": "module example.com/w\n", "a.go": "package w\n\nfunc Alpha() {}\n"})
	for i, name := range []string{"Beta", "Gamma", "Delta"} {
		src := "package w\n\nfunc " + name + "() {}\n"
		os.WriteFile(filepath.Join(paths.Root, "a.go"), []byte(src), 0o644)
		env := call(t, s, "search", map[string]any{"query": name, "mode": "definitions"})
		if got := answer(t, env); !strings.Contains(got, "1 of 1") {
			t.Fatalf("round %d: edit not seen: %s (%v)", i, got, env.Provenance.Warnings)
		}
	}
	// a new directory with a file in it
	os.MkdirAll(filepath.Join(paths.Root, "sub"), 0o755)
	os.WriteFile(filepath.Join(paths.Root, "sub", "s.go"), []byte("package sub\n\nfunc InSub() {}\n"), 0o644)
	time.Sleep(100 * time.Millisecond)
	if got := answer(t, call(t, s, "search", map[string]any{"query": "InSub", "mode": "definitions"})); !strings.Contains(got, "1 of 1") {
		t.Fatalf("new directory not seen: %s", got)
	}
}

// While a write is under way (Env.Writing until its end), the watcher
// leaves the files it writes to the write's own Reindex, which indexes them
// in one batch; a write that ends without reindexing is indexed by the
// watcher as any change.
func TestWatcherLeavesAWriteToIt(t *testing.T) {
	paths, s := serving(t, map[string]string{"go.mod": "module example.com/w\n", "a.go": "package w\n\nfunc Alpha() {}\n"})
	time.Sleep(300 * time.Millisecond) // the watcher's first batch is done
	before := s.Epoch()
	src := []byte("package w\n\nfunc Written() {}\n")
	done := s.Env().Writing(map[string][]byte{"a.go": src})
	if err := os.WriteFile(filepath.Join(paths.Root, "a.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond)
	if got := s.Epoch(); got != before {
		t.Fatalf("the watcher indexed a file while its write was under way (epoch %d, was %d)", got, before)
	}
	done()
	if w := s.Env().Reindex(context.Background(), []string{"a.go"}); len(w) > 0 {
		t.Fatal(w)
	}
	after := s.Epoch()
	if after != before+1 {
		t.Fatalf("epoch %d after the write's reindex, want %d", after, before+1)
	}
	time.Sleep(300 * time.Millisecond)
	if got := s.Epoch(); got != after {
		t.Errorf("the watcher indexed the written file again (epoch %d, want %d)", got, after)
	}
	if got := answer(t, call(t, s, "search", map[string]any{"query": "Written", "mode": "definitions"})); !strings.Contains(got, "1 of 1") {
		t.Fatalf("the write is not seen: %s", got)
	}
	// a write that ends without reindexing
	other := []byte("package w\n\nfunc Unindexed() {}\n")
	done = s.Env().Writing(map[string][]byte{"b.go": other})
	if err := os.WriteFile(filepath.Join(paths.Root, "b.go"), other, 0o644); err != nil {
		t.Fatal(err)
	}
	done()
	deadline := time.Now().Add(5 * time.Second)
	for s.Epoch() == after {
		if time.Now().After(deadline) {
			t.Fatal("the watcher did not index a file whose write ended without reindexing it")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestChangeBeforeTheWatcherStarts: a file changed after the first index
// read the tree and before the watcher watched it raised no event; the
// next call still sees it (the watcher's first batch rescans the tree).
func TestChangeBeforeTheWatcherStarts(t *testing.T) {
	paths, cfg := newRepo(t, map[string]string{"go.mod": "module example.com/w\n", "a.go": "package w\n\nfunc Alpha() {}\n"})
	edit := func() {
		os.WriteFile(filepath.Join(paths.Root, "a.go"), []byte("package w\n\nfunc Beta() {}\n"), 0o644)
	}
	s := testenv.OpenIn(t, paths.Root, paths.StateDir, cfg, service.Options{Serve: true, BeforeWatch: edit})
	testenv.WaitReady(t, s)
	time.Sleep(300 * time.Millisecond) // the watcher starts: calls no longer rescan
	env := call(t, s, "search", map[string]any{"query": "Beta", "mode": "definitions"})
	if got := answer(t, env); !strings.Contains(got, "1 of 1") {
		t.Fatalf("the edit made before the watcher started is not seen: %s (%v)", got, env.Provenance.Warnings)
	}
}

// status answers at once while the first index builds.
func TestStatusWhileBuilding(t *testing.T) {
	files := map[string]string{"go.mod": "module example.com/b\n"}
	for i := 0; i < 300; i++ {
		files[filepath.Join("p", string(rune('a'+i%26))+strings.Repeat("x", i/26)+".go")] = "package p\n\nfunc F" + strings.Repeat("y", i) + "() {}\n"
	}
	paths, cfg := newRepo(t, files)
	s := testenv.OpenIn(t, paths.Root, paths.StateDir, cfg, service.Options{Serve: true})
	start := time.Now()
	env := call(t, s, "status", nil)
	if env.Error != nil || time.Since(start) > time.Second {
		t.Fatalf("status took %s: %+v", time.Since(start), env.Error)
	}
}

// TestNewDirectoryReconcilesItsSubtree: a new directory (with files created
// in it before its watch was added, and a nested directory) is indexed by
// reconciling that directory alone, not the whole tree: a file changed
// elsewhere behind the watcher's back stays unseen until the safety scan,
// which still catches it. A directory moved out of the tree takes its
// files out of the index without a full scan too.
func TestNewDirectoryReconcilesItsSubtree(t *testing.T) {
	paths, cfg := newRepo(t, map[string]string{
		"go.mod": "module example.com/w\n", "a.go": "package w\n\nfunc Alpha() {}\n",
		"other/o.go": "package other\n\nfunc Before() {}\n",
	})
	s := testenv.OpenIn(t, paths.Root, paths.StateDir, cfg, service.Options{Serve: true, SafetyScan: time.Hour})
	testenv.WaitReady(t, s)
	count := func(name string) string {
		t.Helper()
		env := call(t, s, "search", map[string]any{"query": name, "mode": "definitions"})
		got := answer(t, env)
		if env.Provenance.Freshness != protocol.Fresh {
			t.Fatalf("search %s: freshness %s (%v)", name, env.Provenance.Freshness, env.Provenance.Warnings)
		}
		return got
	}
	if got := count("Before"); !strings.Contains(got, "1 of 1") {
		t.Fatalf("the first index: %s", got)
	}
	time.Sleep(300 * time.Millisecond) // the watcher's first batch is done

	// Behind the watcher's back: other/ is no longer watched.
	s.Unwatch("other")
	os.WriteFile(filepath.Join(paths.Root, "other", "o.go"), []byte("package other\n\nfunc Behind() {}\n"), 0o644)
	os.MkdirAll(filepath.Join(paths.Root, "fresh", "deep"), 0o755)
	os.WriteFile(filepath.Join(paths.Root, "fresh", "n.go"), []byte("package fresh\n\nfunc InFresh() {}\n"), 0o644)
	os.WriteFile(filepath.Join(paths.Root, "fresh", "deep", "d.go"), []byte("package deep\n\nfunc InDeep() {}\n"), 0o644)
	for _, name := range []string{"InFresh", "InDeep"} {
		if got := count(name); !strings.Contains(got, "1 of 1") {
			t.Fatalf("%s in the new directory is not indexed: %s", name, got)
		}
	}
	if got := count("Behind"); strings.Contains(got, "1 of 1") {
		t.Fatalf("the new directory made the watcher rescan the whole tree (a change elsewhere was picked up): %s", got)
	}

	// A directory moved out of the tree: its files leave the index.
	if err := os.Rename(filepath.Join(paths.Root, "fresh"), filepath.Join(t.TempDir(), "moved")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	for _, name := range []string{"InFresh", "InDeep"} {
		if got := count(name); strings.Contains(got, "1 of 1") {
			t.Fatalf("%s is still indexed after its directory moved away: %s", name, got)
		}
	}

	// The safety scan still catches what the watcher missed.
	s.SafetyScanDue()
	if got := count("Behind"); !strings.Contains(got, "1 of 1") {
		t.Fatalf("the safety scan did not catch the change made behind the watcher's back: %s", got)
	}
}

// TestServerTrimsAfterABurst: a server gives memory back once the calls of
// a burst stop, once per burst, and not while it stays idle; a reconcile
// with no call around it (the watcher's, the safety scan's) is a burst too.
func TestServerTrimsAfterABurst(t *testing.T) {
	paths, s := serving(t, map[string]string{"go.mod": "module example.com/t\n", "a.go": "package t\n\nfunc Alpha() {}\n"})
	waitTrims := func(want int64) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for s.Trims() < want && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if got := s.Trims(); got != want {
			t.Fatalf("%d trims, want %d", got, want)
		}
	}
	for range 5 {
		answer(t, call(t, s, "search", map[string]any{"query": "Alpha", "mode": "definitions"}))
	}
	waitTrims(1)
	time.Sleep(3 * time.Second) // idle: nothing more to give back
	waitTrims(1)
	answer(t, call(t, s, "search", map[string]any{"query": "Alpha", "mode": "definitions"}))
	waitTrims(2)
	if err := os.WriteFile(filepath.Join(paths.Root, "b.go"), []byte("package t\n\nfunc Beta() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitTrims(3)
}
