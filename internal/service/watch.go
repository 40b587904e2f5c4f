package service

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/scan"
)

// Watcher timings: changes are batched until the tree is quiet for debounce
// (at most maxDelay after the first), and a full stat scan runs every
// safetyScan (Options.SafetyScan) to catch anything the watcher missed. An
// overflowed event queue forces a full scan before the next answer; a
// watcher the system closes leaves every call to rescan.
const (
	debounce   = 50 * time.Millisecond
	maxDelay   = 500 * time.Millisecond
	safetyScan = 5 * time.Minute
	// writeHold bounds how long a batch waits for the writes under way
	// (Service.writing), in case one never says it ended.
	writeHold = 30 * time.Second
)

// watcher turns file-system events into reconciles of the changed paths.
// seen counts events; indexed is the count covered by the last committed
// batch, so a query waits until indexed >= the seen value at its arrival.
type watcher struct {
	s  *Service
	fw *fsnotify.Watcher

	seen    atomic.Int64
	indexed atomic.Int64
	kickCh  chan struct{}
	// dead is set when the system closed the watcher's channels before the
	// service ended: it sees nothing any more, so calls rescan instead.
	dead atomic.Bool

	// Sync cookies (as watchman does): a query writes a file into cookieDir,
	// which the same watcher watches. Events arrive in order, so once the
	// cookie's event is seen, every change made before the query is seen too.
	cookieDir  string
	cookieSeq  atomic.Int64
	cookieSeen atomic.Int64

	mu sync.Mutex // guards pending, full and changed
	// pending are the repo paths events named; a directory among them
	// stands for its subtree (index.ReconcilePaths).
	pending map[string]bool
	full    bool          // a full scan is needed (HEAD moved, overflow, the safety scan)
	changed chan struct{} // closed after every batch and cookie, then replaced
}

// startWatcher watches the tree and keeps the index fresh until ctx ends. It
// returns nil when the system refuses a watcher (the service then rescans on
// every call).
func startWatcher(ctx context.Context, s *Service) *watcher {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		s.addWarning("no file watcher (" + err.Error() + "); every query rescans the tree")
		return nil
	}
	w := &watcher{s: s, fw: fw, kickCh: make(chan struct{}, 1), pending: map[string]bool{}, changed: make(chan struct{}),
		cookieDir: filepath.Join(s.paths.StateDir, "cookies")}
	os.RemoveAll(w.cookieDir)
	if err := os.MkdirAll(w.cookieDir, 0o755); err != nil || fw.Add(w.cookieDir) != nil {
		w.cookieDir = "" // without cookies, queries wait only for events already read
	}
	if err := w.addTree(s.paths.Root); err != nil {
		fw.Close()
		s.addWarning("cannot watch the tree (" + err.Error() + "); every query rescans it")
		return nil
	}
	if s.paths.GitDir != "" {
		fw.Add(s.paths.GitDir) // HEAD and index: the tripwire
	}
	// A change made after the first index's scan and before the tree was
	// watched raised no event: the first batch rescans the tree, and a call
	// waits for it as for any change seen before it.
	w.needFullScan()
	w.kickCh <- struct{}{}
	go w.loop(ctx)
	return w
}

func (w *watcher) close() { w.fw.Close() }

// addTree watches dir and every directory below it that the index could contain.
func (w *watcher) addTree(dir string) error {
	root := w.s.paths.Root
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel != "." && (scan.PrunedDirs[d.Name()] || strings.HasPrefix(rel, ".cairn/cache") ||
			(w.s.paths.InTreeState != "" && strings.HasPrefix(rel, w.s.paths.InTreeState))) {
			return filepath.SkipDir
		}
		return w.fw.Add(p)
	})
}

func (w *watcher) loop(ctx context.Context) {
	var first time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	every := w.s.opts.SafetyScan
	if every <= 0 {
		every = safetyScan
	}
	safety := time.NewTicker(every)
	defer safety.Stop()
	stopped := func() {
		if ctx.Err() == nil {
			w.dead.Store(true)
			w.s.addWarning("the file watcher stopped; every query rescans the tree")
			w.broadcast() // callers waiting for events stop waiting
		}
	}
	// held: since when the batch waits for the writes under way, which
	// reindex what they wrote themselves (zero: not waiting).
	var held time.Time
	hold := func() bool {
		if w.s.writes.Load() == 0 {
			held = time.Time{}
			return false
		}
		if held.IsZero() {
			held = time.Now()
		}
		if time.Since(held) > writeHold {
			return false
		}
		timer.Reset(debounce)
		return true
	}
	// settle reconciles the batch, unless the writes under way hold it.
	settle := func() {
		if hold() {
			return
		}
		w.flush(ctx)
		first, held = time.Time{}, time.Time{}
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fw.Events:
			if !ok {
				stopped()
				return
			}
			if w.note(ev) {
				if first.IsZero() {
					first = time.Now()
				}
				wait := debounce
				if left := maxDelay - time.Since(first); left < wait {
					wait = max(left, 0)
				}
				timer.Reset(wait)
			}
		case err, ok := <-w.fw.Errors:
			if !ok {
				stopped()
				return
			}
			_ = err // overflow and friends: fall back to a full scan
			w.needFullScan()
			timer.Reset(debounce)
		case <-w.kickCh:
			settle()
		case <-timer.C:
			settle()
		case <-safety.C:
			w.needFullScan()
			w.flush(ctx)
		}
	}
}

