package query

import (
	"strings"
	"testing"

	_ "github.com/cairnhq/cairn/internal/lang/all" // the languages' hooks and aliases
)

// fileCase is a file, by path and language, and what is wanted of it.
type fileCase struct{ path, lang, want string }

// checkFiles wants f to give each file the answer of its case.
func checkFiles(t *testing.T, name string, f func(path, lang string) string, cases []fileCase) {
	t.Helper()
	for _, tc := range cases {
		if got := f(tc.path, tc.lang); got != tc.want {
			t.Errorf("%s(%q, %q) = %q, want %q", name, tc.path, tc.lang, got, tc.want)
		}
	}
}

func TestTestConvention(t *testing.T) {
	checkFiles(t, "TestConvention", TestConvention, []fileCase{
		{"pkg/a_test.go", "go", "*_test.go"},
		{"pkg/a.go", "go", ""},
		{"pkg/testdata/x_test.go", "go", ""},
		{"tests/test_a.py", "python", "test_*.py"},
		{"a/b_test.py", "python", "*_test.py"},
		{"tests/conftest.py", "python", "conftest.py"},
		{"tests/helpers.py", "python", "tests/ dir"},
		{"src/a.test.ts", "typescript", "*.test.*"},
		{"src/a.spec.js", "javascript", "*.spec.*"},
		{"src/__tests__/a.tsx", "tsx", "__tests__/"},
		{"test/util.js", "javascript", "test/ dir"},
		{"tests/data.json", "", ""},
		{"src/contest.py", "python", ""},
		{"tests/helper.go", "go", ""},
		{"tests/FooTest.java", "java", "tests/ dir"},
		{"test/a_test.rs", "rust", "test/ dir"},
		{"fixtures/a_test.go", "go", ""},
	})
}

// TestFileKind reads each language's conventions (its TestFile hook); test
// data and fixtures never hold tests.
func TestTestFileKind(t *testing.T) {
	checkFiles(t, "TestFileKind", TestFileKind, []fileCase{
		{"pkg/a_test.go", "go", "go test (*_test.go)"},
		{"pkg/a.go", "go", ""},
		{"pkg/testdata/x_test.go", "go", ""},
		{"tests/test_a.py", "python", "pytest (test_*.py)"},
		{"a/b_test.py", "python", "pytest (*_test.py)"},
		{"tests/helpers.py", "python", "tests/ directory"},
		{"tests/conftest.py", "python", ""},
		{"tests/__init__.py", "python", ""},
		{"src/contest.py", "python", ""},
		{"src/a.test.ts", "typescript", "*.test.*"},
		{"src/a.spec.js", "javascript", "*.spec.*"},
		{"src/__tests__/a.tsx", "tsx", "__tests__/"},
		{"src/__snapshots__/a.test.ts", "typescript", ""},
		{"test/util.js", "javascript", ""},
		{"src/main/java/a/FooTest.java", "java", "JUnit (*Test.java)"},
		{"src/main/java/a/FooIT.java", "java", "JUnit (*Test.java)"},
		{"src/test/java/a/Helper.kt", "kotlin", "src/test/"},
		{"src/main/java/a/Foo.java", "java", ""},
		{"Lib/FooTests.cs", "csharp", "*Tests.cs"},
		{"Lib.Tests/Helper.cs", "csharp", "test project (Lib.Tests/)"},
		{"Lib/Foo.cs", "csharp", ""},
		{"tests/it.rs", "rust", "integration tests (tests/)"},
		{"crate/tests/common/mod.rs", "rust", "integration tests (tests/)"},
		{"src/tests/mod.rs", "rust", "integration tests (tests/)"},
		{"src/lib.rs", "rust", ""},
		{"spec/foo_spec.rb", "ruby", "RSpec (*_spec.rb)"},
		{"test/test_foo.rb", "ruby", "minitest (test_*.rb)"},
		{"lib/foo.rb", "ruby", ""},
		{"tests/FooTest.php", "php", "PHPUnit (*Test.php)"},
		{"src/Foo.php", "php", ""},
		{"src/test_parse.c", "c", "test_*.c / *_test.cc"},
		{"src/parse_unittest.cc", "cpp", "test_*.c / *_test.cc"},
		{"tests/helpers.h", "c", "tests/ directory"},
		{"src/parse.c", "c", ""},
		{"tests/a_test.go", "", ""},
		{"docs/a_test.md", "markdown", ""},
	})
}

// A language filter takes a language's name or alias, in any case, and a
// filter on TypeScript takes its TSX dialect too.
func TestFileFilterLanguages(t *testing.T) {
	for _, tc := range []struct {
		langs []string
		in    []string // languages the filter keeps
		out   []string // languages it drops
	}{
		{[]string{"ts"}, []string{"typescript", "tsx"}, []string{"javascript"}},
		{[]string{"TypeScript"}, []string{"typescript", "tsx"}, []string{"go"}},
		{[]string{"tsx"}, []string{"tsx"}, []string{"typescript"}},
		{[]string{"golang", "py"}, []string{"go", "python"}, []string{"ruby"}},
		{[]string{"C#", "kt", "c++", "cc", "cxx"}, []string{"csharp", "kotlin", "cpp"}, []string{"c", "java"}},
		{[]string{"js", "rb", "rs", "yml", "md"}, []string{"javascript", "ruby", "rust", "yaml", "markdown"}, []string{"json"}},
	} {
		f, err := NewFileFilter(nil, tc.langs)
		if err != nil {
			t.Fatalf("%v: %v", tc.langs, err)
		}
		for _, l := range tc.in {
			if !f.Match("x", l) {
				t.Errorf("%v drops %s", tc.langs, l)
			}
		}
		for _, l := range tc.out {
			if f.Match("x", l) {
				t.Errorf("%v keeps %s", tc.langs, l)
			}
		}
	}
	if _, err := NewFileFilter(nil, []string{"cobol"}); err == nil || !strings.Contains(err.Error(), `unknown language "cobol"`) {
		t.Errorf("an unknown language: %v", err)
	}
}

// TestLangFamily: TypeScript, TSX and JavaScript reference each other's
// symbols as one family; every other language is its own.
func TestLangFamily(t *testing.T) {
	for l, want := range map[string]string{
		"typescript": "ecma", "tsx": "ecma", "javascript": "ecma",
		"go": "go", "java": "java", "kotlin": "kotlin", "cpp": "cpp", "nosuch": "nosuch", "": "",
	} {
		if got := LangFamily(l); got != want {
			t.Errorf("LangFamily(%q) = %q, want %q", l, got, want)
		}
	}
}
