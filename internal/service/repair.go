package service

import (
	"context"
	"fmt"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/store"
)

// A damaged store never answers. Before a request reads, intact compares the
// database files with their seals (a few stat calls); a tool that fails with
// a damage error goes through recover. The owner repairs: a one-shot command
// at once (the user waits for the answer anyway), a server in the background
// while calls wait up to the freshness bound and then answer
// INDEX_UNAVAILABLE, and /ready says 503 until it is done. A process that
// only reads asks the owner to repair and answers INDEX_UNAVAILABLE.

// intact makes sure the store can be trusted before a request reads it.
func (s *Service) intact(ctx context.Context) ([]string, error) {
	d := s.ix.Check()
	if d == nil {
		return nil, nil
	}
	if d.Replaced || s.ix.Writable() {
		return s.repair(ctx, d)
	}
	// A reader: the owner verifies or rebuilds at its next sync.
	if _, err := askOwner(ctx, s.paths.StateDir, ownerRequest{Op: "sync"}, s.waitBound()); err == nil {
		if d = s.ix.Check(); d == nil || d.Replaced {
			if d != nil {
				return s.repair(ctx, d)
			}
			return nil, nil
		}
	}
	return nil, damageUnavailable(d, fmt.Sprintf("process %d owns the index and repairs it", s.ix.Owner()))
}

// recover handles a tool's error: when it says the store is damaged, the
// store is repaired and retry says the call may run again; otherwise out
// (when not nil) replaces the error.
func (s *Service) recover(ctx context.Context, err error) (retry bool, warnings []string, out error) {
	if !store.IsCorrupt(err) {
		return false, nil, nil
	}
	d := s.ix.Diagnose(ctx, err)
	if !s.ix.Writable() {
		askOwner(ctx, s.paths.StateDir, ownerRequest{Op: "repair", DB: d.DB, Reason: d.Reason}, s.waitBound())
		return false, nil, damageUnavailable(d, fmt.Sprintf("process %d owns the index and has been asked to repair it", s.ix.Owner()))
	}
	warnings, rerr := s.repair(ctx, d)
	if rerr != nil {
		return false, nil, rerr
	}
	return true, warnings, nil
}

// repair repairs as the owner (or reopens a replaced file as a reader). It
// returns the warnings for the response.
func (s *Service) repair(ctx context.Context, d *store.Damage) ([]string, error) {
	if s.opts.Serve && s.ix.Writable() {
		s.startRepair(d)
		if !s.waitReady(ctx, s.waitBound()) {
			_, reason := s.State()
			return nil, &errs.Error{Kind: errs.IndexUnavailable, Msg: "the index is being repaired: " + reason,
				Fixes: []string{"retry in a moment; `cairn status` shows progress"}}
		}
		return s.takeWarnings(), nil
	}
	warning, err := s.ix.Repair(ctx, d)
	if err != nil {
		return nil, err
	}
	if s.ix.Writable() {
		if _, err := s.reconcile(ctx, false); err != nil {
			return nil, err
		}
	}
	return []string{warning}, nil
}

// startRepair repairs in the background (servers); the index state says
// indexing meanwhile.
func (s *Service) startRepair(d *store.Damage) {
	s.mu.Lock()
	if s.repairing {
		s.mu.Unlock()
		return
	}
	s.repairing = true
	s.state, s.reason = protocol.StateIndex, fmt.Sprintf("the %s is damaged (%s) and is being repaired", d.Label(), d.Reason)
	s.mu.Unlock()
	go func() {
		ready := false
		defer func() {
			s.mu.Lock()
			s.repairing = false
			if ready {
				s.state, s.reason = protocol.StateReady, ""
			}
			s.mu.Unlock()
		}()
		ctx := s.bg
		warning, err := s.ix.Repair(ctx, d)
		if err != nil {
			s.setState(protocol.StateFailed, err.Error())
			return
		}
		s.addWarning(warning)
		_, err = s.reconcile(ctx, false)
		ready = err == nil
	}()
}

// damageUnavailable is the answer while a damaged store cannot be used.
func damageUnavailable(d *store.Damage, why string) error {
	return &errs.Error{Kind: errs.IndexUnavailable, Err: d,
		Msg:   fmt.Sprintf("the %s cannot be trusted (%s); %s", d.Label(), d.Reason, why),
		Fixes: []string{"retry in a moment", "cairn status"}}
}

// pending counts the changes on disk that the index has not seen, without
// indexing them (status reports them instead of claiming to be fresh).
func (s *Service) pending(ctx context.Context) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return s.ix.Pending(ctx)
}