// needFullScan makes the next batch rescan the whole tree, and counts it as
// an event seen so that the next call waits for that batch.
func (w *watcher) needFullScan() {
	w.mu.Lock()
	w.full = true
	w.mu.Unlock()
	w.seen.Add(1)
}

// note records one event; it reports whether the event matters.
func (w *watcher) note(ev fsnotify.Event) bool {
	if w.cookieDir != "" && filepath.Dir(ev.Name) == w.cookieDir {
		if n, err := strconv.ParseInt(filepath.Base(ev.Name), 10, 64); err == nil && ev.Has(fsnotify.Create) && n > w.cookieSeen.Load() {
			w.cookieSeen.Store(n)
			w.broadcast()
		}
		return false
	}
	root := w.s.paths.Root
	rel, err := filepath.Rel(root, ev.Name)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	rel = filepath.ToSlash(rel)
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.s.paths.GitDir != "" && strings.HasPrefix(ev.Name, w.s.paths.GitDir+string(filepath.Separator)):
		base := filepath.Base(ev.Name)
		if base != "HEAD" && base != "index" {
			return false // lock files and objects: only HEAD and the index matter
		}
		w.full = true
	case rel == ".cairn/cache" || strings.HasPrefix(rel, ".cairn/cache/") || (w.s.paths.InTreeState != "" && strings.HasPrefix(rel, w.s.paths.InTreeState)):
		return false
	case ev.Has(fsnotify.Create) && isDir(ev.Name):
		// A new directory: watch it, and reconcile its subtree (the files
		// created in it before the watch was added raised no event).
		w.addTree(ev.Name)
		w.pending[rel] = true
	default:
		w.pending[rel] = true
	}
	w.seen.Add(1)
	return true
}

// flush reconciles what was noted since the last batch.
func (w *watcher) flush(ctx context.Context) {
	target := w.seen.Load()
	w.mu.Lock()
	paths := make([]string, 0, len(w.pending))
	for p := range w.pending {
		paths = append(paths, p)
	}
	full := w.full
	w.pending, w.full = map[string]bool{}, false
	w.mu.Unlock()
	var err error
	switch {
	case full:
		_, err = w.s.reconcile(ctx, false)
	case len(paths) > 0:
		start := time.Now()
		_, err = w.s.ix.ReconcilePaths(ctx, paths, index.ReconcileOptions{Progress: w.s.opts.Progress})
		w.s.observeReconcile("paths", start)
		if err != nil {
			_, err = w.s.reconcile(ctx, false)
		}
	}
	if err == nil && w.indexed.Load() < target {
		w.indexed.Store(target)
	}
	w.broadcast()
	if err == nil && w.s.cfg.Semantic.AutoRefresh && (full || len(paths) > 0) {
		w.s.autoRefresh(ctx, paths, full)
	}
}

// broadcast wakes everyone waiting for a batch or a cookie.
func (w *watcher) broadcast() {
	w.mu.Lock()
	close(w.changed)
	w.changed = make(chan struct{})
	w.mu.Unlock()
}

// wait blocks until cond holds, the deadline passes or ctx ends.
func (w *watcher) wait(ctx context.Context, deadline <-chan time.Time, cond func() bool) bool {
	for !cond() {
		w.mu.Lock()
		ch := w.changed
		w.mu.Unlock()
		if cond() {
			return true
		}
		select {
		case <-ch:
		case <-deadline:
			return cond()
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// waitSeen waits until every change made before the call is indexed, or
// bound passes: first a sync cookie makes sure those changes are seen, then
// the batch that covers them is awaited.
func (w *watcher) waitSeen(ctx context.Context, bound time.Duration) bool {
	timer := time.NewTimer(bound)
	defer timer.Stop()
	if w.cookieDir != "" {
		n := w.cookieSeq.Add(1)
		name := filepath.Join(w.cookieDir, strconv.FormatInt(n, 10))
		if os.WriteFile(name, nil, 0o644) == nil {
			defer os.Remove(name)
			if !w.wait(ctx, timer.C, func() bool { return w.cookieSeen.Load() >= n }) {
				return false
			}
		}
	}
	target := w.seen.Load()
	if w.indexed.Load() >= target {
		return true
	}
	select {
	case w.kickCh <- struct{}{}: // do not wait out the debounce
	default:
	}
	return w.wait(ctx, timer.C, func() bool { return w.indexed.Load() >= target })
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}
