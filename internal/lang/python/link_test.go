package python

import "testing"

// wantEach wants f to turn each key into its value.
func wantEach(t *testing.T, name string, f func(string) string, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%q) = %q, want %q", name, in, got, want)
		}
	}
}

func TestCalleeOf(t *testing.T) {
	wantEach(t, "calleeOf", calleeOf, map[string]string{
		"C()":               "C",
		"m.C(a, b)":         "m.C",
		"Query(model, x=1)": "Query",
		"f(a)(b)":           "",
		"f(a).g(b)":         "",
		`f("x(").g(")")`:    "",
		"(a or b)()":        "",
		"x[0]()":            "",
		"super()":           "super",
		"C(D(1), E())":      "C",
		"":                  "",
		"C":                 "",
	})
}

func TestIsSuper(t *testing.T) {
	for _, c := range []struct {
		q, class string
		want     bool
	}{
		{"super()", "A", true},
		{"super(A, self)", "A", true},
		{"super(B, self)", "A", false},
		{"super(A, cls)", "A", false},
		{"sup()", "A", false},
		{"wrap(A, self)", "A", false},
	} {
		if got := isSuper(c.q, c.class); got != c.want {
			t.Errorf("isSuper(%q, %q) = %v, want %v", c.q, c.class, got, c.want)
		}
	}
}

func TestAnnotatedClass(t *testing.T) {
	wantEach(t, "annotatedClass", annotatedClass, map[string]string{
		"Session":                  "Session",
		`"Session"`:                "Session",
		"Optional[Session]":        "Session",
		"typing.Optional[db.Sess]": "db.Sess",
		"Session | None":           "Session",
		"None | Session":           "Session",
		"A | B":                    "",
		"list[Session]":            "",
		"None":                     "",
	})
}
