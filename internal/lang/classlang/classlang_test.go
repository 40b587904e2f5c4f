package classlang

import "testing"

// pair is an input and the output wanted for it.
type pair struct{ in, want string }

// checkEach wants f to turn each input into its paired output.
func checkEach(t *testing.T, name string, f func(string) string, cases []pair) {
	t.Helper()
	for _, c := range cases {
		if got := f(c.in); got != c.want {
			t.Errorf("%s(%q) = %q, want %q", name, c.in, got, c.want)
		}
	}
}

func TestCleanJavadoc(t *testing.T) {
	checkEach(t, "CleanJavadoc", CleanJavadoc, []pair{
		{"/** Builds it. */", "Builds it."},
		{"/**\n * Joins {@code parts} with {@link Sep#COMMA}.\n *\n * @param parts the parts\n */", "\nJoins parts with Sep.COMMA.\n"},
		{"/** Runs {@link Task tasks} in <b>order</b>&amp;more. */", "Runs tasks in order&more."},
		{"/** @deprecated use other */", ""},
	})
}

func TestCleanXMLDoc(t *testing.T) {
	checkEach(t, "CleanXMLDoc", CleanXMLDoc, []pair{
		{"/// <summary>An order.</summary>", "An order."},
		{"/// <summary>\n/// Adds <paramref name=\"n\"/> to <see cref=\"T:Acme.Shop.Order\"/>.\n/// </summary>\n/// <returns>x</returns>", "\nAdds n to Order.\n"},
		{"/// <summary>Calls <see cref=\"M:A.B.Run(System.Int32)\"/> &lt;now&gt;.</summary>", "Calls Run <now>."},
		{"/// Plain text, no tags.", "Plain text, no tags."},
	})
}

func TestStripTypeArgs(t *testing.T) {
	checkEach(t, "StripTypeArgs", StripTypeArgs, []pair{
		{"Comparable<Point<T>>", "Comparable"},
		{"a.b.C<T>", "a.b.C"},
		{"Map<K, V>.Entry", "Map.Entry"},
		{"List<? extends Number>", "List"},
		{"Base", "Base"},
	})
}

func TestCleanSignature(t *testing.T) {
	checkEach(t, "CleanSignature", CleanSignature, []pair{
		{"public  void run( )  {", "public void run()"},
		{"int x = 1;", "int x = 1"},
		{"Runnable r = () ->", "Runnable r = ()"},
		{"fun f( a: Int ,  b: Int ) =", "fun f(a: Int, b: Int)"},
		{"void  f(  @NonNull String s)", "void f(@NonNull String s)"},
	})
}
