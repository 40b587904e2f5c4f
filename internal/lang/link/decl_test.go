package link

import "testing"

func TestCastTo(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{"(Box) o", "Box"},
		{"(Box)o", "Box"},
		{"(a.Box) holder.get()", "a.Box"},
		{"(List<Foo>) xs", "List"},
		{"(Box) (o)", "Box"},
		{"(a) - b", ""},
		{"(A) - b", ""},
		{"(X) => y", ""},
		{"(x) => y", ""},
		{"(Box)", ""},
		{"Box o", ""},
		{"o as Box", ""},
	} {
		if got := castTo(c.expr); got != c.want {
			t.Errorf("castTo(%q) = %q, want %q", c.expr, got, c.want)
		}
	}
}
