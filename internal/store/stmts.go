package store

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"time"
)

// stmtCache keeps the read statements prepared, by query text: SQLite
// parses and plans a statement each time it is prepared, and database/sql
// keeps nothing across transactions, which made preparation a fifth of a
// reference search. A statement is prepared once on the pool, then once on
// each connection a read transaction uses it on (Tx.StmtContext prepares on
// the transaction's own connection and keeps that per connection).
//
// Preparing on the pool needs a connection besides the one the request's
// transaction holds, and only an idle one is used: opening a connection
// parses the whole schema, which costs a short command more than every
// statement it runs. Without an idle connection (a one-shot command holds
// just its transaction's, a busy server lends every one) the statement is
// prepared on the transaction's connection and kept until it ends. A
// connection that goes idle between the check and the prepare is waited for
// at most prepareWait.
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex // guards m
	m  map[string]*sql.Stmt
}

const (
	// maxStmts bounds the cache; texts past it run unprepared.
	maxStmts = 256
	// prepareWait is how long preparing waits for a pooled connection.
	prepareWait = time.Millisecond
)

func newStmtCache(db *sql.DB) *stmtCache { return &stmtCache{db: db, m: map[string]*sql.Stmt{}} }

// get returns the pool's statement for q, preparing it when needed; nil
// when q is not kept (a list of placeholders, whose text varies with its
// length) or could not be prepared now.
func (c *stmtCache) get(ctx context.Context, q string) *sql.Stmt {
	if c == nil || !keepable(q) {
		return nil
	}
	c.mu.Lock()
	st, ok := c.m[q]
	full := len(c.m) >= maxStmts
	c.mu.Unlock()
	if ok || full {
		return st
	}
	if c.db.Stats().Idle == 0 {
		return nil
	}
	pctx, cancel := context.WithTimeout(ctx, prepareWait)
	st, err := c.db.PrepareContext(pctx, q)
	cancel()
	if err != nil {
		return nil // the pool is busy (or q is wrong, which running it reports)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[q]; ok {
		st.Close()
		return old
	}
	c.m[q] = st
	return st
}

// close closes every statement.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		st.Close()
		delete(c.m, q)
	}
}

// poolQuerier runs reads on the pool through the cache.
type poolQuerier struct {
	db    *sql.DB
	cache *stmtCache
}

func (p *poolQuerier) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := p.cache.get(ctx, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return p.db.QueryContext(ctx, q, args...)
}

func (p *poolQuerier) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if st := p.cache.get(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return p.db.QueryRowContext(ctx, q, args...)
}

// txQuerier runs a read transaction's statements through the cache, each
// bound to the transaction once.
type txQuerier struct {
	tx    *sql.Tx
	cache *stmtCache
	mu    sync.Mutex // guards stmts
	stmts map[string]*sql.Stmt
}

func (t *txQuerier) stmt(ctx context.Context, q string) *sql.Stmt {
	t.mu.Lock()
	defer t.mu.Unlock()
	st, ok := t.stmts[q]
	if ok {
		return st
	}
	if p := t.cache.get(ctx, q); p != nil {
		st = t.tx.StmtContext(ctx, p)
	} else if keepable(q) {
		st, _ = t.tx.PrepareContext(ctx, q) // closed with the transaction; on error the query runs unprepared and reports it
	}
	if t.stmts == nil {
		t.stmts = map[string]*sql.Stmt{}
	}
	t.stmts[q] = st
	return st
}

func (t *txQuerier) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := t.stmt(ctx, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, q, args...)
}

func (t *txQuerier) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if st := t.stmt(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, q, args...)
}

// len is how many statements are kept.
func (c *stmtCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// keepable reports whether a statement's text is worth keeping: a list of
// placeholders varies with its length, so its texts are many and each is
// used once.
func keepable(q string) bool { return !strings.Contains(q, "?,") }
