package mcpserver_test

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/testenv"
)

// TestRunProgress: test_run reports every target as it ends, over MCP
// progress notifications, with the target and its status.
func TestRunProgress(t *testing.T) {
	var mu sync.Mutex
	var got []string
	files := map[string]string{
		"package.json":   `{"name": "p", "private": true, "scripts": {"test": "node --test"}}`,
		"a.test.js":      "const test = require('node:test');\ntest('a', () => {});\n",
		"b.test.js":      "const test = require('node:test');\nconst assert = require('node:assert');\ntest('b', () => { assert.strictEqual(1, 2); });\n",
		"lib/c.test.mjs": "import test from 'node:test';\ntest('c', () => {});\n",
	}
	cs, svc := sessionOn(t, files, config.Default(), &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, req.Params.Message)
			mu.Unlock()
		},
	})
	testenv.WaitReady(t, svc)
	params := &mcp.CallToolParams{Name: "test_run", Arguments: map[string]any{"workers": 2}}
	params.SetProgressToken("tok-tests")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("test_run: %v %s", err, mustJSON(t, res))
	}
	// The client handles notifications apart from the call's result: the
	// last one may be handled after the call returns.
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	// Notifications may arrive in any order of targets; each names one.
	var items []string
	for _, m := range got {
		items = append(items, m[len("testing 1/3: "):])
	}
	sort.Strings(items)
	want := []string{"node:a.test.js passed", "node:b.test.js failed", "node:lib/c.test.mjs passed"}
	if d := cmp.Diff(want, items); d != "" {
		t.Errorf("progress items (-want +got):\n%s\nmessages: %q", d, got)
	}
}
