package mcpserver_test

import (
	"sort"
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
	var rec progress
	files := map[string]string{
		"package.json":   `{"name": "p", "private": true, "scripts": {"test": "node --test"}}`,
		"a.test.js":      "const test = require('node:test');\ntest('a', () => {});\n",
		"b.test.js":      "const test = require('node:test');\nconst assert = require('node:assert');\ntest('b', () => { assert.strictEqual(1, 2); });\n",
		"lib/c.test.mjs": "import test from 'node:test';\ntest('c', () => {});\n",
	}
	cs, svc := sessionOn(t, files, config.Default(), &mcp.ClientOptions{ProgressNotificationHandler: rec.handle})
	testenv.WaitReady(t, svc)
	got := rec.call(t, cs, "test_run", map[string]any{"workers": 2}, "tok-tests", 3, 10*time.Second)
	// Notifications may arrive in any order of targets; each names one.
	var items, messages []string
	for _, p := range got {
		items = append(items, p.Message[len("testing 1/3: "):])
		messages = append(messages, p.Message)
	}
	sort.Strings(items)
	want := []string{"node:a.test.js passed", "node:b.test.js failed", "node:lib/c.test.mjs passed"}
	if d := cmp.Diff(want, items); d != "" {
		t.Errorf("progress items (-want +got):\n%s\nmessages: %q", d, messages)
	}
}
