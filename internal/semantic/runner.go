package semantic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/store"
)

// RunnerOptions connects the job runner to its repository.
type RunnerOptions struct {
	Index *index.Index
	// Head reads HEAD afresh (never a cached value).
	Head func(ctx context.Context) string
	// Sync brings the syntactic index up to date (the owner's reconcile).
	Sync func(ctx context.Context) error
	// Progress receives progress of the running job (may be nil).
	Progress func(index.Progress)
	// LookPath finds indexer binaries (exec.LookPath when nil).
	LookPath LookPath
	// Timeout bounds one indexer run (default 30 minutes).
	Timeout time.Duration
	// NoteEvery is how often a running job's progress message is saved
	// (default 2 s); ProgressEvery is the import's progress step in rows
	// (ImportOptions.ProgressEvery). Tests make both small.
	NoteEvery     time.Duration
	ProgressEvery int
}

// Runner runs queued jobs one at a time.
type Runner struct {
	o    RunnerOptions
	kick chan struct{}

	mu      sync.Mutex // guards running
	running bool
}

// NewRunner returns a runner; Start runs it in the background, RunQueued in
// the caller's goroutine.
func NewRunner(o RunnerOptions) *Runner {
	if o.LookPath == nil {
		o.LookPath = exec.LookPath
	}
	if o.NoteEvery <= 0 {
		o.NoteEvery = 2 * time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Minute
	}
	if o.Progress == nil {
		o.Progress = func(index.Progress) {}
	}
	return &Runner{o: o, kick: make(chan struct{}, 1)}
}

// Kick wakes the background loop.
func (r *Runner) Kick() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// Start runs queued jobs in the background until ctx ends.
func (r *Runner) Start(ctx context.Context) {
	go func() {
		for {
			r.RunQueued(ctx)
			select {
			case <-ctx.Done():
				return
			case <-r.kick:
			}
		}
	}()
	r.Kick()
}

// RunQueued runs every queued job, oldest first, until none is left. Only
// one call runs at a time; a concurrent call returns at once.
func (r *Runner) RunQueued(ctx context.Context) {
	r.mu.Lock()
	if r.running {
		r.mu.Unlock()
		return
	}
	r.running = true
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.running = false
		r.mu.Unlock()
	}()
	for ctx.Err() == nil {
		if !r.runNext(ctx) {
			return
		}
	}
}

// runNext claims and runs the oldest queued job; false when there is none.
// It pins the store for the job (a repair swapping it meanwhile closes the
// old one only after).
func (r *Runner) runNext(ctx context.Context) bool {
	db, release := r.o.Index.Acquire()
	defer release()
	queued, err := db.QueuedJobs(ctx)
	if err != nil || len(queued) == 0 {
		return false
	}
	j, ok, err := Claim(ctx, db, queued[0].ID, time.Now())
	if err != nil {
		return false
	}
	if !ok {
		return true
	}
	stats, runErr := r.run(ctx, j)
	if ctx.Err() != nil && runErr != nil {
		runErr = fmt.Errorf("interrupted: %w", runErr)
	}
	Finish(context.WithoutCancel(ctx), db, j.ID, stats, runErr, time.Now())
	db.PruneJobs(context.WithoutCancel(ctx), 200)
	return true
}

