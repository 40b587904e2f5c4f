package store

import (
	"context"
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
