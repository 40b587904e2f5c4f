package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/protocol"
)

// Writes. The mutation engine runs in whichever process the write arrives
// at: its per-file locks and journals work across processes. The index is
// then brought up to date for exactly the written paths before the write
// answers: by this process when it owns the index, else by the owner, asked
// over its socket (a process that finds no owner takes over, as for any
// query). When that fails the write still stands and says the index will
// catch up on the next query.

// recoverWrites finishes or undoes the batches of writers that died, before
// anything reads the tree; what it did becomes warnings of the first call.
func recoverWrites(ctx context.Context, paths config.Paths, cfg config.Config) []string {
	w, err := mutate.New(mutate.Options{Paths: paths, Exclude: cfg.Index.Exclude}).Recover(ctx)
	if err != nil {
		w = append(w, "cannot check for interrupted writes: "+err.Error())
	}
	return w
}

// reindex brings the index up to date for the paths a write changed.
func (s *Service) reindex(ctx context.Context, paths []string) []string {
	if s.ix.Writable() {
		if st, _ := s.State(); st == protocol.StateIndex {
			return nil // the build under way reads the files as they are now
		}
		if err := s.reconcilePaths(ctx, paths); err != nil {
			return []string{fmt.Sprintf("the index was not updated for this write (%v); the next query updates it", err)}
		}
		return nil
	}
	reply, err := askOwner(ctx, s.paths.StateDir, ownerRequest{Op: "paths", Paths: paths}, s.waitBound())
	switch {
	case err == nil && reply.Error == "":
		return nil
	case errors.Is(err, errNoOwner) && s.takeOver(ctx):
		return s.reindex(ctx, paths)
	}
	why := "it did not answer"
	switch {
	case err != nil && errors.Is(err, context.DeadlineExceeded):
		why = fmt.Sprintf("it did not confirm within %s", s.waitBound())
	case err != nil:
		why = err.Error()
	case reply.Error != "":
		why = reply.Error
	}
	return []string{fmt.Sprintf("the process that owns the index (pid %d) did not update it for this write (%s); the next query updates it", s.ix.Owner(), why)}
}

// writing is told that a write starts (tools.Env.Writing): the index parses
// its new contents beside it, and the watcher holds its batches until the
// write ends, so that the write's own Reindex indexes what it wrote in one
// batch instead of racing the watcher for part of it (two batches relink
// the same files twice).
func (s *Service) writing(files map[string][]byte) func() {
	s.ix.Prestore(files)
	s.writes.Add(1)
	var once sync.Once
	return func() { once.Do(func() { s.writes.Add(-1) }) }
}

// reconcilePaths reindexes paths as the owner.
func (s *Service) reconcilePaths(ctx context.Context, paths []string) error {
	defer s.observeReconcile("paths", time.Now())
	_, err := s.ix.ReconcilePaths(ctx, paths, index.ReconcileOptions{Progress: s.opts.Progress})
	if err == nil {
		if st, _ := s.State(); st == protocol.StateStale {
			s.setState(protocol.StateReady, "")
		}
	}
	return err
}

// handlePaths answers another process that wrote paths.
func (s *Service) handlePaths(ctx context.Context, req ownerRequest) ownerReply {
	r := ownerReply{PID: os.Getpid()}
	if st, _ := s.State(); st != protocol.StateIndex {
		if err := s.reconcilePaths(ctx, req.Paths); err != nil {
			r.Error = err.Error()
		}
	}
	r.State, _ = s.State()
	r.Epoch = s.epoch(ctx)
	return r
}
