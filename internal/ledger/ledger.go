// Package ledger is the operation ledger: an append-only SQLite file in the
// state dir (ledger.db, apart from the index) that records which tasks were
// opened under which limits and every operation a server answered — its
// outcome, the repository state before and after, what a mutation changed
// (paths and line counts, never content) and the fingerprints that tell
// progress from spinning. It is for accountability after the fact; live
// numbers come from the metrics. The ledger never blocks a query: a damaged
// file is moved aside and a fresh one started, and operations are written by
// a background writer in batches.
//
// Unlike the index it is not disposable, so it is not part of the store: it
// has its own small schema and its own file.
package ledger

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// schemaVersion changes when the tables change; an older file is moved aside.
const schemaVersion = 1

const schema = `
CREATE TABLE IF NOT EXISTS metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
  task_id TEXT PRIMARY KEY,
  opened_ms INTEGER NOT NULL,
  closed_ms INTEGER,
  state TEXT NOT NULL,
  client TEXT NOT NULL DEFAULT '',
  pid INTEGER NOT NULL,
  repo_head_sha TEXT NOT NULL DEFAULT '',
  index_epoch INTEGER NOT NULL DEFAULT 0,
  limits_json TEXT NOT NULL,
  counters_json TEXT NOT NULL DEFAULT '{}',
  last_mutation_fingerprint TEXT NOT NULL DEFAULT '',
  last_failure_fingerprint TEXT NOT NULL DEFAULT '',
  close_reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS tasks_opened ON tasks(opened_ms);
CREATE TABLE IF NOT EXISTS operations (
  op_id INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id TEXT,
  request_id TEXT NOT NULL,
  client TEXT NOT NULL DEFAULT '',
  ts_ms INTEGER NOT NULL,
  duration_us INTEGER NOT NULL,
  op_type TEXT NOT NULL,
  success INTEGER NOT NULL,
  error_code TEXT NOT NULL DEFAULT '',
  error_message TEXT NOT NULL DEFAULT '',
  repo_before_hash TEXT NOT NULL DEFAULT '',
  repo_after_hash TEXT NOT NULL DEFAULT '',
  changed_paths TEXT NOT NULL DEFAULT '[]',
  diff_stats TEXT NOT NULL DEFAULT '',
  short_diff TEXT NOT NULL DEFAULT '',
  mutation_fingerprint TEXT NOT NULL DEFAULT '',
  failure_fingerprint TEXT NOT NULL DEFAULT '',
  failure_class TEXT NOT NULL DEFAULT '',
  failing_tests TEXT NOT NULL DEFAULT '[]',
  limit_triggered TEXT NOT NULL DEFAULT '',
  no_progress TEXT NOT NULL DEFAULT '',
  tokens INTEGER NOT NULL DEFAULT 0,
  tokens_saved INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS operations_ts ON operations(ts_ms);
CREATE INDEX IF NOT EXISTS operations_task ON operations(task_id);
CREATE TRIGGER IF NOT EXISTS operations_append_only BEFORE UPDATE ON operations
BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
`

// Options bound what the ledger keeps.
type Options struct {
	// MaxAge drops operations and closed tasks older than this (0: 14 days).
	MaxAge time.Duration
	// MaxTasks keeps at most this many tasks, newest first (0: 500).
	MaxTasks int
	// MaxOperations keeps at most this many operations, newest first (0: 100,000).
	MaxOperations int
	// Now is the clock (nil: time.Now); tests move it.
	Now func() time.Time
}

