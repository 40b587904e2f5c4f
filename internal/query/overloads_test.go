package query_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/testenv"
)

// overloaded holds types with several constructors and methods defined
// several times (Java, C#, and C++ with its constructor out of its class).
var overloaded = map[string]string{
	"src/acme/Box.java": `package acme;

public class Box<T> {
    public Box() {}
    public Box(int size) {}
    public void add(T item) {}
    public void add(int index, T item) {}
    public static <T> void sort(java.util.List<T> list, java.util.Comparator<? super T> c) {}
    public static <T> void sort(java.util.List<T> list) {}
}
`,
	"src/other/Box.java": "package other;\n\npublic class Box {\n    Box() {}\n}\n",
	"src/Acme/Store.cs":  "namespace Acme {\n  public class Store {\n    public Store() {}\n    public Store(string name) {}\n    public void On(Func<int, bool> f) {}\n    public void On(Func<int, int, bool> f) {}\n  }\n}\n",
	"native/impl.h":      "namespace db {\nclass Impl {\n public:\n  Impl(int n);\n  int Get(int k);\n};\n}\n",
	"native/impl.cc":     "#include \"impl.h\"\n\nnamespace db {\nImpl::Impl(int n) {}\n}\n",
}

// A type's name means the type, not its constructors; a parameter list
// chooses among overloads by their parameters' types or names.
func TestResolveOverloadsAndConstructors(t *testing.T) {
	e := testenv.OpenIndex(t, overloaded).Engine(t)
	for name, want := range map[string]string{
		"acme.Box":                         "class public class Box<T>",
		"Box(int)":                         "constructor public Box(int size)",
		"acme.Box()":                       "constructor public Box()",
		"Box.add(T)":                       "method public void add(T item)",
		"Box<T>#add(int, T)":               "method public void add(int index, T item)",
		"acme.Box.add(int index, T item)":  "method public void add(int index, T item)",
		"Box.sort(List<T>, Comparator<T>)": "method public static <T> void sort(java.util.List<T> list, java.util.Comparator<? super T> c)",
		"Box.sort(java.util.List)":         "method public static <T> void sort(java.util.List<T> list)",
		"Store":                            "class public class Store",
		"Acme.Store(string)":               "constructor public Store(string name)",
		"db::Impl":                         "class class Impl",
		"Store.On(Func<int, int, bool>)":   "method public void On(Func<int, int, bool> f)",
		"Store.On(System.Func<int,bool>)":  "method public void On(Func<int, bool> f)",
		"Impl":                             "class class Impl",
	} {
		r, err := e.Resolve(context.Background(), name)
		if err != nil {
			t.Errorf("Resolve(%q): %v", name, err)
			continue
		}
		if got := r.Ref().Kind + " " + r.Def.Signature; got != want {
			t.Errorf("Resolve(%q) = %s, want %s", name, got, want)
		}
	}
}

// Overloads a name does not tell apart are AMBIGUOUS, each candidate with
// its signature and the message showing how to write one's parameters; so
// is a type's name shared by two types, whose candidates need none.
func TestResolveOverloadsAmbiguous(t *testing.T) {
	e := testenv.OpenIndex(t, overloaded).Engine(t)
	for name, message := range map[string]string{
		"Box.add":                   `"Box.add" matches 2 overloads; name one by symbol_id or with its parameters, as in Box.add(int index, T item)`,
		"Box.add(String, int, int)": `"Box.add(String, int, int)" matches 2 overloads; name one by symbol_id or with its parameters, as in Box.add(int index, T item)`,
		"Box":                       `"Box" matches 5 symbols; name one by symbol_id or a longer qualified name`,
	} {
		_, err := e.Resolve(context.Background(), name)
		got := errs.As(err)
		if got == nil || got.Kind != errs.Ambiguous || got.Msg != message {
			t.Errorf("Resolve(%q) = %v, want AMBIGUOUS %s", name, err, message)
			continue
		}
		named := map[string]int{}
		for _, c := range got.Candidates {
			named[c.(query.Candidate).QName]++
		}
		for _, c := range got.Candidates {
			cand := c.(query.Candidate)
			if overload := named[cand.QName] > 1; overload != strings.Contains(cand.Signature, cand.Name) {
				t.Errorf("Resolve(%q): candidate %+v: an overload has a signature, no other candidate has one", name, c)
			}
		}
	}
}
