package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/tools"
)

// globals are the flags every command takes.
type globals struct {
	repo      string
	stateDir  string
	json      bool
	timeoutMS int
	stdout    io.Writer
	stderr    io.Writer

	helpMu sync.Mutex                // guards help
	help   map[*cobra.Command]func() // builders of long help not built yet
}

// app is an opened repository.
type app struct {
	svc      *service.Service
	env      *tools.Env
	progress *progress
}

// open locates the repository, loads the configuration and starts a one-shot
// service (it owns the index, or asks the process that does).
func (g *globals) open(ctx context.Context) (*app, error) {
	paths, cfg, err := g.locate(ctx)
	if err != nil {
		return nil, err
	}
	return g.start(ctx, paths, cfg, service.Options{})
}

// start opens the service with progress reported on stderr.
func (g *globals) start(ctx context.Context, paths config.Paths, cfg config.Config, opts service.Options) (*app, error) {
	p := newProgress(g.stderr)
	opts.Progress = p.report
	svc, err := service.Open(ctx, paths, cfg, opts)
	if err != nil {
		return nil, err
	}
	return &app{svc: svc, env: svc.Env(), progress: p}, nil
}

// locateOnly finds the repository's paths without opening anything.
func (g *globals) locateOnly(ctx context.Context) (config.Paths, error) {
	return config.Locate(ctx, g.repo, g.stateDir)
}

// locate finds the repository and its configuration.
func (g *globals) locate(ctx context.Context) (config.Paths, config.Config, error) {
	paths, err := g.locateOnly(ctx)
	if err != nil {
		return paths, config.Config{}, err
	}
	cfg, err := config.Load(paths.Root)
	if err != nil {
		return paths, cfg, err
	}
	if g.timeoutMS > 0 {
		cfg.Query.TimeoutMS = g.timeoutMS
	}
	return paths, cfg, nil
}

// openDegraded is open for commands that must run on a broken setup (doctor):
// a configuration that does not load is replaced by the defaults (doctor
// reports the error), and an index that does not open gives an Env without
// one, on which only tools marked NoIndex answer.
func (g *globals) openDegraded(ctx context.Context) (*app, error) {
	paths, err := g.locateOnly(ctx)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Load(paths.Root)
	if err != nil {
		cfg = config.Default()
	}
	if g.timeoutMS > 0 {
		cfg.Query.TimeoutMS = g.timeoutMS
	}
	a, err := g.start(ctx, paths, cfg, service.Options{})
	if err != nil {
		return &app{env: service.Degraded(paths, cfg, err), progress: newProgress(g.stderr)}, nil
	}
	return a, nil
}

// serve opens a server's logger (defaults when the configuration names no
// output, console the writer of console outputs; see serverLogger) and
// starts the service to serve requests. stop closes the service, then the
// logs.
func (g *globals) serve(ctx context.Context, paths config.Paths, cfg config.Config, defaults []string, console io.Writer) (a *app, log *slog.Logger, stop func(), err error) {
	log, logs, err := serverLogger(cfg, paths.StateDir, defaults, console, g.stderr)
	if err != nil {
		return nil, nil, nil, err
	}
	if a, err = g.start(ctx, paths, cfg, service.Options{Serve: true, Logger: log, Version: Version}); err != nil {
		logs.Close()
		return nil, nil, nil, err
	}
	return a, log, func() { a.close(); logs.Close() }, nil
}

func (a *app) close() {
	a.progress.done()
	if a.svc != nil {
		a.svc.Close()
	}
}

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

func (p *progress) report(pr protocol.Progress) {
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
	if pr.Item != "" {
		msg = pr.Phase // a list of items (test_run's targets) says what it is
	}
	if pr.Total > 0 {
		msg += fmt.Sprintf(" %d/%d", pr.Done, pr.Total)
	}
	if pr.Item != "" {
		msg += ": " + pr.Item
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
