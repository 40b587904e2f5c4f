package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/store"
	"github.com/cairnhq/cairn/internal/tools"

	// The languages Cairn understands.
	_ "github.com/cairnhq/cairn/internal/lang/all"
)

// globals are the flags every command takes.
type globals struct {
	repo      string
	stateDir  string
	json      bool
	timeoutMS int
	stdout    io.Writer
	stderr    io.Writer
}

// app is an opened repository.
type app struct {
	paths config.Paths
	cfg   config.Config
	ix    *index.Index
	env   *tools.Env
}

// open locates the repository, loads the configuration and opens the index.
func (g *globals) open(ctx context.Context) (*app, error) {
	paths, err := config.Locate(ctx, g.repo, g.stateDir)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Load(paths.Root)
	if err != nil {
		return nil, err
	}
	if g.timeoutMS > 0 {
		cfg.Query.TimeoutMS = g.timeoutMS
	}
	ix, err := index.Open(ctx, paths, cfg)
	if err != nil {
		return nil, err
	}
	a := &app{paths: paths, cfg: cfg, ix: ix}
	progress := newProgress(g.stderr)
	openWarnings := ix.Warnings
	a.env = &tools.Env{
		Index: ix, Engine: query.New(ix), Config: cfg, Progress: progress.report,
		Fresh: func(ctx context.Context, rehash bool) tools.Freshness {
			warnings := openWarnings
			openWarnings = nil
			if !ix.Writable() {
				st, _ := ix.State(ctx)
				f := tools.Freshness{Freshness: protocol.MayBeStale, IndexState: protocol.StateReady,
					Warnings: append(warnings, fmt.Sprintf("another Cairn process (pid %d) owns the index; answering from its last completed epoch", ix.Owner()))}
				if !st.Built {
					f.Err = &errs.Error{Kind: errs.IndexUnavailable, Msg: fmt.Sprintf("the index is being built by process %d", ix.Owner()),
						Fixes: []string{"retry in a moment"}}
				}
				return f
			}
			_, err := ix.Reconcile(ctx, index.ReconcileOptions{Rehash: rehash, Progress: progress.report})
			progress.done()
			if err != nil {
				if store.IsCorrupt(err) && ix.Rebuild(ctx) == nil {
					_, err = ix.Reconcile(ctx, index.ReconcileOptions{Progress: progress.report})
					progress.done()
					warnings = append(warnings, "the index was damaged and has been rebuilt")
				}
				if err != nil {
					return tools.Freshness{Err: err}
				}
			}
			return tools.Freshness{Freshness: protocol.Fresh, IndexState: protocol.StateReady, Warnings: warnings}
		},
		Recover: func(ctx context.Context, err error) bool {
			return store.IsCorrupt(err) && ix.Writable() && ix.Rebuild(ctx) == nil
		},
	}
	return a, nil
}

func (a *app) close() { a.ix.Close() }

// progress prints long work to stderr: live on a terminal, every few seconds
// otherwise, and nothing for work that finishes within a second.
type progress struct {
	mu    sync.Mutex // guards the fields below
	w     io.Writer
	tty   bool
	start time.Time
	last  time.Time
	shown bool
}

func newProgress(w io.Writer) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return &progress{w: w, tty: tty}
}

func (p *progress) report(pr index.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.start.IsZero() {
		p.start = now
	}
	if now.Sub(p.start) < time.Second {
		return
	}
	every := 2 * time.Second
	if p.tty {
		every = 200 * time.Millisecond
	}
	if now.Sub(p.last) < every {
		return
	}
	p.last = now
	p.shown = true
	msg := "indexing: " + pr.Phase
	if pr.Total > 0 {
		msg += fmt.Sprintf(" %d/%d", pr.Done, pr.Total)
	}
	msg += fmt.Sprintf(" (%.0fs)", now.Sub(p.start).Seconds())
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", msg)
	} else {
		fmt.Fprintln(p.w, msg)
	}
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown && p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
	p.start, p.shown = time.Time{}, false
}
