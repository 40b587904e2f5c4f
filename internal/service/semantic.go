package service

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
	"github.com/cairnhq/cairn/internal/tools"
)

// semanticJobs is the service's side of tools.SemanticJobs: the owner of the
// index queues and runs jobs (in the background for servers, in the caller's
// goroutine for one-shot commands that wait); other processes ask the owner.
type semanticJobs struct{ s *Service }

var _ tools.SemanticJobs = semanticJobs{}

// lookPath finds indexer binaries; tests replace it.
var lookPath semantic.LookPath = exec.LookPath

// runner returns the owner's job runner, creating it on first use.
func (s *Service) runner() *semantic.Runner {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jobs == nil {
		s.jobs = semantic.NewRunner(semantic.RunnerOptions{
			Index:    s.ix,
			Head:     s.head,
			Sync:     func(ctx context.Context) error { _, err := s.reconcile(ctx, false); return err },
			Progress: s.opts.Progress,
			LookPath: lookPath,
			Timeout:  time.Duration(s.cfg.Semantic.TimeoutS) * time.Second,
		})
		if s.opts.Serve {
			s.jobs.Start(s.bg)
		}
	}
	return s.jobs
}

// head reads HEAD afresh from the git directory (never cached).
func (s *Service) head(ctx context.Context) string {
	if !s.paths.IsGit {
		return ""
	}
	if h, _, ok := gitx.ReadHead(s.paths.GitDir, s.paths.GitCommon); ok {
		return h
	}
	h, _ := gitx.Head(ctx, s.paths.Root)
	return h
}

func (j semanticJobs) Enqueue(ctx context.Context, reqs []semantic.Request) ([]semantic.Job, error) {
	s := j.s
	if !s.ix.Writable() {
		reply, err := askOwner(ctx, s.paths.StateDir, ownerRequest{Op: "semantic", Semantic: reqs}, 10*time.Second)
		if err != nil {
			return nil, &errs.Error{Kind: errs.IndexUnavailable, Err: err, Msg: fmt.Sprintf("the owning process (pid %d) did not take the semantic jobs", s.ix.Owner())}
		}
		if reply.Error != "" {
			return nil, &errs.Error{Kind: errs.IndexUnavailable, Msg: "the owning process refused the semantic jobs: " + reply.Error}
		}
		return j.read(ctx, reply.Jobs)
	}
	rows, err := s.enqueue(ctx, reqs)
	if err != nil {
		return nil, err
	}
	out := make([]semantic.Job, len(rows))
	for i, r := range rows {
		out[i] = semantic.JobOf(r)
	}
	return out, nil
}

// enqueue queues jobs as the owner and wakes the background runner.
func (s *Service) enqueue(ctx context.Context, reqs []semantic.Request) ([]store.JobRow, error) {
	head := s.head(ctx)
	var out []store.JobRow
	seen := map[int64]bool{}
	db, release := s.ix.Acquire()
	defer release()
	for _, r := range reqs {
		row, err := semantic.Enqueue(ctx, db, head, r, time.Now())
		if err != nil {
			return nil, err
		}
		if !seen[row.ID] {
			seen[row.ID] = true
			out = append(out, row)
		}
	}
	r := s.runner()
	if s.opts.Serve {
		r.Kick()
	}
	return out, nil
}

func (j semanticJobs) read(ctx context.Context, ids []int64) ([]semantic.Job, error) {
	out := make([]semantic.Job, 0, len(ids))
	db, release := j.s.ix.Acquire()
	defer release()
	for _, id := range ids {
		row, ok, err := db.Job(ctx, id)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, semantic.JobOf(row))
		}
	}
	return out, nil
}

func (j semanticJobs) Wait(ctx context.Context, ids []int64) ([]semantic.Job, error) {
	s := j.s
	if s.ix.Writable() && !s.opts.Serve {
		// A one-shot command: run the queue here, reporting progress.
		s.runner().RunQueued(ctx)
	}
	report := tools.ProgressFrom(ctx) // the request's own progress (MCP notifications)
	for {
		jobs, err := j.read(context.WithoutCancel(ctx), ids)
		if err != nil {
			return nil, err
		}
		done := true
		finished, line := 0, ""
		for _, job := range jobs {
			switch job.Status {
			case semantic.JobQueued, semantic.JobRunning:
				done = false
				if line == "" && job.Progress != "" {
					line = job.Indexer + ": " + job.Progress
				}
			default:
				finished++
			}
		}
		if report != nil {
			report(index.Progress{Phase: "semantic jobs " + line, Done: finished, Total: len(jobs)})
		}
		if done {
			return jobs, nil
		}
		select {
		case <-ctx.Done():
			return jobs, nil // the caller's deadline: report where the jobs are
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (j semanticJobs) Detect(ctx context.Context) ([]semantic.Detected, error) {
	db, release := j.s.ix.Acquire()
	defer release()
	return semantic.Detect(ctx, db, j.s.paths.Root, lookPath)
}

// autoRefresh re-runs the indexer of every imported index that covers a
// changed file (semantic.auto_refresh): changed files widen the queued job's
// scope; a full reconcile (HEAD moved) asks for the whole project, which
// supersedes the jobs of the old HEAD.
func (s *Service) autoRefresh(ctx context.Context, paths []string, full bool) {
	db, release := s.ix.Acquire()
	idxs, err := db.SemIndexes(ctx)
	release()
	if err != nil {
		return
	}
	var reqs []semantic.Request
	for _, x := range idxs {
		name, root, ok := strings.Cut(x.Key, ":")
		ix := semantic.IndexerByName(name)
		if !ok || ix == nil || !ix.Runnable {
			continue // an imported file: only its producer can refresh it
		}
		r := semantic.Request{Indexer: name, Root: root, Trigger: "file_changed"}
		if full {
			r.Trigger = "head_changed"
		} else {
			for _, p := range paths {
				l := lang.ForPath(p)
				if l != nil && slices.Contains(ix.Langs, l.Name) && (root == "" || strings.HasPrefix(p, root+"/")) {
					r.Files = append(r.Files, p)
				}
			}
			if len(r.Files) == 0 {
				continue
			}
		}
		reqs = append(reqs, r)
	}
	if len(reqs) > 0 {
		s.enqueue(ctx, reqs)
	}
}
