package change

import (
	"path"
	"strings"
)

// TestFileKind says whether a file holds tests by its language's naming
// conventions, and which convention matched ("" when it does not hold tests).
// Rust files with inline #[cfg(test)] modules are found from their content
// (see depGraph); testdata and fixture directories never hold tests.
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
		switch {
		case strings.Contains(base, ".test."):
			return "*.test.*"
		case strings.Contains(base, ".spec."):
			return "*.spec.*"
		case inDir("__tests__"):
			return "__tests__/"
		}
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

// fileCategory sorts a changed file for semantic_diff: prod, test, build,
// config or docs.
func fileCategory(p, language string) string {
	base := path.Base(p)
	if TestFileKind(p, language) != "" {
		return "test"
	}
	switch base {
	case "go.mod", "go.sum", "go.work", "package.json", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "pyproject.toml",
		"setup.py", "setup.cfg", "requirements.txt", "Cargo.toml", "Cargo.lock", "pom.xml", "build.gradle", "build.gradle.kts",
		"settings.gradle", "settings.gradle.kts", "Gemfile", "Gemfile.lock", "composer.json", "composer.lock", "Makefile",
		"Dockerfile", "CMakeLists.txt", "tsconfig.json":
		return "build"
	}
	switch strings.ToLower(path.Ext(base)) {
	case ".md", ".rst", ".txt", ".adoc":
		return "docs"
	case ".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".properties", ".xml", ".env":
		return "config"
	case ".csproj", ".sln", ".mk", ".bazel", ".bzl":
		return "build"
	}
	return "prod"
}
