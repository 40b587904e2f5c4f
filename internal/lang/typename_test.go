package lang

import "testing"

func TestTypeName(t *testing.T) {
	for in, want := range map[string]string{
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
	} {
		if got := TypeName(in); got != want {
			t.Errorf("TypeName(%q) = %q, want %q", in, got, want)
		}
	}
}
