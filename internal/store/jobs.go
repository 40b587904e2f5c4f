package store

import (
	"context"
	"database/sql"
	"fmt"
)

// JobRow is one semantic indexer job.
type JobRow struct {
	ID         int64
	Key        string // indexer:root or scip:path
	Indexer    string
	Root       string
	Status     string // queued, running, completed, failed, superseded
	Scope      string // JSON list of files, '' for the whole project
	Trigger    string
	Head       string // HEAD at enqueue
	CreatedAt  int64
	StartedAt  int64
	FinishedAt int64
	Progress   string
	Error      string
	Reason     string // why it was superseded
	Stats      string // JSON
}

const jobCols = `id, key, indexer, root, status, scope, trigger, head, created_at, started_at, finished_at, progress, error, reason, stats`

func scanJobs(rows *sql.Rows, err error) ([]JobRow, error) {
	return scanAll(rows, err, "jobs", func(r scanner, j *JobRow) error {
		return r.Scan(&j.ID, &j.Key, &j.Indexer, &j.Root, &j.Status, &j.Scope, &j.Trigger, &j.Head, &j.CreatedAt,
			&j.StartedAt, &j.FinishedAt, &j.Progress, &j.Error, &j.Reason, &j.Stats)
	})
}

// JobTx is a transaction over the job table: enqueueing reads the active job
// of a key and inserts or changes rows atomically.
type JobTx struct {
	tx *sql.Tx
}

// UpdateJobs runs fn in one transaction (committed when fn returns nil).
func (s *DB) UpdateJobs(ctx context.Context, fn func(t *JobTx) error) error {
	return s.write("main", func() error { return s.updateJobs(ctx, fn) })
}

func (s *DB) updateJobs(ctx context.Context, fn func(t *JobTx) error) error {
	tx, err := s.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: jobs: %w", err)
	}
	defer tx.Rollback()
	if err := fn(&JobTx{tx: tx}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: jobs commit: %w", err)
	}
	return nil
}

// Active returns the queued and running jobs of a key, oldest first.
func (t *JobTx) Active(ctx context.Context, key string) ([]JobRow, error) {
	return scanJobs(t.tx.QueryContext(ctx, `SELECT `+jobCols+` FROM sem_job WHERE key = ? AND status IN ('queued', 'running') ORDER BY id`, key))
}

// Running returns every running job.
func (t *JobTx) Running(ctx context.Context) ([]JobRow, error) {
	return scanJobs(t.tx.QueryContext(ctx, `SELECT `+jobCols+` FROM sem_job WHERE status = 'running' ORDER BY id`))
}

// Get reads one job.
func (t *JobTx) Get(ctx context.Context, id int64) (JobRow, bool, error) {
	rows, err := scanJobs(t.tx.QueryContext(ctx, `SELECT `+jobCols+` FROM sem_job WHERE id = ?`, id))
	if err != nil || len(rows) == 0 {
		return JobRow{}, false, err
	}
	return rows[0], true, nil
}

// Insert adds a job and returns its id.
func (t *JobTx) Insert(ctx context.Context, j JobRow) (int64, error) {
	var id int64
	err := t.tx.QueryRowContext(ctx, `INSERT INTO sem_job(key, indexer, root, status, scope, trigger, head, created_at, started_at, finished_at, progress, error, reason, stats)
		VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`, j.Key, j.Indexer, j.Root, j.Status, j.Scope, j.Trigger, j.Head, j.CreatedAt,
		j.StartedAt, j.FinishedAt, j.Progress, j.Error, j.Reason, j.Stats).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store: insert job: %w", err)
	}
	return id, nil
}

// Update writes every field of a job.
func (t *JobTx) Update(ctx context.Context, j JobRow) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE sem_job SET key=?, indexer=?, root=?, status=?, scope=?, trigger=?, head=?, created_at=?,
		started_at=?, finished_at=?, progress=?, error=?, reason=?, stats=? WHERE id = ?`, j.Key, j.Indexer, j.Root, j.Status, j.Scope, j.Trigger,
		j.Head, j.CreatedAt, j.StartedAt, j.FinishedAt, j.Progress, j.Error, j.Reason, j.Stats, j.ID)
	if err != nil {
		return fmt.Errorf("store: update job %d: %w", j.ID, err)
	}
	return nil
}

// Job reads one job.
func (s *Reader) Job(ctx context.Context, id int64) (JobRow, bool, error) {
	return first(scanJobs(s.sql.QueryContext(ctx, `SELECT `+jobCols+` FROM sem_job WHERE id = ?`, id)))
}

// Jobs returns the most recent jobs, newest first.
func (s *Reader) Jobs(ctx context.Context, limit int) ([]JobRow, error) {
	return scanJobs(s.sql.QueryContext(ctx, `SELECT `+jobCols+` FROM sem_job ORDER BY id DESC LIMIT ?`, limit))
}

// HasRunningJobs reports whether any job is marked running, without a
// write: a process that opens the index asks before it recovers them.
func (s *Reader) HasRunningJobs(ctx context.Context) (bool, error) {
	var n int
	err := s.sql.QueryRowContext(ctx, `SELECT count(*) FROM sem_job WHERE status = 'running'`).Scan(&n)
	return n > 0, err
}

// QueuedJobs returns the queued jobs, oldest first.
func (s *DB) QueuedJobs(ctx context.Context) ([]JobRow, error) {
	return scanJobs(s.sql.QueryContext(ctx, `SELECT `+jobCols+` FROM sem_job WHERE status = 'queued' ORDER BY id`))
}

// SetJobProgress records a running job's progress line.
func (s *DB) SetJobProgress(ctx context.Context, id int64, progress string) error {
	return s.write("main", func() error {
		_, err := s.sql.ExecContext(ctx, `UPDATE sem_job SET progress = ? WHERE id = ?`, progress, id)
		return err
	})
}

// PruneJobs keeps the newest keep finished jobs.
func (s *DB) PruneJobs(ctx context.Context, keep int) error {
	return s.write("main", func() error {
		_, err := s.sql.ExecContext(ctx, `DELETE FROM sem_job WHERE status NOT IN ('queued', 'running') AND id NOT IN
		(SELECT id FROM sem_job ORDER BY id DESC LIMIT ?)`, keep)
		return err
	})
}
