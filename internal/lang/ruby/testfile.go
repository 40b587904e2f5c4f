package ruby

import (
	"path"
	"strings"
)

// testFile: RSpec's *_spec.rb and minitest's test_*.rb and *_test.rb.
func testFile(p string) string {
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, "_spec.rb"):
		return "RSpec (*_spec.rb)"
	case strings.HasPrefix(base, "test_") && path.Ext(base) == ".rb", strings.HasSuffix(base, "_test.rb"):
		return "minitest (test_*.rb)"
	}
	return ""
}
