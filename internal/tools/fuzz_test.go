package tools_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// fuzzTools are the tools the argument fuzzer calls: every tool that
// neither writes nor runs other programs (a write or a test run per input
// would measure the disk, not the decoding).
func fuzzTools() []*tools.Tool {
	var out []*tools.Tool
	for _, t := range tools.All() {
		switch t.Group {
		case "edit", "git", "test", "task", "workspace":
			continue
		}
		if t.Name == "index_ensure" || t.Name == "doctor" { // a rebuild or a full integrity check per input
			continue
		}
		out = append(out, t)
	}
	return out
}

// fuzzEnv is an indexed copy of the demo module and its tool environment.
func fuzzEnv(f *testing.F) *tools.Env {
	testenv.Isolate(f)
	root := testenv.Repo(f, testenv.Demo)
	svc := testenv.Open(f, root, service.Options{})
	env := svc.Env()
	if e := tools.Invoke(context.Background(), env, "index_ensure", nil); e.Error != nil {
		f.Fatalf("index_ensure: %v", e.Error.Message)
	}
	return env
}

// FuzzToolArguments sends fuzzed argument objects to every read tool,
// seeded with the registry's own examples: a call answers or fails with a
// clear error, never INTERNAL (a panic in a handler becomes INTERNAL), and
// its envelope always serialises.
func FuzzToolArguments(f *testing.F) {
	ts := fuzzTools()
	for i, t := range ts {
		for _, ex := range t.Examples {
			f.Add(uint8(i), []byte(ex))
		}
		f.Add(uint8(i), []byte(`{}`))
	}
	env := fuzzEnv(f)
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		tool := ts[int(which)%len(ts)]
		e := tools.Invoke(context.Background(), env, tool.Name, json.RawMessage(args))
		if e.Error != nil && e.Error.Code == "INTERNAL" {
			t.Fatalf("%s %s: INTERNAL: %s", tool.Name, args, e.Error.Message)
		}
		if _, err := json.Marshal(e); err != nil {
			t.Fatalf("%s %s: the envelope does not serialise: %v", tool.Name, args, err)
		}
	})
}

// FuzzCursor pages with fuzzed cursors: a cursor that is not one Cairn
// made is refused with INVALID_ARGUMENT or PRECONDITION_FAILED, never
// misread as another page or an INTERNAL error.
func FuzzCursor(f *testing.F) {
	env := fuzzEnv(f)
	first := tools.Invoke(context.Background(), env, "search", json.RawMessage(`{"query": "s", "limit": 1}`))
	for _, tr := range first.Provenance.Truncations {
		if tr.Cursor != "" {
			f.Add(tr.Cursor)
		}
	}
	f.Add("")
	f.Add("eyJlcG9jaCI6MSwib2Zmc2V0IjotMSwia2V5IjoieCJ9")
	f.Add("!!!")
	f.Fuzz(func(t *testing.T, cursor string) {
		args, _ := json.Marshal(map[string]any{"query": "s", "limit": 1, "cursor": cursor})
		e := tools.Invoke(context.Background(), env, "search", args)
		if e.Error == nil {
			return
		}
		switch e.Error.Code {
		case "INVALID_ARGUMENT", "PRECONDITION_FAILED":
		default:
			t.Fatalf("cursor %q: %s: %s", cursor, e.Error.Code, e.Error.Message)
		}
	})
}
