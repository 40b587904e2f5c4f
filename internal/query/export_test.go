package query

import (
	"testing"
	"time"
)

// SetRefsReserve replaces the time a references search keeps for what
// follows its scan, until the test ends.
func SetRefsReserve(t testing.TB, f func(left time.Duration) time.Duration) {
	old := refsReserve
	refsReserve = f
	t.Cleanup(func() { refsReserve = old })
}
