package ledger

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/cairnhq/cairn/internal/bug"
)

// Operation is one answered call.
type Operation struct {
	ID        int64         `json:"op_id,omitempty"`
	TaskID    string        `json:"task_id,omitempty"`
	RequestID string        `json:"request_id"`
	Client    string        `json:"client,omitempty"`
	Time      time.Time     `json:"ts"`
	Duration  time.Duration `json:"-"`
	Type      string        `json:"op_type"` // the tool
	Success   bool          `json:"success"`
	ErrorCode string        `json:"error_code,omitempty"`
	// ErrorMessage is the error's message (it may name symbols and paths:
	// anonymized exports leave it out).
	ErrorMessage string `json:"error_message,omitempty"`
	RepoBefore   string `json:"repo_before_hash,omitempty"`
	RepoAfter    string `json:"repo_after_hash,omitempty"`
	// ChangedPaths, DiffStats and ShortDiff summarise a mutation: paths
	// and line counts, never content.
	ChangedPaths []string   `json:"changed_paths,omitempty"`
	DiffStats    *DiffStats `json:"diff_stats,omitempty"`
	ShortDiff    string     `json:"short_diff,omitempty"`
	MutationFP   string     `json:"mutation_fingerprint,omitempty"`
	FailureFP    string     `json:"failure_fingerprint,omitempty"`
	FailureClass string     `json:"failure_class,omitempty"`
	FailingTests []string   `json:"failing_tests,omitempty"`
	// LimitTriggered names the budget that refused the call.
	LimitTriggered string `json:"limit_triggered,omitempty"`
	// NoProgress says why the call was flagged as making no progress.
	NoProgress  string `json:"no_progress,omitempty"`
	Tokens      int    `json:"tokens"`
	TokensSaved int    `json:"tokens_saved"`
}

// DiffStats are the line counts of a mutation.
type DiffStats struct {
	FilesChanged int `json:"files_changed"`
	Insertions   int `json:"insertions"`
	Deletions    int `json:"deletions"`
}

// queueSize bounds the operations waiting for the writer; past it new ones
// are dropped (and counted) rather than slowing calls down.
const queueSize = 4096

// batchSize is how many operations one transaction writes at most.
const batchSize = 256

// Append queues an operation for the writer; it never waits.
func (l *Ledger) Append(op Operation) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	select {
	case l.queue <- op:
	default:
		l.dropped++
	}
}

// Flush waits until every operation queued before it is written.
func (l *Ledger) Flush() {
	ch := make(chan struct{})
	l.mu.Lock()
	closed := l.closed
	l.mu.Unlock()
	if closed {
		return
	}
	select {
	case l.flushCh <- ch:
		<-ch
	case <-l.done:
	}
}

// pruneEvery is how often a long-running writer applies the retention.
const pruneEvery = time.Hour

// batchDelay is how long the writer collects operations before it writes
// them in one transaction: a commit per call would cost more than the call.
const batchDelay = 100 * time.Millisecond

// writer writes queued operations in batches until the queue is closed.
func (l *Ledger) writer() {
	defer close(l.done)
	tick := time.NewTicker(pruneEvery)
	defer tick.Stop()
	batch := make([]Operation, 0, batchSize)
	var due <-chan time.Time // set while a batch waits
	for {
		select {
		case op, ok := <-l.queue:
			if !ok {
				l.write(batch)
				return
			}
			batch = append(batch, op)
			if len(batch) >= batchSize {
				l.write(batch)
				batch, due = batch[:0], nil
			} else if due == nil {
				due = time.After(batchDelay)
			}
		case <-due:
			l.write(batch)
			batch, due = batch[:0], nil
		case ch := <-l.flushCh:
			// Everything queued before the flush is in the channel; write it.
			for len(l.queue) > 0 {
				batch = append(batch, <-l.queue)
			}
			l.write(batch)
			batch, due = batch[:0], nil
			close(ch)
		case <-tick.C:
			l.Prune(context.Background())
		}
	}
}

