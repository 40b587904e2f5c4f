package python

import (
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// testFile: pytest collects test_*.py and *_test.py, and the modules of a
// tests/ or test/ directory hold tests (but for its package and conftest
// files).
func testFile(p string) string {
	base := path.Base(p)
	switch {
	case strings.HasPrefix(base, "test_") && path.Ext(base) == ".py":
		return "pytest (test_*.py)"
	case strings.HasSuffix(base, "_test.py"):
		return "pytest (*_test.py)"
	case base != "__init__.py" && base != "conftest.py" && lang.InDir(p, "tests", "test"):
		return "tests/ directory"
	}
	return ""
}

// testLayout names the pytest file patterns, conftest.py among them; other
// files are tests by their directory.
func testLayout(p string) (string, bool) {
	base := path.Base(p)
	switch {
	case base == "conftest.py":
		return "conftest.py", true
	case strings.HasPrefix(base, "test_"):
		return "test_*.py", true
	case strings.HasSuffix(base, "_test.py"):
		return "*_test.py", true
	}
	return "", false
}
