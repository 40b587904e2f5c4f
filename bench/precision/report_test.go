package precision

import "testing"

func TestSplice(t *testing.T) {
	doc := "# Results\n\n## Other\nkept\n"
	once := Splice(doc, "## Precision\nv1\n")
	want := doc + "\n" + beginMarker + "\n## Precision\nv1\n" + endMarker + "\n"
	if once != want {
		t.Fatalf("first splice:\n%s", once)
	}
	twice := Splice(once+"## After\nalso kept\n", "## Precision\nv2\n")
	want = doc + "\n" + beginMarker + "\n## Precision\nv2\n" + endMarker + "\n\n## After\nalso kept\n"
	if twice != want {
		t.Fatalf("second splice:\n%q\nwant\n%q", twice, want)
	}
}

func TestTally(t *testing.T) {
	files := NewFiles(t.TempDir())
	tl := NewTally()
	a, b, c, d := Loc{"a", 1, 1}, Loc{"a", 2, 1}, Loc{"b", 1, 1}, Loc{"b", 2, 1}
	tl.Add("S", Answer{a: "proven", b: "strong", c: "anchored", d: "anchored"}, Truth{a: true, b: true, c: true}, files)
	if p := tl.Precision("strong"); p != 1 {
		t.Errorf("strong precision %v", p)
	}
	if p := tl.Precision("anchored"); p != 0.5 {
		t.Errorf("anchored precision %v", p)
	}
	if r := tl.RecallUpTo("strong"); r < 0.66 || r > 0.67 {
		t.Errorf("recall up to strong %v", r)
	}
	if r := tl.RecallUpTo("anchored"); r != 1 {
		t.Errorf("recall up to anchored %v", r)
	}
	if tl.Exact != 0 || tl.WeakTotal != 1 || tl.FPTotal["anchored"] != 1 {
		t.Errorf("exact %d weak %d fp %v", tl.Exact, tl.WeakTotal, tl.FPTotal)
	}
}
