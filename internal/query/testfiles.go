package query

import (
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
)

// Which files hold tests, by their names: three readings for three uses.
// TestFileKind is the strict one, per language and test runner (affected
// tests, impact, semantic_diff); TestConvention the layout map_repo
// describes; IsTestPath a guess without the language, for ranking.

// TestFileKind says whether a file holds tests by its language's naming
// conventions (the language's TestFile hook), and which convention matched
// ("" when it does not hold tests). Rust files with inline #[cfg(test)]
// modules are found from their content (change does, building its
// dependency graph); testdata and fixture directories never hold tests.
func TestFileKind(p, language string) string {
	if lang.InDir(p, "testdata", "fixtures", "__fixtures__", "__snapshots__") {
		return ""
	}
	return languageTestFile(p, language)
}

// languageTestFile is what the TestFile hook of a registered language says
// of p ("" without one).
func languageTestFile(p, language string) string {
	if tf := lang.Of(language).TestFile; tf != nil {
		return tf(p)
	}
	return ""
}

// IsTestPath guesses, from the path alone, whether a file holds tests
// (search ranks them lower, map_repo leaves them out of entry points and
// public API).
func IsTestPath(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	return strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") ||
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.Contains(p, "/test/") || strings.Contains(p, "/tests/") || strings.HasPrefix(p, "test/") ||
		strings.HasPrefix(p, "tests/") || strings.Contains(p, "/testdata/") || strings.Contains(p, "__tests__/")
}

// TestConvention names the naming convention that makes a file a test, or
// "", as map_repo's test layout counts them: more broadly than TestFileKind
// (any tests/ or test/ directory, conftest.py), by pattern alone. The
// language's TestLayout hook names the pattern; without one, or where it
// leaves the file undecided, the directory decides.
func TestConvention(p, language string) string {
	if lang.InDir(p, "testdata", "fixtures") || language == "" {
		return ""
	}
	if layout := lang.Of(language).TestLayout; layout != nil {
		if pattern, decided := layout(p); decided {
			return pattern
		}
	}
	switch {
	case lang.InDir(p, "tests"):
		return "tests/ dir"
	case lang.InDir(p, "test"):
		return "test/ dir"
	}
	return ""
}
