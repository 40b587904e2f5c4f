package ecma

import (
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// TestFile is the convention by which a JavaScript or TypeScript file holds
// tests, as jest, vitest and mocha find them: *.test.*, *.spec.*, or a file
// under __tests__.
func TestFile(p string) string {
	base := path.Base(p)
	switch {
	case strings.Contains(base, ".test."):
		return "*.test.*"
	case strings.Contains(base, ".spec."):
		return "*.spec.*"
	case lang.InDir(p, "__tests__"):
		return "__tests__/"
	}
	return ""
}

// TestLayout: the test runners' own patterns, else the directory.
func TestLayout(p string) (string, bool) {
	c := TestFile(p)
	return c, c != ""
}
