package query

import (
	"path"

	"github.com/cairnhq/cairn/internal/lang"
)

// Ranking: lists of code (references, callers, implementations, search
// hits) put the repository's own code before its tests, then what is
// nearest the symbol asked about (its package or directory, then its
// module), then the best evidence tier.

// IsTestFile reports whether a file holds tests or their fixtures, for
// ranking: by its path (IsTestPath) or by its language's conventions
// (TestFileKind).
func IsTestFile(p string) bool {
	if IsTestPath(p) {
		return true
	}
	l := lang.ForPath(p)
	return l != nil && TestFileKind(p, l.Name) != ""
}

// Proximity says how near a file of a module is to the file a question is
// about: 0 the same directory (a Go package, a Python package), 1 the same
// module, 2 elsewhere.
func Proximity(p, root string, module, rootModule int64) int {
	switch {
	case path.Dir(p) == path.Dir(root):
		return 0
	case module == rootModule && module != 0:
		return 1
	}
	return 2
}
