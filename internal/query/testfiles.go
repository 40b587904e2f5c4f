package query

import (
	"path"
	"strings"
)

// Which files hold tests, by their names: three readings for three uses.
// TestFileKind is the strict one, per language and test runner (affected
// tests, impact, semantic_diff); TestConvention the layout map_repo
// describes; IsTestPath a guess without the language, for ranking.

// TestFileKind says whether a file holds tests by its language's naming
// conventions, and which convention matched ("" when it does not hold tests).
// Rust files with inline #[cfg(test)] modules are found from their content
// (change does, building its dependency graph); testdata and fixture
// directories never hold tests.
func TestFileKind(p, language string) string {
	base := path.Base(p)
	dirs := strings.Split(path.Dir(p), "/")
	inDir := func(names ...string) bool {
		for _, d := range dirs {
			for _, n := range names {
				if d == n {
					return true
				}
			}
		}
		return false
	}
	if inDir("testdata", "fixtures", "__fixtures__", "__snapshots__") {
		return ""
	}
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch language {
	case "go":
		if strings.HasSuffix(base, "_test.go") {
			return "go test (*_test.go)"
		}
	case "python":
		switch {
		case strings.HasPrefix(base, "test_") && ext == ".py":
			return "pytest (test_*.py)"
		case strings.HasSuffix(base, "_test.py"):
			return "pytest (*_test.py)"
		case base != "__init__.py" && base != "conftest.py" && inDir("tests", "test"):
			return "tests/ directory"
		}
	case "javascript", "typescript", "tsx":
		return scriptTestConvention(base, inDir("__tests__"))
	case "java", "kotlin":
		switch {
		case strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "IT"):
			return "JUnit (*Test" + ext + ")"
		case strings.Contains(p, "src/test/"):
			return "src/test/"
		}
	case "csharp":
		switch {
		case strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "Test"):
			return "*Tests.cs"
		}
		for _, d := range dirs {
			if strings.HasSuffix(d, ".Tests") || strings.HasSuffix(d, ".Test") || d == "Tests" || d == "tests" {
				return "test project (" + d + "/)"
			}
		}
	case "rust":
		if len(dirs) > 0 && dirs[len(dirs)-1] == "tests" || inDir("tests") && !inDir("src") {
			return "integration tests (tests/)"
		}
	case "ruby":
		switch {
		case strings.HasSuffix(base, "_spec.rb"):
			return "RSpec (*_spec.rb)"
		case strings.HasPrefix(base, "test_") && ext == ".rb", strings.HasSuffix(base, "_test.rb"):
			return "minitest (test_*.rb)"
		}
	case "php":
		if strings.HasSuffix(stem, "Test") && ext == ".php" {
			return "PHPUnit (*Test.php)"
		}
	case "c", "cpp":
		switch {
		case strings.HasPrefix(base, "test_"), strings.HasSuffix(stem, "_test"), strings.HasSuffix(stem, "_unittest"):
			return "test_*.c / *_test.cc"
		case inDir("tests", "test"):
			return "tests/ directory"
		}
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
// (any tests/ or test/ directory, conftest.py), by pattern alone.
func TestConvention(p, language string) string {
	base := path.Base(p)
	slash := "/" + p
	inDir := func(d string) bool { return strings.Contains(slash, "/"+d+"/") }
	if inDir("testdata") || inDir("fixtures") || language == "" {
		return ""
	}
	switch language {
	case "go":
		if strings.HasSuffix(base, "_test.go") {
			return "*_test.go"
		}
		return ""
	case "python":
		switch {
		case base == "conftest.py":
			return "conftest.py"
		case strings.HasPrefix(base, "test_"):
			return "test_*.py"
		case strings.HasSuffix(base, "_test.py"):
			return "*_test.py"
		}
	case "typescript", "tsx", "javascript":
		if c := scriptTestConvention(base, inDir("__tests__")); c != "" {
			return c
		}
	}
	switch {
	case inDir("tests"):
		return "tests/ dir"
	case inDir("test"):
		return "test/ dir"
	}
	return ""
}

// scriptTestConvention is the test convention of a JavaScript or
// TypeScript file, or "": underTests says a __tests__ directory holds it.
func scriptTestConvention(base string, underTests bool) string {
	switch {
	case strings.Contains(base, ".test."):
		return "*.test.*"
	case strings.Contains(base, ".spec."):
		return "*.spec.*"
	case underTests:
		return "__tests__/"
	}
	return ""
}
