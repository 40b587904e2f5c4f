package semantic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/cairnhq/cairn/internal/bug"
	"github.com/cairnhq/cairn/internal/store"
)

// Job states.
const (
	JobQueued     = "queued"
	JobRunning    = "running"
	JobCompleted  = "completed"
	JobFailed     = "failed"
	JobSuperseded = "superseded"
)

// IndexerFile is the pseudo-indexer of a user-supplied .scip file: its job
// imports the file without running anything.
const IndexerFile = "scip-file"

// Request asks for a semantic refresh of one project.
type Request struct {
	Indexer string   // an Indexers name, or IndexerFile
	Root    string   // the project's repo-relative root (the .scip path for IndexerFile)
	Files   []string // the files that need refreshing; nil: the whole project
	Trigger string   // why: user, file_changed, ...
}

// Key is the queue key: one running and one queued job per key at most.
func (r Request) Key() string {
	if r.Indexer == IndexerFile {
		return "scip:" + r.Root
	}
	return r.Indexer + ":" + r.Root
}

// Job is a job as tools report it.
type Job struct {
	ID         int64           `json:"id"`
	Indexer    string          `json:"indexer"`
	Root       string          `json:"root"`
	Status     string          `json:"status"`
	Scope      []string        `json:"scope,omitempty"` // files; absent for the whole project
	Trigger    string          `json:"trigger"`
	Head       string          `json:"head,omitempty"`
	CreatedAt  string          `json:"created_at"`
	StartedAt  string          `json:"started_at,omitempty"`
	FinishedAt string          `json:"finished_at,omitempty"`
	Progress   string          `json:"progress,omitempty"`
	Error      string          `json:"error,omitempty"`
	Reason     string          `json:"superseded_reason,omitempty"`
	Stats      json.RawMessage `json:"stats,omitempty"`
}

// JobOf converts a stored job.
func JobOf(j store.JobRow) Job {
	out := Job{ID: j.ID, Indexer: j.Indexer, Root: j.Root, Status: j.Status, Trigger: j.Trigger, Head: j.Head,
		CreatedAt: stamp(j.CreatedAt), StartedAt: stamp(j.StartedAt), FinishedAt: stamp(j.FinishedAt), Progress: j.Progress,
		Error: j.Error, Reason: j.Reason}
	out.Scope = decodeScope(j.Scope)
	if j.Stats != "" {
		out.Stats = json.RawMessage(j.Stats)
	}
	return out
}

func stamp(unix int64) string {
	if unix == 0 {
		return ""
	}
	return time.Unix(unix, 0).UTC().Format(time.RFC3339)
}

