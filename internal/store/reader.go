package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// querier is what reads run on: the connection pool, or one read
// transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Reader reads the index and the blob store. DB embeds one over its
// connection pool (every statement sees the latest commit); BeginRead gives
// one over a read transaction, for a request that must see one epoch from its
// first statement to its last.
type Reader struct {
	sql querier
	// metaReads counts reads of the metadata table through this reader's
	// DB (shared with the DB's transactions): the request path reads it
	// once, and tests hold it to that.
	metaReads *atomic.Int64
	// overlay is set when the index is an overlay over a baseline
	// (overlay.go): the few statements that a view cannot serve say so.
	overlay bool
}

// ReadTx is a read transaction: a Reader whose statements all see the database
// as it was at its first one. End it with Close.
type ReadTx struct {
	Reader
	tx   *sql.Tx
	conn *sql.Conn
	done func() // gives the transaction's turn back (DB.readers)
}

// BeginRead starts a read transaction. It holds one pooled connection until
// Close, so requests must close it promptly. SQLite (WAL) fixes the
// snapshot at the transaction's first read of each database.
func (s *DB) BeginRead(ctx context.Context) (*ReadTx, error) {
	// Wait for a turn first, in order of arrival: the pool hands a freed
	// connection to a random waiter, and under load some requests waited
	// many times longer than the rest.
	select {
	case s.readers <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("store: begin: %w", ctx.Err())
	}
	s.reads.Add(1)
	var once sync.Once
	done := func() { once.Do(func() { <-s.readers }) }
	conn, err := s.sql.Conn(ctx)
	if err != nil {
		done()
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		conn.Close()
		done()
		return nil, fmt.Errorf("store: begin: %w", err)
	}
	return &ReadTx{Reader: Reader{sql: &txQuerier{tx: tx, cache: s.stmts}, metaReads: s.metaReads, overlay: s.overlay}, tx: tx, conn: conn, done: done}, nil
}

// Close ends the read transaction and returns its connection to the pool.
func (t *ReadTx) Close() error {
	err := t.tx.Rollback()
	if errors.Is(err, sql.ErrTxDone) {
		err = nil // the request's context ended it already
	}
	if cerr := t.conn.Close(); err == nil {
		err = cerr
	}
	t.done()
	return err
}

// Meta reads one metadata value of the worktree index ("" when absent).
func (s *Reader) Meta(key string) (string, error) {
	s.metaReads.Add(1)
	var v string
	err := s.sql.QueryRowContext(context.Background(), `SELECT value FROM metadata WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: meta %s: %w", key, err)
	}
	return v, nil
}

// MetaValues reads the metadata values of keys in one statement (absent
// keys are missing from the map).
func (s *Reader) MetaValues(ctx context.Context, keys ...string) (map[string]string, error) {
	s.metaReads.Add(1)
	rows, err := s.sql.QueryContext(ctx, `SELECT key, value FROM metadata WHERE key IN (`+placeholders(len(keys))+`)`, anys(keys)...)
	if err != nil {
		return nil, fmt.Errorf("store: meta: %w", err)
	}
	defer rows.Close()
	out := make(map[string]string, len(keys))
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("store: meta: %w", err)
		}
		out[k] = v
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: meta: %w", err)
	}
	return out, nil
}

// MetaReads counts the reads of the metadata table since the store was
// opened, through the pool and every read transaction.
func (s *DB) MetaReads() int64 { return s.metaReads.Load() }
