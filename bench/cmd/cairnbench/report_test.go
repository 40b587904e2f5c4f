package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The report replaces its own part of the results file and keeps everything
// after it as it is: the marked sections of other tools and the text
// between them.
func TestReportKeepsOtherSections(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "RESULTS.md")
	kept := "<!-- a:begin -->\nA\n<!-- a:end -->\n\n## Unmarked\n\ntext between\n\n<!-- b:begin -->\nB\n<!-- b:end -->\n"
	if err := os.WriteFile(results, []byte("# Benchmark results\n\nold figures\n\n"+kept), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := report(dir, results); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(results)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(got), kept) {
		t.Errorf("the sections after the report changed:\n%s", got)
	}
	if strings.Contains(string(got), "old figures") {
		t.Errorf("the old report was kept:\n%s", got)
	}
}
