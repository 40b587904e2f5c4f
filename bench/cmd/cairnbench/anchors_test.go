package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseTime(t *testing.T) {
	got, ok := parseTime("some output\nTIME 12.34 524288\n")
	if !ok || got.Seconds != 12.34 || got.RSSMB != 512 {
		t.Errorf("parseTime = %+v, %v", got, ok)
	}
	for _, bad := range []string{"", "TIME x 12\n", "Command exited with non-zero status 1\n"} {
		if _, ok := parseTime(bad); ok {
			t.Errorf("parseTime(%q) ok", bad)
		}
	}
}

func TestTimeCmdFailureIsAnError(t *testing.T) {
	if _, _, err := timeCmd("exit 3"); err == nil {
		t.Error("a failed anchor run gave a timing")
	}
	tm, out, err := timeCmd("echo hi")
	if err != nil || strings.TrimSpace(string(out)) != "hi" || tm.Seconds < 0 {
		t.Errorf("timeCmd = %+v %q %v", tm, out, err)
	}
}

func TestMedianTimed(t *testing.T) {
	n := 0
	tm, _, err := medianTimed(3, "true", func() { n++ })
	if err != nil || tm.Runs != 3 || n != 3 {
		t.Errorf("medianTimed = %+v, %v, before ran %d times", tm, err, n)
	}
	if _, _, err := medianTimed(3, "false", nil); err == nil {
		t.Error("a failing run gave a median")
	}
}

func TestTimeProcess(t *testing.T) {
	dir := t.TempDir()
	_, n, err := timeProcess(dir, []string{"sh", "-c", "for i in 1 2 3 4 5; do echo $i; done"}, 0)
	if err != nil || n != 5 {
		t.Errorf("all lines: %d, %v", n, err)
	}
	// Cut after 3 lines of an endless writer: it ends on SIGPIPE, not a failure.
	_, n, err = timeProcess(dir, []string{"yes"}, 3)
	if err != nil || n != 3 {
		t.Errorf("cut: %d, %v", n, err)
	}
	if _, _, err := timeProcess(dir, []string{"sh", "-c", "exit 1"}, 0, 1); err != nil {
		t.Errorf("exit 1 allowed: %v", err)
	}
	if _, _, err := timeProcess(dir, []string{"sh", "-c", "echo boom >&2; exit 2"}, 0, 1); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("exit 2: %v", err)
	}
}

func TestChunkFiles(t *testing.T) {
	var files []string
	for i := 0; i < 3000; i++ {
		files = append(files, strings.Repeat("d/", 200)+"f.go")
	}
	chunks := chunkFiles(files)
	total := 0
	for _, c := range chunks {
		size := 0
		for _, f := range c {
			size += len(f) + 1
		}
		if size > argChunk {
			t.Errorf("chunk of %d bytes", size)
		}
		total += len(c)
	}
	if total != len(files) || len(chunks) < 2 {
		t.Errorf("%d files in %d chunks", total, len(chunks))
	}
}

func TestScanAnchor(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("foo foo\nbar foo\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("foofoo\n"), 0o644)
	a := scanAnchor{root: dir, files: []string{"a.go", "b.go", "gone.go"}}
	for _, tc := range []struct {
		kind, text  string
		limit, want int
	}{
		{"literal", "foo", 20, 5},
		{"literal", "foo", 2, 2},
		{"regex", `^bar`, 20, 1},
		{"regex", `f(o)+`, 4, 4},
		{"literal", "absent", 20, 0},
	} {
		got, err := a.first(tc.kind, tc.text, tc.limit)
		if err != nil || got != tc.want {
			t.Errorf("%s %q limit %d: %d, %v; want %d", tc.kind, tc.text, tc.limit, got, err, tc.want)
		}
	}
}

func TestReportHasNoEmptyCells(t *testing.T) {
	out := t.TempDir()
	c := Corpus{Name: "go_med", Files: 2, Bytes: 2e6, Index: Timed{Seconds: 2, RSSMB: 100, Runs: 3}, Ctags: Timed{Seconds: 1}, Cat: Timed{Seconds: 0.1},
		Split: map[string]any{"parse": 1200.0}, Stats: map[string]any{"parsed": 2.0}}
	b, _ := json.Marshal(c)
	os.WriteFile(filepath.Join(out, "go_med.json"), b, 0o644)
	results := filepath.Join(out, "RESULTS.md")
	if err := report(out, results); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(results)
	if s := string(md); strings.Contains(s, "<nil>") || strings.Contains(s, "|  |") {
		t.Errorf("empty or <nil> cells:\n%s", s)
	}
	if !strings.Contains(string(md), "| go_med | 2 | 2.0 | 2.00 s | 1.0 | 100 MB | 1.00 s | 0.10 s | 2.0x |") {
		t.Errorf("full index row:\n%s", md)
	}
}
