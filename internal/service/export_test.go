package service

import (
	"context"

	"github.com/fsnotify/fsnotify"
)

// DropWatches makes the watcher blind to the tree (its sync cookies still
// work), as if the system dropped its events.
func (s *Service) DropWatches() {
	w := s.watcher()
	for _, p := range w.fw.WatchList() {
		if p != w.cookieDir {
			w.fw.Remove(p)
		}
	}
}

// OverflowWatcher reports an overflowed event queue, as inotify does.
func (s *Service) OverflowWatcher() { s.watcher().fw.Errors <- fsnotify.ErrEventOverflow }

// CloseWatcher closes the watcher under the service, as the system may.
func (s *Service) CloseWatcher() { s.watcher().fw.Close() }

// WatcherStopped reports whether the service noticed its watcher stopped.
func (s *Service) WatcherStopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watch != nil && s.watch.dead.Load()
}

// Epoch is the index's epoch.
func (s *Service) Epoch() int64 { return s.epoch(context.Background()) }