func (o *Options) defaults() {
	if o.MaxAge <= 0 {
		o.MaxAge = 14 * 24 * time.Hour
	}
	if o.MaxTasks <= 0 {
		o.MaxTasks = 500
	}
	if o.MaxOperations <= 0 {
		o.MaxOperations = 100000
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// Ledger is an open ledger file.
type Ledger struct {
	path string
	db   *sql.DB
	opts Options

	insert  *sql.Stmt // prepared once by the writer, which alone uses it
	queue   chan Operation
	flushCh chan chan struct{}
	done    chan struct{}

	mu      sync.Mutex // guards dropped and closed
	dropped int64      // operations not recorded because the queue was full
	closed  bool
}

// FileName is the ledger's file in the state dir.
const FileName = "ledger.db"

// Path is the ledger file of a state dir.
func Path(stateDir string) string { return filepath.Join(stateDir, FileName) }

// Open opens (or creates) the ledger at path after checking its integrity. A
// file that fails the check, or has another schema version, is moved aside
// (path + ".damaged-<time>") and a fresh ledger started; the warnings say so.
func Open(path string, opts Options) (*Ledger, []string, error) {
	opts.defaults()
	var warnings []string
	if ok, why := Check(path); !ok {
		aside := fmt.Sprintf("%s.damaged-%s", path, opts.Now().UTC().Format("20060102T150405"))
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if _, err := os.Stat(path + suffix); err == nil {
				if err := os.Rename(path+suffix, aside+suffix); err != nil {
					os.Remove(path + suffix)
				}
			}
		}
		warnings = append(warnings, fmt.Sprintf("the ledger was damaged (%s); it was moved to %s and a new one started", why, aside))
	}
	db, err := openDB(path)
	if err != nil {
		return nil, warnings, err
	}
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, warnings, fmt.Errorf("ledger: create schema in %s: %w", path, err)
	}
	if _, err := db.Exec(`INSERT OR IGNORE INTO metadata(key, value) VALUES('schema_version', ?)`, strconv.Itoa(schemaVersion)); err != nil {
		db.Close()
		return nil, warnings, fmt.Errorf("ledger: init %s: %w", path, err)
	}
	l := &Ledger{path: path, db: db, opts: opts, queue: make(chan Operation, queueSize),
		flushCh: make(chan chan struct{}), done: make(chan struct{})}
	if err := l.Prune(context.Background()); err != nil {
		warnings = append(warnings, "ledger retention: "+err.Error())
	}
	go l.writer()
	return l, warnings, nil
}

func openDB(path string) (*sql.DB, error) { return openSync(path, "NORMAL") }

// openSync opens the ledger with the given synchronous mode.
func openSync(path, synchronous string) (*sql.DB, error) {
	os.MkdirAll(filepath.Dir(path), 0o700)
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=synchronous("+synchronous+")")
	if err != nil {
		return nil, fmt.Errorf("ledger: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(2)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("ledger: open %s: %w", path, err)
	}
	return db, nil
}

// Check runs SQLite's integrity check on the ledger file and checks its schema
// version. A missing file is fine (a new ledger starts).
func Check(path string) (bool, string) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return true, ""
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return false, err.Error()
	}
	defer db.Close()
	var res string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil {
		return false, "unreadable: " + err.Error()
	}
	if res != "ok" {
		return false, "integrity check: " + res
	}
	var v string
	err = db.QueryRow(`SELECT value FROM metadata WHERE key = 'schema_version'`).Scan(&v)
	switch {
	case err != nil && isNoTable(err):
		return true, "" // an empty file: the schema is created next
	case err != nil:
		return false, "no schema version: " + err.Error()
	case v != strconv.Itoa(schemaVersion):
		return false, fmt.Sprintf("schema version %s, want %d", v, schemaVersion)
	}
	return true, ""
}

func isNoTable(err error) bool {
	return errors.Is(err, sql.ErrNoRows) || strings.Contains(err.Error(), "no such table")
}

// Close writes what is queued and closes the file.
func (l *Ledger) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	l.mu.Unlock()
	close(l.queue)
	<-l.done
	if l.insert != nil {
		l.insert.Close()
	}
	return l.db.Close()
}

// Path is the ledger's file.
func (l *Ledger) Path() string { return l.path }

// Dropped counts operations left out because the writer fell behind.
func (l *Ledger) Dropped() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.dropped
}

func marshal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(n int64) time.Time { return time.UnixMilli(n).UTC() }
