package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// Read transactions holding every pooled connection still run statements
// they have not prepared yet: preparing waits briefly for a connection of
// its own, then runs the statement unprepared on the transaction's, instead
// of waiting for a connection none of them will give back.
func TestStatementsPrepareWithoutAFreeConnection(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	if _, _, err := db.FileByPath(ctx, "a.go"); err != nil { // prepared on the pool
		t.Fatal(err)
	}
	kept := db.stmts.len()
	txs := holdEveryConn(t, db)
	defer closeAll(txs)
	done := make(chan error, len(txs))
	for _, tx := range txs {
		go func() {
			if _, _, err := tx.FileByPath(ctx, "a.go"); err != nil { // kept: prepared on the transaction's connection
				done <- err
				return
			}
			_, err := tx.NameCandidates(ctx, "Name") // new: the pool has no connection to prepare it on
			done <- err
		}()
	}
	for range txs {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a read waited for a pooled connection while every connection was held")
		}
	}
	if got := db.stmts.len(); got != kept {
		t.Errorf("%d statements kept, want %d (those prepared while a connection was free)", got, kept)
	}
}

// A short command's read transaction opens no connection to prepare its
// statements on: a new connection parses the whole schema, which costs more
// than the statements. They are prepared on the transaction's connection
// and kept there, so a statement run again is not parsed again.
func TestReadTransactionOpensNoConnectionToPrepare(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := Options{IndexPath: filepath.Join(dir, "index.db"), BlobPath: filepath.Join(dir, "blobs.db")}
	if db, err := Open(opts); err != nil { // create both files
		t.Fatal(err)
	} else {
		db.Close()
	}
	db := mustOpen(t, opts)
	tx, err := db.BeginRead(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	open := db.sql.Stats().OpenConnections
	for range 3 {
		if _, _, err := tx.FileByPath(ctx, "a.go"); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.NameCandidates(ctx, "Name"); err != nil {
			t.Fatal(err)
		}
	}
	if got := db.sql.Stats().OpenConnections; got != open {
		t.Errorf("%d connections open after the reads, want %d (the transaction's)", got, open)
	}
	q := tx.Reader.sql.(*txQuerier)
	q.mu.Lock()
	kept := len(q.stmts)
	for text, st := range q.stmts {
		if st == nil {
			t.Errorf("not kept on the transaction: %s", text)
		}
	}
	q.mu.Unlock()
	if kept != 2 {
		t.Errorf("%d statements kept on the transaction, want 2", kept)
	}
}
