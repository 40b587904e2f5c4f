package plural

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 authors"}, {1, "1 author"}, {2, "2 authors"}, {-1, "-1 authors"}} {
		if got := Count(c.n, "author", "authors"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
