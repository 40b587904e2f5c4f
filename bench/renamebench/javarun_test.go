package renamebench

import "testing"

func TestJavaKind(t *testing.T) {
	for _, c := range []struct {
		line, prev string
		iface      bool
		want       string
	}{
		{"    public void put(int k) {", "@Override", false, "method_override"},
		{"    void put(int k);", "", true, "method_abstract"},
		{"    protected abstract int size();", "", false, "method_abstract"},
		{"    public <T> List<T> map(Function<T> f) {", "", false, "method"},
		{"                if (n > MAX_BATCH)", "", false, ""},
		{"                leadingSign(sb, neg);", "", false, ""},
		{"            super(s);", "", false, ""},
		{"            for (Cell c : cs) {", "", false, ""},
		{"        } else if (x) {", "", false, ""},
		{"        return foo(x);", "", false, ""},
		{"    static int helper() {", "", false, ""},
		{"    private int hidden() {", "", false, ""},
		{"        Object o = make(1);", "", false, ""},
	} {
		if got := javaKind(c.line, c.prev, c.iface); got != c.want {
			t.Errorf("javaKind(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
