package cfamily

import (
	"path"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// TestFile is the convention by which a C or C++ file holds tests: test_*,
// *_test or *_unittest (GoogleTest's), or any file of a tests/ or test/
// directory.
func TestFile(p string) string {
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch {
	case strings.HasPrefix(base, "test_"), strings.HasSuffix(stem, "_test"), strings.HasSuffix(stem, "_unittest"):
		return "test_*.c / *_test.cc"
	case lang.InDir(p, "tests", "test"):
		return "tests/ directory"
	}
	return ""
}