// Scope lattice: nil is the whole project and absorbs every file list; two
// file lists merge into their union. Scopes only ever widen.
func mergeScopes(a, b []string) []string {
	if a == nil || b == nil {
		return nil
	}
	set := map[string]bool{}
	for _, f := range a {
		set[f] = true
	}
	for _, f := range b {
		set[f] = true
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func encodeScope(s []string) string {
	if s == nil {
		return ""
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func decodeScope(s string) []string {
	if s == "" {
		return nil
	}
	out := []string{}
	bug.Unmarshal([]byte(s), &out, "semantic: job scope") // written by Enqueue
	return out
}

// Enqueue adds a refresh job or folds the request into an active one
// (CodePlane SI §"Refresh Enqueue"): for the same HEAD, a queued job's scope
// widens to cover the request; a running job keeps running and the request
// waits in one queued job behind it; a job enqueued at another HEAD is
// superseded. It returns the job that will serve the request.
func Enqueue(ctx context.Context, db *store.DB, head string, r Request, now time.Time) (store.JobRow, error) {
	var out store.JobRow
	if r.Trigger == "" {
		r.Trigger = "user"
	}
	if r.Files != nil {
		r.Files = mergeScopes(r.Files, []string{})
	}
	err := db.UpdateJobs(ctx, func(t *store.JobTx) error {
		active, err := t.Active(ctx, r.Key())
		if err != nil {
			return err
		}
		var queued, running *store.JobRow
		for i := range active {
			j := &active[i]
			if j.Head != head {
				j.Status, j.Reason, j.FinishedAt = JobSuperseded, "head_changed", now.Unix()
				if err := t.Update(ctx, *j); err != nil {
					return err
				}
				continue
			}
			if j.Status == JobQueued {
				queued = j
			} else {
				running = j
			}
		}
		if queued == nil && running != nil && r.Files == nil && decodeScope(running.Scope) == nil && r.Trigger == "user" {
			// A whole-project run at this HEAD is under way: it serves the request.
			out = *running
			return nil
		}
		if queued != nil {
			widened := mergeScopes(decodeScope(queued.Scope), r.Files)
			if s := encodeScope(widened); s != queued.Scope {
				queued.Scope = s
				if err := t.Update(ctx, *queued); err != nil {
					return err
				}
			}
			out = *queued
			return nil
		}
		j := store.JobRow{Key: r.Key(), Indexer: r.Indexer, Root: r.Root, Status: JobQueued, Scope: encodeScope(r.Files),
			Trigger: r.Trigger, Head: head, CreatedAt: now.Unix()}
		id, err := t.Insert(ctx, j)
		if err != nil {
			return err
		}
		j.ID = id
		out = j
		return nil
	})
	return out, err
}

// Claim moves a queued job to running; false when it is no longer queued
// (superseded, or claimed by another runner).
func Claim(ctx context.Context, db *store.DB, id int64, now time.Time) (store.JobRow, bool, error) {
	var out store.JobRow
	claimed := false
	err := db.UpdateJobs(ctx, func(t *store.JobTx) error {
		j, ok, err := t.Get(ctx, id)
		if err != nil || !ok || j.Status != JobQueued {
			return err
		}
		j.Status, j.StartedAt = JobRunning, now.Unix()
		if err := t.Update(ctx, j); err != nil {
			return err
		}
		out, claimed = j, true
		return nil
	})
	return out, claimed, err
}

// ErrSuperseded abandons a job whose HEAD moved on.
var ErrSuperseded = errors.New("semantic: job superseded")

// CheckCurrent is the fresh check right before an import: the job must
// still be running and HEAD (read again now, never a cached value) must
// still be the HEAD it was enqueued at. It marks the job superseded when not.
func CheckCurrent(ctx context.Context, db *store.DB, id int64, head string, now time.Time) error {
	var stale error
	err := db.UpdateJobs(ctx, func(t *store.JobTx) error {
		j, ok, err := t.Get(ctx, id)
		if err != nil {
			return err
		}
		switch {
		case !ok:
			stale = fmt.Errorf("%w: job %d vanished", ErrSuperseded, id)
		case j.Status == JobSuperseded:
			stale = fmt.Errorf("%w: %s", ErrSuperseded, j.Reason)
		case j.Status != JobRunning:
			stale = fmt.Errorf("%w: job is %s", ErrSuperseded, j.Status)
		case j.Head != head:
			j.Status, j.FinishedAt = JobSuperseded, now.Unix()
			j.Reason = fmt.Sprintf("head_changed_during_run: HEAD moved from %.12s to %.12s while the indexer ran", j.Head, head)
			stale = fmt.Errorf("%w: %s", ErrSuperseded, j.Reason)
			return t.Update(ctx, j)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return stale
}

// Finish records how a running job ended: completed with stats, failed with
// an error, or superseded (ErrSuperseded).
func Finish(ctx context.Context, db *store.DB, id int64, stats any, runErr error, now time.Time) error {
	return db.UpdateJobs(ctx, func(t *store.JobTx) error {
		j, ok, err := t.Get(ctx, id)
		if err != nil || !ok {
			return err
		}
		if j.Status != JobRunning {
			return nil // superseded meanwhile: keep that
		}
		j.FinishedAt = now.Unix()
		switch {
		case runErr == nil:
			j.Status, j.Progress = JobCompleted, "done"
			if stats != nil {
				b, _ := json.Marshal(stats)
				j.Stats = string(b)
			}
		case errors.Is(runErr, ErrSuperseded):
			j.Status, j.Reason = JobSuperseded, runErr.Error()
		default:
			j.Status, j.Error = JobFailed, runErr.Error()
		}
		return t.Update(ctx, j)
	})
}

// RecoverJobs marks the jobs left running by a process that ended as failed
// (the owner calls it when it takes the index).
func RecoverJobs(ctx context.Context, db *store.DB, now time.Time) error {
	// Most opens find none: a read spares them a sealed write.
	if any, err := db.HasRunningJobs(ctx); err == nil && !any {
		return nil
	}
	return db.UpdateJobs(ctx, func(t *store.JobTx) error {
		running, err := t.Running(ctx)
		if err != nil {
			return err
		}
		for _, j := range running {
			j.Status, j.Error, j.FinishedAt = JobFailed, "interrupted: the process running it ended", now.Unix()
			if err := t.Update(ctx, j); err != nil {
				return err
			}
		}
		return nil
	})
}
