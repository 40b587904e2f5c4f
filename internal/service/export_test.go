package service

import (
	"context"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// liveWatcher is the watcher once it runs: the service starts it after its
// first index, which a call may not wait for (it rescans meanwhile).
func (s *Service) liveWatcher() *watcher {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if w := s.watcher(); w != nil {
			return w
		}
	}
	panic("the service started no watcher within 30s")
}

// DropWatches makes the watcher blind to the tree (its sync cookies still
// work), as if the system dropped its events.
func (s *Service) DropWatches() {
	w := s.liveWatcher()
	for _, p := range w.fw.WatchList() {
		if p != w.cookieDir {
			w.fw.Remove(p)
		}
	}
}

// OverflowWatcher reports an overflowed event queue, as inotify does.
func (s *Service) OverflowWatcher() { s.liveWatcher().fw.Errors <- fsnotify.ErrEventOverflow }

// CloseWatcher closes the watcher under the service, as the system may.
func (s *Service) CloseWatcher() { s.liveWatcher().fw.Close() }

// WatcherStopped reports whether the service noticed its watcher stopped.
func (s *Service) WatcherStopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watch != nil && s.watch.dead.Load()
}

// Epoch is the index's epoch.
func (s *Service) Epoch() int64 { return s.epoch(context.Background()) }

// Unwatch makes the watcher blind to one directory of the tree (repo path),
// as if the system dropped its events.
func (s *Service) Unwatch(dir string) {
	w := s.liveWatcher()
	w.fw.Remove(filepath.Join(s.paths.Root, filepath.FromSlash(dir)))
}

// SafetyScanDue does what the safety scan's tick does: the next batch
// rescans the whole tree, and the next call waits for it.
func (s *Service) SafetyScanDue() {
	s.liveWatcher().needFullScan()
}

// Trims counts the times the server gave memory back after a burst of calls.
func (s *Service) Trims() int64 { return s.trims.Load() }
