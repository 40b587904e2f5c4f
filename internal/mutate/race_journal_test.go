package mutate

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// Batches that start while others write their journals never fail to lock
// their own: recovery, which every batch runs first, leaves a young
// journal's temporary file alone, so it cannot hold a lock a live writer is
// about to take.
func TestConcurrentBatchesLockTheirJournals(t *testing.T) {
	e := newEngine(t, map[string]string{})
	const writers, rounds = 4, 20
	var wg sync.WaitGroup
	errc := make(chan error, writers*rounds)
	// Recovery running all the while, as other processes' batches run it.
	stop := make(chan struct{})
	var recovering sync.WaitGroup
	for range 2 {
		recovering.Add(1)
		go func() {
			defer recovering.Done()
			for {
				select {
				case <-stop:
					return
				default:
					e.Recover(context.Background())
				}
			}
		}()
	}
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				action := Update
				if r == 0 {
					action = Create
				}
				content := fmt.Sprintf("write %d\n", r)
				_, err := e.Write(context.Background(), Request{Edits: []FileEdit{{Path: fmt.Sprintf("w%d.txt", w), Action: action, Content: &content}}})
				if err != nil {
					errc <- fmt.Errorf("writer %d round %d: %w", w, r, err)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	recovering.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
}
