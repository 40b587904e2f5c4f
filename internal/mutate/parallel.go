package mutate

import "sync"

// ioWorkers bounds the files of a batch written or synced at once. The work
// is waiting on the disk (an fsync each), not computing: several in flight
// let the file system commit them together, where one after another a
// 60-file batch spends most of its time in fsync.
const ioWorkers = 8

// parallel runs f(0..n-1) on up to ioWorkers goroutines and returns the
// error of the lowest index that failed, once every call has returned. A
// panic in a call is raised again in the caller's goroutine, where the
// tool layer (and the tests' crash hook) recover it.
func parallel(n int, f func(i int) error) error {
	if n <= 1 {
		if n == 1 {
			return f(0)
		}
		return nil
	}
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var panicked any // the first panic's value; guarded by mu
	for w := 0; w < min(ioWorkers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					if panicked == nil {
						panicked = r
					}
					mu.Unlock()
					for range next {
						// drain: the other workers and the feeder finish
					}
				}
			}()
			for i := range next {
				errs[i] = f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
