// Package service runs Cairn for one repository. A Service either owns the
// index (writer lock, owner socket, and for servers a file watcher) or borrows
// it from the process that owns it, asking that owner to reconcile before it
// reads. It keeps the index fresh and gives the tools their Env. Adapters (CLI,
// MCP, HTTP) start one and call tools through it; it never formats responses.
package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
	"github.com/cairnhq/cairn/internal/tools"

	// The languages Cairn understands: every process that runs the service
	// indexes with all of them.
	"github.com/cairnhq/cairn/internal/change"
	_ "github.com/cairnhq/cairn/internal/lang/all"
)

// Options controls a Service.
type Options struct {
	// Serve makes a long-running server: the first index builds in the
	// background, a watcher keeps it fresh, other processes are answered.
	Serve bool
	// Progress receives progress of long work (may be nil).
	Progress func(index.Progress)
	// Logger receives a server's logs, one line per call among them (nil:
	// discarded); Version is shown on its dashboard.
	Logger  *slog.Logger
	Version string
	// SafetyScan is how often a server rescans the whole tree for changes
	// its watcher missed (dropped events, an overflowed queue, a directory
	// it could not watch); 0 means every 5 minutes.
	SafetyScan time.Duration
	// BeforeWatch, when set (tests), runs between the first index and the
	// start of the watcher: where a change raises no event.
	BeforeWatch func()
}

// Service is Cairn running for one repository.
type Service struct {
	paths config.Paths
	cfg   config.Config
	opts  Options

	ix     *index.Index // never replaced: a takeover promotes it in place
	engine *query.Engine
	trims  atomic.Int64 // memory given back after bursts of calls (trim.go)
	// lastInfo is the index state the metrics last read (indexInfo).
	lastInfo atomic.Pointer[obs.IndexInfo]
	// writes counts the writes under way (writing): the watcher holds its
	// batches meanwhile.
	writes atomic.Int64

	mu        sync.Mutex // guards the fields below
	repairing bool       // a background repair of a damaged store runs
	state     string     // indexing, ready, stale, failed
	reason    string
	warnings  []string // from opening, shown once
	owner     *ownerServer
	watch     *watcher
	jobs      *semantic.Runner // semantic indexer jobs, created when first needed (owner only)
	ops       *obs.Monitor     // tasks, ledger and metrics of a serving process; set before any call

	env    *tools.Env
	bg     context.Context // lives until Close: background work
	cancel context.CancelFunc
	done   chan struct{} // closed when background work has stopped
}

// Open starts a Service: it takes the writer lock when it can, else it reads
// and asks the owning process for freshness.
func Open(ctx context.Context, paths config.Paths, cfg config.Config, opts Options) (*Service, error) {
	recovered := recoverWrites(ctx, paths, cfg)
	ix, err := index.OpenWith(ctx, paths, cfg, index.OpenOptions{Serving: opts.Serve})
	if err != nil {
		return nil, err
	}
	bg, cancel := context.WithCancel(context.Background())
	s := &Service{paths: paths, cfg: cfg, opts: opts, ix: ix, engine: query.New(ix), warnings: append(recovered, ix.Warnings...),
		bg: bg, cancel: cancel, done: make(chan struct{})}
	st, _ := ix.State(ctx)
	s.state = protocol.StateReady
	switch {
	case st.Built:
	case opts.Serve && len(ix.Warnings) > 0:
		s.state, s.reason = protocol.StateIndex, strings.Join(ix.Warnings, "; ")+"; the index is being built again"
	case opts.Serve || !ix.Writable():
		// This server builds it now, or the process that owns it does.
		s.state, s.reason = protocol.StateIndex, "the first index is being built"
	case len(ix.Warnings) > 0:
		// A one-shot command found the index unusable (written by another
		// version of Cairn, or damaged) and emptied it: say why.
		s.state, s.reason = protocol.StateStale, strings.Join(ix.Warnings, "; ")+"; the next query or `cairn index` builds it"
	default:
		// A one-shot command that owns the index: nothing builds it until
		// a query (or `cairn index`) does, e.g. after a build was killed.
		s.state, s.reason = protocol.StateStale, "no complete index yet (an earlier build did not finish); the next query or `cairn index` builds it"
	}
	s.env = &tools.Env{
		Index: ix, Engine: s.engine, Changes: change.NewCache(), Config: cfg, Paths: paths, Progress: opts.Progress,
		Reads:   tools.NewReadBudget(cfg.Read.SessionBudgetKiB << 10),
		Fresh:   s.fresh,
		Intact:  s.intact,
		Recover: s.recover,
		Pending: s.pending,
		State:   s.State,
		Jobs:    semanticJobs{s},
		Reindex: s.reindex,
		Writing: s.writing,
		Caches:  s.caches,
	}
	if opts.Serve && cfg.Query.CacheMB > 0 {
		// A one-shot command answers once: only servers keep answers.
		s.env.Answers = tools.NewAnswers(int64(cfg.Query.CacheMB) << 20)
	}
	if opts.Serve {
		s.startOps(ctx)
	}
	if ix.Writable() {
		if err := s.becomeOwner(bg); err != nil {
			s.Close()
			return nil, err
		}
	} else {
		close(s.done)
	}
	return s, nil
}

