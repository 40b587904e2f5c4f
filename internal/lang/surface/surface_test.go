package surface

import "testing"

// A name means the prefix whose span holds the position and starts last: an
// inner function's group hides the file's, a later group of one function
// replaces an earlier one, and outside every span the name means nothing.
func TestPrefixesOf(t *testing.T) {
	ps := Prefixes{
		{Name: "g", Path: "/file", Start: 0, End: 100},
		{Name: "g", Path: "/inner", Start: 20, End: 40},
		{Name: "g", Path: "/again", Start: 20, End: 40},
		{Name: "h", Path: "/h", Start: 50, End: 60},
	}
	for _, c := range []struct {
		name string
		at   int
		want string
	}{
		{"g", 10, "/file"},
		{"g", 30, "/again"},
		{"g", 40, "/file"}, // End is exclusive
		{"g", 100, ""},
		{"h", 55, "/h"},
		{"h", 45, ""},
		{"x", 30, ""},
	} {
		if got := ps.Of(c.name, c.at); got != c.want {
			t.Errorf("Of(%q, %d) = %q, want %q", c.name, c.at, got, c.want)
		}
	}
}
