package ledger

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"time"
)

// Task states.
const (
	StateOpen        = "open"
	StateSuccess     = "closed_success"
	StateFailed      = "closed_failed"
	StateInterrupted = "closed_interrupted"
)

// Task is a task's row: its limits, its counters when last written and how
// it ended.
type Task struct {
	ID          string          `json:"task_id"`
	Opened      time.Time       `json:"opened_at"`
	Closed      time.Time       `json:"closed_at,omitzero"`
	State       string          `json:"state"`
	Client      string          `json:"client,omitempty"`
	PID         int             `json:"pid"`
	Head        string          `json:"repo_head_sha,omitempty"`
	Epoch       int64           `json:"index_epoch"`
	Limits      json.RawMessage `json:"limits"`
	Counters    json.RawMessage `json:"counters"`
	LastMutFP   string          `json:"last_mutation_fingerprint,omitempty"`
	LastFailFP  string          `json:"last_failure_fingerprint,omitempty"`
	CloseReason string          `json:"close_reason,omitempty"`
}

// PutTask writes a task's row (a new task, or new counters or state of one),
// at once: tasks must survive a crash to be closed as interrupted.
func (l *Ledger) PutTask(ctx context.Context, t Task) error {
	var closed any
	if !t.Closed.IsZero() {
		closed = ms(t.Closed)
	}
	if t.Counters == nil {
		t.Counters = json.RawMessage("{}")
	}
	_, err := l.db.ExecContext(ctx, `INSERT INTO tasks(task_id, opened_ms, closed_ms, state, client, pid, repo_head_sha, index_epoch,
	  limits_json, counters_json, last_mutation_fingerprint, last_failure_fingerprint, close_reason)
	  VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	  ON CONFLICT(task_id) DO UPDATE SET closed_ms = excluded.closed_ms, state = excluded.state, counters_json = excluded.counters_json,
	  last_mutation_fingerprint = excluded.last_mutation_fingerprint, last_failure_fingerprint = excluded.last_failure_fingerprint,
	  close_reason = excluded.close_reason`,
		t.ID, ms(t.Opened), closed, t.State, t.Client, t.PID, t.Head, t.Epoch, string(t.Limits), string(t.Counters),
		t.LastMutFP, t.LastFailFP, t.CloseReason)
	return err
}

const taskCols = `task_id, opened_ms, closed_ms, state, client, pid, repo_head_sha, index_epoch, limits_json, counters_json,
  last_mutation_fingerprint, last_failure_fingerprint, close_reason`

func scanTask(sc interface{ Scan(...any) error }) (Task, error) {
	var t Task
	var opened int64
	var closed sql.NullInt64
	var limits, counters string
	err := sc.Scan(&t.ID, &opened, &closed, &t.State, &t.Client, &t.PID, &t.Head, &t.Epoch, &limits, &counters,
		&t.LastMutFP, &t.LastFailFP, &t.CloseReason)
	t.Opened = fromMS(opened)
	if closed.Valid {
		t.Closed = fromMS(closed.Int64)
	}
	t.Limits, t.Counters = json.RawMessage(limits), json.RawMessage(counters)
	return t, err
}

// Task reads one task; ok is false when the ledger has none by that id.
func (l *Ledger) Task(ctx context.Context, id string) (Task, bool, error) {
	t, err := scanTask(l.db.QueryRowContext(ctx, `SELECT `+taskCols+` FROM tasks WHERE task_id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Task{}, false, nil
	}
	return t, err == nil, err
}

// Tasks lists the newest tasks first.
func (l *Ledger) Tasks(ctx context.Context, limit int) ([]Task, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT `+taskCols+` FROM tasks ORDER BY opened_ms DESC, task_id LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Task
	for rows.Next() {
		t, err := scanTask(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// InterruptOrphans closes as interrupted every open task whose process is no
// longer alive (a server that was killed or crashed): no task resumes
// implicitly after a restart. It returns the ids it closed.
func (l *Ledger) InterruptOrphans(ctx context.Context, alive func(pid int) bool) ([]string, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT task_id, pid FROM tasks WHERE state = ?`, StateOpen)
	if err != nil {
		return nil, err
	}
	type orphan struct {
		id  string
		pid int
	}
	var open []orphan
	for rows.Next() {
		var o orphan
		if err := rows.Scan(&o.id, &o.pid); err != nil {
			rows.Close()
			return nil, err
		}
		open = append(open, o)
	}
	rows.Close()
	var closed []string
	now := ms(l.opts.Now())
	for _, o := range open {
		if o.pid != os.Getpid() && alive(o.pid) {
			continue
		}
		if _, err := l.db.ExecContext(ctx, `UPDATE tasks SET state = ?, closed_ms = ?, close_reason = ? WHERE task_id = ? AND state = ?`,
			StateInterrupted, now, "the server that held the task stopped", o.id, StateOpen); err != nil {
			return closed, err
		}
		closed = append(closed, o.id)
	}
	return closed, nil
}

// Prune applies the retention: operations and closed tasks older than
// MaxAge go, then the oldest past MaxOperations and MaxTasks. Open tasks are
// kept whatever their age.
func (l *Ledger) Prune(ctx context.Context) error {
	cutoff := ms(l.opts.Now().Add(-l.opts.MaxAge))
	stmts := []struct {
		q    string
		args []any
	}{
		{`DELETE FROM operations WHERE ts_ms < ?`, []any{cutoff}},
		{`DELETE FROM operations WHERE op_id <= (SELECT op_id FROM operations ORDER BY op_id DESC LIMIT 1 OFFSET ?)`, []any{l.opts.MaxOperations}},
		{`DELETE FROM tasks WHERE state != ? AND COALESCE(closed_ms, opened_ms) < ?`, []any{StateOpen, cutoff}},
		{`DELETE FROM tasks WHERE state != ? AND task_id IN (SELECT task_id FROM tasks ORDER BY opened_ms DESC, task_id LIMIT -1 OFFSET ?)`, []any{StateOpen, l.opts.MaxTasks}},
	}
	for _, s := range stmts {
		if _, err := l.db.ExecContext(ctx, s.q, s.args...); err != nil {
			return err
		}
	}
	return nil
}

// openRO opens the ledger at path for reading only; nil without a file.
func openRO(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(2000)")
	if err != nil {
		return nil, err
	}
	return db, nil
}

// ReadTask reads one task from the ledger at path without opening it for
// writing.
func ReadTask(ctx context.Context, path, id string) (Task, bool, error) {
	db, err := openRO(path)
	if err != nil || db == nil {
		return Task{}, false, err
	}
	defer db.Close()
	l := &Ledger{db: db}
	return l.Task(ctx, id)
}
