package lang

import "testing"

func TestTopLevel(t *testing.T) {
	colon := func(s string) func(int) bool { return func(i int) bool { return s[i] == ':' } }
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"x: Map<K, V>", 1},
		{"(a: int): string", 8},
		{"f(a: {b: c}, d: [e: f])", -1},
		{"a > b: c", 5}, // a closing bracket never drops below zero
	} {
		if got := TopLevel(tc.s, colon(tc.s)); got != tc.want {
			t.Errorf("TopLevel(%q, ':') = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func TestBalanced(t *testing.T) {
	for _, tc := range []struct {
		s, inner, rest string
		ok             bool
	}{
		{"  (a, (b)) int", "a, (b)", " int", true},
		{"(a, b", "", "(a, b", false},
		{"a(b)", "", "a(b)", false},
		{"", "", "", false},
	} {
		inner, rest, ok := Balanced(tc.s, '(', ')')
		if inner != tc.inner || rest != tc.rest || ok != tc.ok {
			t.Errorf("Balanced(%q) = %q, %q, %v; want %q, %q, %v", tc.s, inner, rest, ok, tc.inner, tc.rest, tc.ok)
		}
	}
}

func TestParamList(t *testing.T) {
	for _, tc := range []struct {
		sig, name, want string
		ok              bool
	}{
		{"func Map[T any, U comparable](xs []T, f func(T) U) []U", "Map", "xs []T, f func(T) U", true},
		{"function pick<K extends keyof T>(o: T, k: K): T[K]", "pick", "o: T, k: K", true},
		{"def run(self, n: int = 1) -> None", "run", "self, n: int = 1", true},
		{"Runner interface {", "Runner", "", false},
		{"func Other()", "Missing", "", false},
	} {
		got, ok := ParamList(tc.sig, tc.name)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParamList(%q, %q) = %q, %v; want %q, %v", tc.sig, tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestArity(t *testing.T) {
	cases := []struct {
		sig, name string
		min, max  int
		ok        bool
	}{
		{"public void put(int k, int v)", "put", 2, 2, true},
		{"void put()", "put", 0, 0, true},
		{"public void put(String s, int... more)", "put", 1, -1, true},
		{"public void Add(int a, int b = 0)", "Add", 1, 2, true},
		{"public static void Log(string f, params object[] args)", "Log", 1, -1, true},
		{"fun run(n: Int, then: () -> Unit = {})", "run", 1, 2, true},
		{"fun all(vararg xs: Int)", "all", 0, -1, true},
		{"public <T> T pick(Map<String, T> m, Comparator<T> c)", "pick", 2, 2, true},
		{"int printf(const char *fmt, ...)", "printf", 1, -1, true},
		{"public static IObservable<TR> Select<T, TR>(this IObservable<T> source, Func<T, TR> selector)", "Select", 1, 2, true},
		{"public class Box", "put", 0, 0, false},
	}
	for _, c := range cases {
		a := ArityOf(c.sig, c.name)
		if a.Min != c.min || a.Max != c.max || a.Known != c.ok {
			t.Errorf("ArityOf(%q, %q) = %+v; want %d, %d, %v", c.sig, c.name, a, c.min, c.max, c.ok)
		}
	}
}