// becomeOwner starts what the owner of the index runs: the socket other
// processes ask, and for servers the background build and the watcher.
func (s *Service) becomeOwner(bg context.Context) error {
	o, err := listenOwner(s.paths.StateDir, s)
	if err != nil {
		s.warnings = append(s.warnings, "cannot listen for other Cairn processes: "+err.Error())
	}
	s.owner = o
	db, release := s.ix.Acquire()
	semantic.RecoverJobs(bg, db, time.Now())
	if s.opts.Serve {
		// Jobs queued by a process that ended before running them run now.
		if q, err := db.QueuedJobs(bg); err == nil && len(q) > 0 {
			go s.runner()
		}
	}
	release()
	if !s.opts.Serve {
		close(s.done)
		return nil
	}
	go func() {
		defer close(s.done)
		if _, err := s.reconcile(bg, false); err != nil {
			return
		}
		if s.opts.BeforeWatch != nil {
			s.opts.BeforeWatch()
		}
		w := startWatcher(bg, s)
		s.mu.Lock()
		s.watch = w // published under mu: calls read it concurrently
		s.mu.Unlock()
		go s.trimWhenIdle(bg)
		if w != nil {
			<-bg.Done()
		}
	}()
	return nil
}

// watcher is the file watcher, nil until the first index is built (or when
// the system refused one).
func (s *Service) watcher() *watcher {
	s.mu.Lock()
	w := s.watch
	s.mu.Unlock()
	if w != nil && w.dead.Load() {
		return nil // it stopped: every call rescans, as without a watcher
	}
	return w
}

// Env is what the tools run against.
func (s *Service) Env() *tools.Env { return s.env }

// Degraded is the Env for a repository whose index could not be opened (err
// says why): only tools that run without an index (doctor) answer from it.
func Degraded(paths config.Paths, cfg config.Config, err error) *tools.Env {
	return &tools.Env{Paths: paths, Config: cfg, IndexErr: err, Reads: tools.NewReadBudget(cfg.Read.SessionBudgetKiB << 10)}
}

// Paths is where the repository and its state live.
func (s *Service) Paths() config.Paths { return s.paths }

// Config is the configuration in effect.
func (s *Service) Config() config.Config { return s.cfg }

// Owner reports whether this process owns the index.
func (s *Service) Owner() bool { return s.ix.Writable() }

// State is the index state and why (for status and provenance).
func (s *Service) State() (string, string) {
	s.mu.Lock()
	state, reason, ix := s.state, s.reason, s.ix
	s.mu.Unlock()
	if state == protocol.StateIndex && !ix.Writable() {
		// Another process builds the first index; this one never reconciles,
		// so it learns that the build is done from the index itself.
		if st, err := ix.State(context.Background()); err == nil && st.Built {
			s.setState(protocol.StateReady, "")
			return protocol.StateReady, ""
		}
	}
	return state, reason
}

// Ready reports whether queries can be answered from a built index.
func (s *Service) Ready() (bool, string) {
	st, reason := s.State()
	switch st {
	case protocol.StateReady:
		return true, reason
	case protocol.StateStale:
		// Behind the tree, but answering — unless nothing was ever built.
		ist, err := s.ix.State(context.Background())
		return err == nil && ist.Built, reason
	}
	return false, reason
}

