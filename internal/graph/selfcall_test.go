package graph_test

import (
	"context"
	"slices"
	"testing"

	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/testenv"
)

// TestCalleesThroughSelfField: a method calling through a field of its own
// object (this.store.get(), self.store.get()) whose declared type is an
// interface makes a dynamic call, its candidates the implementations.
func TestCalleesThroughSelfField(t *testing.T) {
	for _, c := range []struct {
		lang, method, impl string
		files              map[string]string
	}{
		{"python", "app.Service.lookup", "app.Memory.get", map[string]string{
			"app.py": "from typing import Protocol\n\n\nclass Store(Protocol):\n    def get(self, key: str) -> str: ...\n\n\nclass Memory:\n    def get(self, key: str) -> str:\n        return key\n\n\nclass Service:\n    store: Store\n\n    def lookup(self, key: str) -> str:\n        return self.store.get(key)\n",
		}},
		{"typescript", "app.ts#Service.lookup", "app.ts#Memory.get", map[string]string{
			"app.ts": "interface Store {\n  get(key: string): string;\n}\n\nclass Memory implements Store {\n  get(key: string): string { return key; }\n}\n\nexport class Service {\n  private store: Store;\n  lookup(key: string): string { return this.store.get(key); }\n}\n",
		}},
		{"kotlin", "app.Service.lookup", "app.Memory.get", map[string]string{
			"src/app/App.kt": "package app\n\ninterface Store {\n    fun get(key: String): String\n}\n\nclass Memory : Store {\n    override fun get(key: String): String = key\n}\n\nclass Service(private val store: Store) {\n    fun lookup(key: String): String = this.store.get(key)\n}\n",
		}},
		{"java", "app.Service.lookup", "app.Memory.get", map[string]string{
			"src/app/Store.java":   "package app;\n\npublic interface Store {\n    String get(String key);\n}\n",
			"src/app/Memory.java":  "package app;\n\npublic class Memory implements Store {\n    public String get(String key) { return key; }\n}\n",
			"src/app/Service.java": "package app;\n\npublic class Service {\n    private Store store;\n\n    public String lookup(String key) { return this.store.get(key); }\n}\n",
		}},
	} {
		t.Run(c.lang, func(t *testing.T) {
			e := testenv.OpenIndex(t, c.files).Engine(t)
			ctx := context.Background()
			r, err := e.Resolve(ctx, c.method)
			if err != nil {
				t.Fatal(err)
			}
			res, err := graph.CallGraph(ctx, e, r, graph.Params{Direction: graph.Callees})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range res.Dynamic {
				for _, cand := range d.Candidates {
					got = append(got, d.Kind+" "+d.Name+" "+cand.QName)
				}
			}
			if want := []string{"interface get " + c.impl}; !slices.Equal(got, want) {
				t.Errorf("dynamic calls %q, want %q", got, want)
			}
		})
	}
}
