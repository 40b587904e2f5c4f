package obs

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseOutput(t *testing.T) {
	for spec, want := range map[string]Output{
		"console:stderr":             {Format: "console", Destination: "stderr"},
		"json:state:debug":           {Format: "json", Destination: "state", Level: "debug"},
		"json:/var/log/cairn.jsonl":  {Format: "json", Destination: "/var/log/cairn.jsonl"},
		"console:/tmp/a:b.log:error": {Format: "console", Destination: "/tmp/a:b.log", Level: "error"},
	} {
		got, err := ParseOutput(spec)
		if err != nil || got != want {
			t.Errorf("%s = %+v, %v", spec, got, err)
		}
	}
	for _, bad := range []string{"xml:stderr", "json:relative/path", "console"} {
		if _, err := ParseOutput(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestLoggerOutputs: every output gets the lines at its level; JSON lines
// carry ts, level and event.
func TestLoggerOutputs(t *testing.T) {
	state := t.TempDir()
	var stderr bytes.Buffer
	log, closer, err := NewLogger("debug", []Output{{Format: "console", Destination: "stderr", Level: "warn"}, {Format: "json", Destination: "state"}}, state, nil, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	log.Info("call", "tool", "search", "task_id", "task_1")
	log.Warn("call", "tool", "write_source", "outcome", "TASK_BUDGET_EXCEEDED")
	closer.Close()
	if strings.Contains(stderr.String(), "tool=search") || !strings.Contains(stderr.String(), "TASK_BUDGET_EXCEEDED") {
		t.Errorf("console at warn:\n%s", stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(state, "logs", "cairn.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("json lines: %q", lines)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &m); err != nil || m["event"] != "call" || m["level"] != "info" || m["task_id"] != "task_1" || m["ts"] == nil {
		t.Errorf("json line = %v (%v)", m, err)
	}
}
