package typescript_test

import (
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
	_ "github.com/cairnhq/cairn/internal/lang/typescript"
)

// Parse gives the syntax at a position: the nodes spanning a token tell a
// destructuring shorthand from an object literal's and from a plain name.
func TestParseSpanning(t *testing.T) {
	src := []byte("function f(this: any) {\n  const { a } = this;\n  return { a, b: a };\n}\n")
	x := lang.NewExtractor()
	defer x.Close()
	v, err := x.Parse(lang.ByName("typescript"), src)
	if err != nil || v == nil {
		t.Fatalf("parse: %v", err)
	}
	kinds := func(off int) string {
		var ks []string
		for _, n := range v.Spanning(off, off+1) {
			ks = append(ks, v.Kind(n))
		}
		return strings.Join(ks, " ")
	}
	s := string(src)
	for _, c := range []struct {
		at   int
		want string
	}{
		{strings.Index(s, "a }"), "shorthand_property_identifier_pattern"},
		{strings.Index(s, "a, b"), "shorthand_property_identifier"},
		{strings.LastIndex(s, "a }"), "identifier"},
		{strings.Index(s, "b:"), "property_identifier"},
	} {
		if got := kinds(c.at); got != c.want {
			t.Errorf("at %d: %q, want %q", c.at, got, c.want)
		}
	}
}