// run executes one claimed job: index (unless it imports a given file),
// then import in one transaction after a fresh HEAD check.
func (r *Runner) run(ctx context.Context, j store.JobRow) (*ImportStats, error) {
	db, release := r.o.Index.Acquire()
	defer release()
	root := r.o.Index.Paths().Root
	phase := func(p string, done, total int) {
		r.o.Progress(index.Progress{Phase: "semantic " + j.Indexer + ": " + p, Done: done, Total: total})
	}
	var lastSaved time.Time
	note := func(msg string) {
		if time.Since(lastSaved) >= r.o.NoteEvery {
			lastSaved = time.Now()
			db.SetJobProgress(context.WithoutCancel(ctx), j.ID, msg)
		}
	}
	if r.o.Sync != nil {
		phase("sync", 0, 0)
		if err := r.o.Sync(ctx); err != nil {
			return nil, fmt.Errorf("bring the index up to date: %w", err)
		}
	}
	opts := ImportOptions{Key: j.Key, Source: fmt.Sprintf("job:%d", j.ID), Head: j.Head, HeadKnown: true}
	if j.Indexer == IndexerFile {
		opts.Path, opts.HeadKnown = FilePath(root, j.Root), false
	} else {
		ix := IndexerByName(j.Indexer)
		if ix == nil || !ix.Runnable {
			//lint:ignore ST1005 the message starts with the product's name
			return nil, fmt.Errorf("Cairn does not run %s; import its .scip output with semantic.scip_paths", j.Indexer)
		}
		bin, err := r.o.LookPath(ix.Name)
		if err != nil {
			return nil, fmt.Errorf("%s is not installed (%s)", ix.Name, ix.Install)
		}
		before, err := hashFiles(ctx, db, root, j.Root)
		if err != nil {
			return nil, err
		}
		dir := filepath.Join(r.o.Index.Paths().StateDir, "semantic")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		out := filepath.Join(dir, fmt.Sprintf("job-%d.scip", j.ID))
		defer os.Remove(out)
		name := path.Base(j.Root)
		if j.Root == "" {
			name = filepath.Base(root)
		}
		version := "0"
		if len(j.Head) >= 12 {
			version = j.Head[:12]
		}
		if err := r.exec(ctx, bin, ix.Args(out, name, version), filepath.Join(root, filepath.FromSlash(j.Root)), phase, note); err != nil {
			return nil, err
		}
		if r.o.Sync != nil {
			if err := r.o.Sync(ctx); err != nil {
				return nil, fmt.Errorf("bring the index up to date: %w", err)
			}
		}
		opts.Path, opts.Before = out, before
	}
	opts.ProgressEvery = r.o.ProgressEvery
	opts.Progress = func(p string, done, total int) {
		phase("import "+p, done, total)
		if p == "write" {
			// The import's own transaction holds the database (and its
			// seal) until it commits: saving the note now would wait on
			// that transaction for ever.
			return
		}
		note(fmt.Sprintf("importing: %s %d/%d", p, done, total))
	}
	opts.BeforeWrite = func() error {
		head := ""
		if r.o.Head != nil {
			head = r.o.Head(ctx)
		}
		if !opts.HeadKnown {
			return CheckCurrent(ctx, db, j.ID, j.Head, time.Now())
		}
		return CheckCurrent(ctx, db, j.ID, head, time.Now())
	}
	return Import(ctx, r.o.Index, opts)
}

// exec runs an indexer, reporting progress while it works; the tail of its
// output explains a failure.
func (r *Runner) exec(ctx context.Context, bin string, args []string, dir string, phase func(string, int, int), note func(string)) error {
	ctx, cancel := context.WithTimeout(ctx, r.o.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var tail tailBuffer
	cmd.Stdout, cmd.Stderr = &tail, &tail
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", filepath.Base(bin), err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				if errors.Is(ctx.Err(), context.DeadlineExceeded) {
					return fmt.Errorf("%s did not finish within %s", filepath.Base(bin), r.o.Timeout)
				}
				return fmt.Errorf("%s failed: %v: %s", filepath.Base(bin), err, tail.String())
			}
			return nil
		case <-tick.C:
			secs := int(time.Since(start).Seconds())
			phase("indexing", secs, 0)
			note(fmt.Sprintf("running %s (%ds)", filepath.Base(bin), secs))
		}
	}
}

// hashFiles hashes, from disk, every indexed file under a project root: the
// content the indexer is about to see.
func hashFiles(ctx context.Context, db *store.DB, root, under string) (map[string]store.Hash, error) {
	prefix := under
	if prefix != "" {
		prefix += "/"
	}
	files, err := db.FilesUnder(ctx, prefix)
	if err != nil {
		return nil, err
	}
	out := make(map[string]store.Hash, len(files))
	for _, f := range files {
		if f.Lang == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
		if err != nil {
			continue
		}
		out[f.Path] = store.Hash(xxh3.Hash128(data).Bytes())
	}
	return out, nil
}

// tailBuffer keeps the last few KiB of a process's output.
type tailBuffer struct {
	mu  sync.Mutex // guards buf
	buf []byte
}

const tailMax = 4 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailMax {
		t.buf = t.buf[len(t.buf)-tailMax:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(bytes.ToValidUTF8(t.buf, nil)))
}

// FilePath is where a user-supplied .scip file is: p itself when absolute,
// else p below the repository's root.
func FilePath(root, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(root, filepath.FromSlash(p))
}