const insertOp = `INSERT INTO operations(task_id, request_id, client, ts_ms, duration_us, op_type, success, error_code, error_message,
  repo_before_hash, repo_after_hash, changed_paths, diff_stats, short_diff, mutation_fingerprint, failure_fingerprint,
  failure_class, failing_tests, limit_triggered, no_progress, tokens, tokens_saved)
  VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

func (l *Ledger) write(ops []Operation) error {
	if len(ops) == 0 {
		return nil
	}
	if l.insert == nil {
		stmt, err := l.db.Prepare(insertOp)
		if err != nil {
			return err
		}
		l.insert = stmt
	}
	tx, err := l.db.Begin()
	if err != nil {
		return err
	}
	stmt := tx.Stmt(l.insert)
	for _, op := range ops {
		var task any
		if op.TaskID != "" {
			task = op.TaskID
		}
		stats := ""
		if op.DiffStats != nil {
			stats = marshal(op.DiffStats)
		}
		paths, tests := op.ChangedPaths, op.FailingTests
		if paths == nil {
			paths = []string{}
		}
		if tests == nil {
			tests = []string{}
		}
		if _, err := stmt.Exec(task, op.RequestID, op.Client, ms(op.Time), op.Duration.Microseconds(), op.Type, op.Success,
			op.ErrorCode, op.ErrorMessage, op.RepoBefore, op.RepoAfter, marshal(paths), stats, op.ShortDiff, op.MutationFP,
			op.FailureFP, op.FailureClass, marshal(tests), op.LimitTriggered, op.NoProgress, op.Tokens, op.TokensSaved); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// Append records one operation in the ledger at path for a process that
// does not serve (a one-shot CLI call), so that the repository's totals
// count it: it opens the file (creating it), adds the row and closes it,
// without the integrity check, the retention pass and the background
// writer of Open, which a server runs. SQLite's locking (WAL, a busy
// timeout) keeps it safe beside a server's writer. A ledger of another
// schema version is left for the next server to move aside.
//
// The connection does not sync: closing the last connection of a WAL
// database checkpoints it, and two fsyncs there would cost a CLI call about
// ten milliseconds. A row lost or a file damaged by a crash of the machine
// itself is what Open's integrity check is for; the process ending right
// after is safe.
func Append(ctx context.Context, path string, op Operation) error {
	db, err := openSync(path, "OFF")
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("ledger: create schema in %s: %w", path, err)
	}
	if _, err := db.ExecContext(ctx, `INSERT OR IGNORE INTO metadata(key, value) VALUES('schema_version', ?)`, strconv.Itoa(schemaVersion)); err != nil {
		return fmt.Errorf("ledger: init %s: %w", path, err)
	}
	var v string
	if err := db.QueryRowContext(ctx, `SELECT value FROM metadata WHERE key = 'schema_version'`).Scan(&v); err != nil {
		return fmt.Errorf("ledger: read %s: %w", path, err)
	}
	if v != strconv.Itoa(schemaVersion) {
		return fmt.Errorf("ledger: %s has schema version %s, not %d", path, v, schemaVersion)
	}
	l := &Ledger{db: db}
	defer func() {
		if l.insert != nil {
			l.insert.Close()
		}
	}()
	if err := l.write([]Operation{op}); err != nil {
		return fmt.Errorf("ledger: append to %s: %w", path, err)
	}
	return nil
}

// Filter selects operations, newest first.
type Filter struct {
	TaskID    string
	Type      string
	OnlyFails bool
	Since     time.Time
	Limit     int // 0: 100
}

// Operations lists recorded operations, newest first.
func (l *Ledger) Operations(ctx context.Context, f Filter) ([]Operation, error) {
	q := `SELECT op_id, COALESCE(task_id, ''), request_id, client, ts_ms, duration_us, op_type, success, error_code, error_message,
	  repo_before_hash, repo_after_hash, changed_paths, diff_stats, short_diff, mutation_fingerprint, failure_fingerprint,
	  failure_class, failing_tests, limit_triggered, no_progress, tokens, tokens_saved FROM operations WHERE 1=1`
	var args []any
	if f.TaskID != "" {
		q += " AND task_id = ?"
		args = append(args, f.TaskID)
	}
	if f.Type != "" {
		q += " AND op_type = ?"
		args = append(args, f.Type)
	}
	if f.OnlyFails {
		q += " AND success = 0"
	}
	if !f.Since.IsZero() {
		q += " AND ts_ms >= ?"
		args = append(args, ms(f.Since))
	}
	if f.Limit <= 0 {
		f.Limit = 100
	}
	q += " ORDER BY op_id DESC LIMIT ?"
	args = append(args, f.Limit)
	rows, err := l.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Operation
	for rows.Next() {
		var op Operation
		var tsMS, durUS int64
		var paths, stats, tests string
		if err := rows.Scan(&op.ID, &op.TaskID, &op.RequestID, &op.Client, &tsMS, &durUS, &op.Type, &op.Success, &op.ErrorCode,
			&op.ErrorMessage, &op.RepoBefore, &op.RepoAfter, &paths, &stats, &op.ShortDiff, &op.MutationFP, &op.FailureFP,
			&op.FailureClass, &tests, &op.LimitTriggered, &op.NoProgress, &op.Tokens, &op.TokensSaved); err != nil {
			return nil, err
		}
		op.Time, op.Duration = fromMS(tsMS), time.Duration(durUS)*time.Microsecond
		bug.Unmarshal([]byte(paths), &op.ChangedPaths, "ledger: operation %d: changed_paths", op.ID)
		bug.Unmarshal([]byte(tests), &op.FailingTests, "ledger: operation %d: failing_tests", op.ID)
		if stats != "" {
			op.DiffStats = &DiffStats{}
			bug.Unmarshal([]byte(stats), op.DiffStats, "ledger: operation %d: diff_stats", op.ID)
		}
		out = append(out, op)
	}
	return out, rows.Err()
}

// Totals are sums over the operations the ledger holds.
type Totals struct {
	Operations  int64 `json:"operations"`
	Failures    int64 `json:"failures"`
	Tokens      int64 `json:"tokens"`
	TokensSaved int64 `json:"tokens_saved"`
	// Since is the time of the oldest operation kept.
	Since time.Time `json:"since,omitzero"`
}

// Totals sums every operation kept (the retention bounds how far back).
func (l *Ledger) Totals(ctx context.Context) (Totals, error) {
	return totals(ctx, l.db)
}

func totals(ctx context.Context, db *sql.DB) (Totals, error) {
	var t Totals
	var since sql.NullInt64
	err := db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(success = 0), 0), COALESCE(SUM(tokens), 0), COALESCE(SUM(tokens_saved), 0), MIN(ts_ms) FROM operations`).
		Scan(&t.Operations, &t.Failures, &t.Tokens, &t.TokensSaved, &since)
	if since.Valid {
		t.Since = fromMS(since.Int64)
	}
	return t, err
}

