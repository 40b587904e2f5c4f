package mutate

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

// parallel runs every call, reports the lowest failing index's error, and
// raises a call's panic in the caller.
func TestParallel(t *testing.T) {
	var ran atomic.Int64
	err := parallel(50, func(i int) error {
		ran.Add(1)
		if i == 7 || i == 30 {
			return fmt.Errorf("call %d", i)
		}
		return nil
	})
	if err == nil || err.Error() != "call 7" || ran.Load() != 50 {
		t.Errorf("err %v after %d calls, want call 7 after 50", err, ran.Load())
	}
	if err := parallel(0, func(int) error { return errors.New("no") }); err != nil {
		t.Errorf("no calls: %v", err)
	}
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want boom", r)
		}
	}()
	parallel(20, func(i int) error {
		if i == 3 {
			panic("boom")
		}
		return nil
	})
	t.Error("the panic did not reach the caller")
}
