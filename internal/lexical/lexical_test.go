package lexical

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/errs"
)

func TestFind(t *testing.T) {
	content := []byte("func Foo() {\n\tfoo := FooBar()\n\treturn Foo\n}\n")
	tests := []struct {
		name  string
		q     Query
		want  [][2]int // line, col
		pref  string
		exact bool
	}{
		{"literal", Query{Text: "Foo"}, [][2]int{{1, 6}, {2, 9}, {3, 9}}, "Foo", true},
		{"word", Query{Text: "Foo", Word: true}, [][2]int{{1, 6}, {3, 9}}, "Foo", true},
		{"ignore case", Query{Text: "foo", IgnoreCase: true}, [][2]int{{1, 6}, {2, 2}, {2, 9}, {3, 9}}, "foo", false},
		{"regex", Query{Text: `Foo\w+\(`, Regex: true}, [][2]int{{2, 9}}, "Foo", false},
		{"regex no literal", Query{Text: `\w+\(\)`, Regex: true}, [][2]int{{1, 6}, {2, 9}}, "", false},
		{"word ignore case", Query{Text: "foo", Word: true, IgnoreCase: true}, [][2]int{{1, 6}, {2, 2}, {3, 9}}, "foo", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Compile(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := m.Find(content, 0)
			var pos [][2]int
			for _, g := range got {
				pos = append(pos, [2]int{g.Line, g.Col})
			}
			if diff := cmp.Diff(tt.want, pos); diff != "" {
				t.Errorf("positions (-want +got):\n%s", diff)
			}
			lit, exact := m.Prefilter()
			if lit != tt.pref || (lit != "" && exact != tt.exact) {
				t.Errorf("prefilter = %q,%v want %q,%v", lit, exact, tt.pref, tt.exact)
			}
		})
	}
}

func TestBadRegex(t *testing.T) {
	_, err := Compile(Query{Text: "a(b", Regex: true})
	if errs.KindOf(err) != errs.InvalidRegex || errs.KindOf(err).ExitCode() != 2 {
		t.Fatalf("want INVALID_REGEX with exit 2, got %v", err)
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pat  string
		path string
		want bool
	}{
		{"*.go", "a/b/c.go", true},
		{"*.go", "a/b/c.py", false},
		{"pkg/**/*.go", "pkg/a/b.go", true},
		{"pkg/**/*.go", "pkg/b.go", true},
		{"pkg/*.go", "pkg/a/b.go", false},
		{"pkg", "pkg/a/b.go", true},
		{"**/*_test.go", "x/y_test.go", true},
		{"*.{ts,tsx}", "src/a.tsx", true},
		{"src/", "src/a/b.ts", true},
	}
	for _, tt := range tests {
		g, err := CompileGlob(tt.pat)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Match(tt.path); got != tt.want {
			t.Errorf("%q ~ %q = %v, want %v", tt.pat, tt.path, got, tt.want)
		}
	}
}
