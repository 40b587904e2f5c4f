package tools

import "testing"

func TestSplitSpan(t *testing.T) {
	for in, want := range map[string]struct {
		path       string
		start, end int
	}{
		"a/b.go":           {"a/b.go", 0, 0},
		"a/b.go:10":        {"a/b.go", 10, 0},
		"a/b.go:10-20":     {"a/b.go", 10, 20},
		"a/b.go:10-":       {"a/b.go", 10, 0},
		"a/b.go:10:5":      {"a/b.go", 10, 0},
		"a/b.go#L10-L20":   {"a/b.go", 10, 20},
		"a/b.go#L10":       {"a/b.go", 10, 0},
		"a/b.go#Lost":      {"a/b.go#Lost", 0, 0},
		"c:d/e.txt":        {"c:d/e.txt", 0, 0},
		"notes:draft.md":   {"notes:draft.md", 0, 0},
		"x/y.go:3:4-9":     {"x/y.go:3", 4, 9},
		"Parser::parse":    {"Parser::parse", 0, 0},
		"Parser::parse:10": {"Parser::parse", 10, 0},
	} {
		p, a, b, err := SplitSpan(in)
		if err != nil || p != want.path || a != want.start || b != want.end {
			t.Errorf("SplitSpan(%q) = %q %d %d %v, want %q %d %d", in, p, a, b, err, want.path, want.start, want.end)
		}
	}
	for _, bad := range []string{"a.go:0", "a.go:12-10", "a.go:1-x", "a.go#L0"} {
		if _, _, _, err := SplitSpan(bad); err == nil {
			t.Errorf("SplitSpan(%q) took a bad range", bad)
		}
	}
}