func (s *Service) setState(state, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.repairing && state == protocol.StateReady {
		// Another reconcile (the watcher's) finished on the store being
		// repaired: the repair says when the index is ready again.
		return
	}
	s.state, s.reason = state, reason
}

// Close stops background work and releases the index.
func (s *Service) Close() error {
	s.cancel()
	if s.owner != nil {
		s.owner.close()
	}
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
	}
	if w := s.watcher(); w != nil {
		w.close()
	}
	if s.ops != nil {
		s.ops.Close()
	}
	return s.ix.Close()
}

// reconcile runs a reconcile as the owner and tracks the index state. A
// store found damaged on the way is repaired and the reconcile run again.
func (s *Service) reconcile(ctx context.Context, rehash bool) (*index.Stats, error) {
	defer s.observeReconcile("full", time.Now())
	st, err := s.ix.Reconcile(ctx, index.ReconcileOptions{Rehash: rehash, Progress: s.opts.Progress})
	if err != nil && store.IsCorrupt(err) && ctx.Err() == nil {
		if warning, rerr := s.ix.Repair(ctx, s.ix.Diagnose(ctx, err)); rerr == nil {
			s.addWarning(warning)
			st, err = s.ix.Reconcile(ctx, index.ReconcileOptions{Progress: s.opts.Progress})
		}
	}
	switch {
	case err == nil:
		s.setState(protocol.StateReady, "")
	case ctx.Err() != nil:
	default:
		s.setState(protocol.StateFailed, err.Error())
	}
	return st, err
}

func (s *Service) addWarning(w string) {
	s.mu.Lock()
	s.warnings = append(s.warnings, w)
	s.mu.Unlock()
}

func (s *Service) takeWarnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.warnings
	s.warnings = nil
	return w
}

// waitBound is how long a query waits for changes seen before it arrived.
func (s *Service) waitBound() time.Duration {
	return time.Duration(s.cfg.Query.FreshnessWaitMS) * time.Millisecond
}

// fresh makes the index current for one call (DESIGN §6a "Processes").
func (s *Service) fresh(ctx context.Context, rehash bool) tools.Freshness {
	f := tools.Freshness{Freshness: protocol.Fresh, IndexState: protocol.StateReady, Warnings: s.takeWarnings()}
	switch {
	case s.ix.Writable() && s.opts.Serve:
		return s.freshServing(ctx, rehash, f)
	case s.ix.Writable():
		if _, err := s.reconcile(ctx, rehash); err != nil {
			f.Err = err
		}
		return f
	}
	return s.freshFromOwner(ctx, rehash, f)
}

// freshServing waits (bounded) until every change the watcher saw before the
// call arrived is indexed.
func (s *Service) freshServing(ctx context.Context, rehash bool, f tools.Freshness) tools.Freshness {
	bound := s.waitBound()
	if ready, reason := s.Ready(); !ready {
		if !s.waitReady(ctx, bound) {
			state, _ := s.State()
			f.IndexState = state
			f.Err = &errs.Error{Kind: errs.IndexUnavailable, Msg: "the index is not ready yet: " + reason,
				Fixes: []string{"retry in a moment; `cairn status` shows progress"}}
			return f
		}
	}
	w := s.watcher()
	if w == nil {
		// No watcher (the system refused one, or it is not started yet):
		// every call rescans.
		if _, err := s.reconcile(ctx, rehash); err != nil {
			f.Err = err
		}
		return f
	}
	if rehash {
		if _, err := s.reconcile(ctx, true); err != nil {
			f.Err = err
		}
		return f
	}
	if !w.waitSeen(ctx, bound) {
		f.Freshness = protocol.MayBeStale
		f.IndexState = protocol.StateStale
		f.Warnings = append(f.Warnings, fmt.Sprintf("changes seen before this call were not indexed within %s; answering from epoch %d", bound, s.epoch(ctx)))
	}
	if state, reason := s.State(); state == protocol.StateFailed {
		f.IndexState = state
		f.Warnings = append(f.Warnings, "the last reindex failed: "+reason)
	}
	return f
}

