package lang

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TypeName keeps the name of one named type and nothing else: no array,
// union, intersection or function type.
func TestTypeName(t *testing.T) {
	want := map[string]string{
		"Box":                               "Box",
		" *pkg.List[T] ":                    "pkg.List",
		"&Node":                             "Node",
		"Map<string, Job>":                  "Map",
		"Observable<(x: T) => void>":        "Observable",
		"Promise<Map<K, V[]>>":              "Promise",
		"Job[]":                             "",
		"Observable<any> | Subscriber<any>": "",
		"Array<A> & Array<B>":               "",
		"A | B":                             "",
		"() => Box":                         "",
		"Box<>":                             "",
	}
	got := make(map[string]string, len(want))
	for in := range want {
		got[in] = TypeName(in)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("TypeName (-want +got):\n%s", d)
	}
}
