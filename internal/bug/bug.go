// Package bug reports broken invariants: conditions the code holds to be
// impossible. Under `go test` a report panics, so the test fails where the
// invariant broke; in a running Cairn it is logged once per message and
// returned as an INTERNAL error, and the rest of the work goes on. It must
// not be used for anything a user's input or a file can cause: those are
// errors with a kind.
package bug

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"testing"

	"github.com/cairnhq/cairn/internal/errs"
)

var (
	mu   sync.Mutex // guards seen
	seen = map[string]bool{}
)

// Errorf reports a broken invariant and returns it as an INTERNAL error.
func Errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	if testing.Testing() {
		panic("bug: " + err.Error())
	}
	mu.Lock()
	first := !seen[err.Error()]
	seen[err.Error()] = true
	mu.Unlock()
	if first {
		slog.Error("bug: broken invariant", "err", err)
	}
	return errs.Wrap(errs.Internal, err, "internal error")
}

// Report reports a broken invariant where the caller has no error to
// return (a value that was checked before, a cleanup).
func Report(format string, args ...any) { _ = Errorf(format, args...) }

// Unmarshal decodes into v JSON that Cairn wrote itself (a column of its
// stores, a file of its state): data it cannot decode is a broken
// invariant, reported as what (a format with args) names it. Empty data
// decodes as nothing.
func Unmarshal(data []byte, v any, what string, args ...any) {
	if len(data) == 0 {
		return
	}
	if err := json.Unmarshal(data, v); err != nil {
		Report("%s %q: %v", fmt.Sprintf(what, args...), data, err)
	}
}
