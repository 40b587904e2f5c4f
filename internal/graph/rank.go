package graph

import (
	"strconv"

	"github.com/cairnhq/cairn/internal/query"
)

// Ranking (query/rank.go): every list of the graph answers puts the
// repository's own code before its tests, then what is nearest the symbol
// asked about, then the best evidence tier; a list cut to fit a budget
// loses its tests first, and says how many of each kind it lost.

// Cut says what a limit or the response budget left out of a list.
type Cut struct {
	Field    string
	Reason   string // limit, max_chars
	Tests    int    // items declared in test files
	NonTests int
}

// isTestPath reports whether a file holds tests (or test fixtures).
func isTestPath(p string) bool { return query.IsTestFile(p) }

// CompareBool orders false before true, for sorting with cmp.Or.
func CompareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// String says what a cut dropped: "2 non-test, 5 test".
func (c Cut) String() string {
	return strconv.Itoa(c.NonTests) + " non-test, " + strconv.Itoa(c.Tests) + " test"
}

// add counts one item left out.
func (c *Cut) add(test bool) {
	if test {
		c.Tests++
	} else {
		c.NonTests++
	}
}

// Any reports whether the cut left anything out.
func (c Cut) Any() bool { return c.Tests+c.NonTests > 0 }
