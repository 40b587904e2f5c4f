package graph

import (
	"path"
	"strconv"

	"github.com/cairnhq/cairn/internal/query"
)

// Ranking: every list of the graph answers puts the repository's own code
// before its tests, then what is nearest the symbol asked about (the same
// package or directory, then the same module), then the best evidence tier;
// a list cut to fit a budget loses its tests first, and says how many of
// each kind it lost.

// Cut says what a limit or the response budget left out of a list.
type Cut struct {
	Field    string
	Reason   string // limit, max_chars
	Tests    int    // items declared in test files
	NonTests int
}

// isTestPath reports whether a file holds tests (or test fixtures), by its path.
func isTestPath(p string) bool {
	return query.IsTestPath(p) || query.TestFileKind(p, langOfPath(p)) != ""
}

// langOfPath guesses the language whose test conventions a path follows.
func langOfPath(p string) string {
	switch path.Ext(p) {
	case ".go":
		return "go"
	case ".py":
		return "python"
	case ".ts", ".tsx", ".mts", ".cts":
		return "typescript"
	case ".js", ".jsx", ".mjs", ".cjs":
		return "javascript"
	case ".java":
		return "java"
	case ".kt":
		return "kotlin"
	case ".cs":
		return "csharp"
	case ".rs":
		return "rust"
	case ".rb":
		return "ruby"
	case ".php":
		return "php"
	}
	return ""
}

// proximity says how near a file is to the one a question is about: 0 the
// same directory (a Go package, a Python package), 1 the same module, 2
// elsewhere.
func proximity(p, root string, module, rootModule int64) int {
	switch {
	case path.Dir(p) == path.Dir(root):
		return 0
	case module == rootModule && module != 0:
		return 1
	}
	return 2
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
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
