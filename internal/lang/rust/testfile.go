package rust

import (
	"path"

	"github.com/cairnhq/cairn/internal/lang"
)

// testFile: cargo builds each file of a crate's tests/ directory as an
// integration test of the whole crate (ModuleTests); inline #[cfg(test)]
// modules are found from the content (InlineTests).
func testFile(p string) string {
	if path.Base(path.Dir(p)) == "tests" || lang.InDir(p, "tests") && !lang.InDir(p, "src") {
		return "integration tests (tests/)"
	}
	return ""
}
