package change_test

import (
	"context"
	"testing"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/testenv"
)

// lib is a repository whose files import and reference each other across
// packages, in Go and Python, for the views' updates.
var lib = map[string]string{
	"go.mod": "module example.com/lib\n\ngo 1.22\n",
	"store/store.go": `package store

// Get reads a key.
func Get(k string) string { return k }

// Put writes a key.
func Put(k, v string) {}
`,
	"store/store_test.go": "package store\n\nimport \"testing\"\n\nfunc TestGet(t *testing.T) { Get(\"a\") }\n",
	"api/api.go": `package api

import "example.com/lib/store"

// Read reads through the store.
func Read(k string) string { return store.Get(k) }
`,
	"api/api_test.go": "package api\n\nimport \"testing\"\n\nfunc TestRead(t *testing.T) { Read(\"a\") }\n",
	"cmd/lib/main.go": `package main

import "example.com/lib/api"

func main() { _ = api.Read("x") }
`,
	"tools/util.py":     "def helper(x):\n    return x\n",
	"tools/run.py":      "from tools.util import helper\n\n\ndef run():\n    return helper(1)\n",
	"tools/__init__.py": "",
}

// TestViewsUpdatedEqualBuilt edits the repository epoch after epoch and
// checks that the views change analysis updates from the previous epoch
// are those a build from nothing gives: for body edits, new and removed
// references, a referenced function removed and brought back, imports
// added and dropped. A new file is not an update: the views are built.
func TestViewsUpdatedEqualBuilt(t *testing.T) {
	x := testenv.OpenIndex(t, lib)
	ctx := context.Background()
	cache := change.NewCache()
	check := func(step string, wantUpdates int64) {
		t.Helper()
		e, release := x.EngineReleased(t)
		defer release()
		diff, updates, err := change.CompareViews(ctx, e, cache)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if diff != "" {
			t.Errorf("%s: the cached views differ from built ones (-built +cached):\n%s", step, diff)
		}
		if updates != wantUpdates {
			t.Errorf("%s: %d updates so far, want %d", step, updates, wantUpdates)
		}
	}
	check("first build", 0)
	steps := []struct{ name, path, content string }{
		{"body edit", "store/store.go", lib["store/store.go"] + "\n// A comment.\n"},
		{"a new reference across packages", "cmd/lib/main.go", "package main\n\nimport (\n\t\"example.com/lib/api\"\n\t\"example.com/lib/store\"\n)\n\nfunc main() { _ = api.Read(\"x\"); store.Put(\"a\", \"b\") }\n"},
		{"a referenced function removed", "store/store.go", "package store\n\n// Get reads a key.\nfunc Get(k string) string { return k }\n"},
		{"the function back", "store/store.go", lib["store/store.go"]},
		{"an import dropped", "api/api.go", "package api\n\n// Read reads nothing.\nfunc Read(k string) string { return k }\n"},
		{"a Python reference dropped", "tools/run.py", "def run():\n    return 1\n"},
		{"a Python import back", "tools/run.py", lib["tools/run.py"]},
	}
	for n, s := range steps {
		x.Write(t, s.path, s.content)
		// Each step is one epoch; the two views update once each.
		check(s.name, int64(2*(n+1)))
	}
	x.Write(t, "store/extra.go", "package store\n\n// Extra is new.\nfunc Extra() {}\n")
	check("a new file", int64(2*len(steps)))
}