func (s *Service) waitReady(ctx context.Context, bound time.Duration) bool {
	deadline := time.Now().Add(bound)
	for time.Now().Before(deadline) {
		if ready, _ := s.Ready(); ready {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	ready, _ := s.Ready()
	return ready
}

func (s *Service) epoch(ctx context.Context) int64 {
	st, _ := s.ix.State(ctx)
	return st.Epoch
}

// freshFromOwner asks the owning process to reconcile and waits (bounded) for
// it; when the owner is gone this process takes over.
func (s *Service) freshFromOwner(ctx context.Context, rehash bool, f tools.Freshness) tools.Freshness {
	bound := s.waitBound()
	reply, err := askOwner(ctx, s.paths.StateDir, ownerRequest{Op: "sync", Rehash: rehash}, bound)
	if err == nil && reply.Error == "" {
		if reply.State != "" && reply.State != protocol.StateReady {
			f.IndexState = reply.State
		}
		return f
	}
	if errors.Is(err, errNoOwner) && s.takeOver(ctx) {
		return s.fresh(ctx, rehash)
	}
	st, _ := s.ix.State(ctx)
	why := "the owner did not answer"
	switch {
	case err != nil && errors.Is(err, context.DeadlineExceeded):
		why = fmt.Sprintf("the owning process did not confirm within %s", bound)
	case err != nil:
		why = err.Error()
	case reply.Error != "":
		why = "the owner failed to reindex: " + reply.Error
	}
	f.Freshness = protocol.MayBeStale
	f.Warnings = append(f.Warnings, fmt.Sprintf("another Cairn process (pid %d) owns the index and %s; answering from epoch %d", s.ix.Owner(), why, st.Epoch))
	if !st.Built {
		f.IndexState = protocol.StateIndex
		f.Err = &errs.Error{Kind: errs.IndexUnavailable, Msg: fmt.Sprintf("the index is being built by process %d", s.ix.Owner()),
			Fixes: []string{"retry in a moment"}}
	}
	return f
}

// takeOver makes this process the owner after the previous owner died. The
// index is promoted in place: requests in flight keep the store they pinned,
// new ones get the writable one.
func (s *Service) takeOver(ctx context.Context) bool {
	s.mu.Lock()
	ok, err := s.ix.Promote(ctx)
	if err != nil || !ok {
		s.mu.Unlock()
		return false
	}
	s.jobs = nil // the runner of the reader must not be reused
	s.mu.Unlock()
	// Not under mu: calls in flight on the promoted store hold its
	// connections (at most 4) while they wait for mu to read the state, so
	// a write here under mu would wait for them forever.
	db, release := s.ix.Acquire()
	semantic.RecoverJobs(ctx, db, time.Now())
	release()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.owner == nil {
		if o, err := listenOwner(s.paths.StateDir, s); err == nil {
			s.owner = o
		}
	}
	return true
}

// handleSync answers another process's request for freshness.
func (s *Service) handleSync(ctx context.Context, req ownerRequest) ownerReply {
	var err error
	if d := s.ix.Check(); d != nil {
		if _, rerr := s.repair(ctx, d); rerr != nil {
			st, _ := s.State()
			return ownerReply{State: st, Error: errs.As(rerr).Message(), Epoch: s.epoch(ctx), PID: os.Getpid()}
		}
	}
	switch {
	case s.opts.Serve && s.watcher() != nil && !req.Rehash:
		if !s.watcher().waitSeen(ctx, s.waitBound()) {
			err = errors.New("changes are still being indexed")
		}
	default:
		if ready, _ := s.Ready(); !ready && s.opts.Serve {
			if !s.waitReady(ctx, s.waitBound()) {
				st, reason := s.State()
				return ownerReply{State: st, Error: reason, Epoch: s.epoch(ctx)}
			}
			break
		}
		_, err = s.reconcile(ctx, req.Rehash)
	}
	st, _ := s.State()
	r := ownerReply{Epoch: s.epoch(ctx), State: st, PID: os.Getpid()}
	if err != nil {
		r.Error = err.Error()
	}
	return r
}
