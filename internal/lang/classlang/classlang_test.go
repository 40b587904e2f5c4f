package classlang

import "testing"

func TestCleanJavadoc(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/** Builds it. */", "Builds it."},
		{"/**\n * Joins {@code parts} with {@link Sep#COMMA}.\n *\n * @param parts the parts\n */", "\nJoins parts with Sep.COMMA.\n"},
		{"/** Runs {@link Task tasks} in <b>order</b>&amp;more. */", "Runs tasks in order&more."},
		{"/** @deprecated use other */", ""},
	} {
		if got := CleanJavadoc(c.in); got != c.want {
			t.Errorf("CleanJavadoc(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCleanXMLDoc(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/// <summary>An order.</summary>", "An order."},
		{"/// <summary>\n/// Adds <paramref name=\"n\"/> to <see cref=\"T:Acme.Shop.Order\"/>.\n/// </summary>\n/// <returns>x</returns>", "\nAdds n to Order.\n"},
		{"/// <summary>Calls <see cref=\"M:A.B.Run(System.Int32)\"/> &lt;now&gt;.</summary>", "Calls Run <now>."},
		{"/// Plain text, no tags.", "Plain text, no tags."},
	} {
		if got := CleanXMLDoc(c.in); got != c.want {
			t.Errorf("CleanXMLDoc(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStripTypeArgs(t *testing.T) {
	for in, want := range map[string]string{
		"Comparable<Point<T>>":   "Comparable",
		"a.b.C<T>":               "a.b.C",
		"Map<K, V>.Entry":        "Map.Entry",
		"List<? extends Number>": "List",
		"Base":                   "Base",
	} {
		if got := StripTypeArgs(in); got != want {
			t.Errorf("StripTypeArgs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCleanSignature(t *testing.T) {
	for in, want := range map[string]string{
		"public  void run( )  {":       "public void run()",
		"int x = 1;":                   "int x = 1",
		"Runnable r = () ->":           "Runnable r = ()",
		"fun f( a: Int ,  b: Int ) =":  "fun f(a: Int, b: Int)",
		"void  f(  @NonNull String s)": "void f(@NonNull String s)",
	} {
		if got := CleanSignature(in); got != want {
			t.Errorf("CleanSignature(%q) = %q, want %q", in, got, want)
		}
	}
}
