package classlang

import (
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
)

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

func TestAccessorNames(t *testing.T) {
	for _, c := range []struct {
		method, prop string
		setter       bool
	}{
		{"getName", "name", false}, {"setName", "name", true}, {"getURL", "url", false}, {"getURLEncoder", "urlEncoder", false},
		{"getX", "x", false}, {"get", "", false}, {"getaway", "", false}, {"isOpen", "", false}, {"settle", "", false},
	} {
		if p, s := kotlinProperty(c.method); p != c.prop || s != c.setter {
			t.Errorf("kotlinProperty(%q) = %q, %v; want %q, %v", c.method, p, s, c.prop, c.setter)
		}
	}
	for _, c := range []struct{ prop, getter, setter string }{
		{"name", "getName", "setName"}, {"isOpen", "isOpen", "setOpen"}, {"island", "getIsland", "setIsland"}, {"url", "getUrl", "setUrl"},
	} {
		if g, s := javaAccessors(c.prop); g != c.getter || s != c.setter {
			t.Errorf("javaAccessors(%q) = %q, %q; want %q, %q", c.prop, g, s, c.getter, c.setter)
		}
	}
	// every Java spelling offered for a property names it back
	for _, prop := range []string{"url", "urlEncoder", "name", "x"} {
		got := javaSpellings("get", prop)
		if len(got) == 0 {
			t.Errorf("javaSpellings(get, %q) is empty", prop)
		}
		found := false
		for _, m := range got {
			if p, _ := kotlinProperty(m); p == prop {
				found = true
			}
		}
		if !found {
			t.Errorf("javaSpellings(get, %q) = %v: none reads back as it", prop, got)
		}
	}
	java, kotlin := RenameAccessor("java"), RenameAccessor("kotlin")
	for _, c := range []struct {
		lang              string
		old, new, spelled string
		call              bool
		want              string
		use               bool
	}{
		{"java", "getName", "getTitle", "name", false, "title", true},
		{"java", "getName", "fetchName", "name", false, "", true},
		{"java", "getName", "getTitle", "getName", true, "", false}, // Kotlin's explicit call
		{"java", "isOpen", "isShut", "isOpen", false, "isShut", true},
		{"java", "setName", "setTitle", "name", false, "", true},
		{"kotlin", "size", "count", "getSize", true, "getCount", true},
		{"kotlin", "size", "count", "setSize", true, "setCount", true},
		{"kotlin", "isEmpty", "blank", "isEmpty", true, "getBlank", true},
		{"kotlin", "size", "count", "size", false, "", false},
	} {
		f, kind := java, lang.KindMethod
		if c.lang == "kotlin" {
			f, kind = kotlin, lang.KindProperty
		}
		if got, use := f(c.old, c.new, c.spelled, kind, c.call); got != c.want || use != c.use {
			t.Errorf("%s: RenameAccessor(%q, %q, %q) = %q, %v; want %q, %v", c.lang, c.old, c.new, c.spelled, got, use, c.want, c.use)
		}
	}
}

func TestCleanKDocLinks(t *testing.T) {
	checkEach(t, "cleanKDocLinks", cleanKDocLinks, []pair{
		{"A pool of [Conn]s.", "A pool of Conns."},
		{"See [Pool.acquire] or [the other one][release].", "See Pool.acquire or the other one."},
		{"Read [the guide](https://example.com/guide) first.", "Read the guide first."},
		{"Indexing a[i] and f()[0] stays; [not a name] too.", "Indexing a[i] and f()[0] stays; [not a name] too."},
		{"[Start] of the text.", "Start of the text."},
	})
}