// ClientTotals sums the operations of one client recorded after the
// operation afterID, and returns the newest id of the ledger (afterID when
// it has none after it), from which the next call goes on: a server counts
// with it the one-shot calls made while it runs, reading each row once.
// Ids grow with each commit, so a row committed later has a larger id.
func (l *Ledger) ClientTotals(ctx context.Context, client string, afterID int64) (Totals, int64, error) {
	var t Totals
	last := afterID
	tx, err := l.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return t, last, err
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(op_id), ?) FROM operations`, afterID).Scan(&last); err != nil {
		return t, afterID, err
	}
	err = tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(success = 0), 0), COALESCE(SUM(tokens), 0), COALESCE(SUM(tokens_saved), 0)
	  FROM operations WHERE op_id > ? AND op_id <= ? AND client = ?`, afterID, last, client).Scan(&t.Operations, &t.Failures, &t.Tokens, &t.TokensSaved)
	if err != nil {
		return t, afterID, err
	}
	return t, max(last, afterID), nil
}

// LastID is the id of the newest operation (0 when none).
func (l *Ledger) LastID(ctx context.Context) (int64, error) {
	var id int64
	err := l.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(op_id), 0) FROM operations`).Scan(&id)
	return id, err
}

// ReadTotals sums the operations of the ledger at path without opening it for
// writing (for a process that does not serve: `cairn status`). A missing
// ledger has no operations.
func ReadTotals(ctx context.Context, path string) (Totals, error) {
	db, err := openRO(path)
	if err != nil || db == nil {
		return Totals{}, err
	}
	defer db.Close()
	return totals(ctx, db)
}

// ReadOperations lists the operations of the ledger at path like Operations,
// without opening it for writing (diag bundles).
func ReadOperations(ctx context.Context, path string, f Filter) ([]Operation, error) {
	db, err := openRO(path)
	if err != nil || db == nil {
		return nil, err
	}
	defer db.Close()
	l := &Ledger{db: db}
	return l.Operations(ctx, f)
}
