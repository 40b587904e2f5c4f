package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// holdEveryConn begins read transactions until they hold every pooled
// connection of db.
func holdEveryConn(t *testing.T, db *DB) []*ReadTx {
	t.Helper()
	var txs []*ReadTx
	for range MaxConns {
		tx, err := db.BeginRead(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		txs = append(txs, tx)
	}
	return txs
}

func closeAll(txs []*ReadTx) {
	for _, tx := range txs {
		tx.Close()
	}
}

// TestReadTransactionsTakeTurnsInOrder: with every connection held by read
// transactions, the next ones start in the order they asked as a
// connection comes free. The pool alone handed a freed connection to a random
// waiter, and under load some requests waited many times longer than the
// rest, past their deadlines.
func TestReadTransactionsTakeTurnsInOrder(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t)
	held := holdEveryConn(t, db)
	const waiters = 6
	started := make(chan int, waiters)
	for i := range waiters {
		go func() {
			tx, err := db.BeginRead(ctx)
			if err != nil {
				t.Error(err)
				started <- -1
				return
			}
			started <- i
			tx.Close()
		}()
		time.Sleep(100 * time.Millisecond) // it waits before the next asks
	}
	select {
	case i := <-started:
		t.Fatalf("waiter %d started while every connection was held", i)
	default:
	}
	// One connection comes free: the waiters take it in turn, each
	// starting when the one before it ends.
	held[0].Close()
	defer closeAll(held[1:])
	var got []int
	for range waiters {
		select {
		case i := <-started:
			got = append(got, i)
		case <-time.After(10 * time.Second):
			t.Fatalf("the waiters did not all start: %v", got)
		}
	}
	if diff := cmp.Diff([]int{0, 1, 2, 3, 4, 5}, got); diff != "" {
		t.Errorf("order of the waiting read transactions (-asked +started):\n%s", diff)
	}
}

// TestServingSizes: a store opened without mapping reads through its page
// caches only, and the blob store gets the same cache as the index (an
// attached database would otherwise have SQLite's default).
func TestServingSizes(t *testing.T) {
	dir := t.TempDir()
	db := mustOpen(t, Options{IndexPath: filepath.Join(dir, "index.db"), BlobPath: filepath.Join(dir, "blobs.db"), NoMmap: true, CacheKiB: 8192})
	tx, err := db.BeginRead(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	for pragma, want := range map[string]int64{"main.mmap_size": 0, "blobs.mmap_size": 0, "main.cache_size": -8192, "blobs.cache_size": -8192} {
		var got int64
		if err := tx.tx.QueryRowContext(context.Background(), "PRAGMA "+pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %d, want %d", pragma, got, want)
		}
	}
}
