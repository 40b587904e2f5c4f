package query

import "testing"

func TestTestConvention(t *testing.T) {
	tests := []struct{ path, lang, want string }{
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
	}
	for _, tc := range tests {
		if got := TestConvention(tc.path, tc.lang); got != tc.want {
			t.Errorf("TestConvention(%q, %q) = %q, want %q", tc.path, tc.lang, got, tc.want)
		}
	}
}
