package history_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/history"
	"github.com/cairnhq/cairn/internal/testenv"
)

// TestSpansAgreeWithLogL follows two spans of a file through insertions
// above, edits inside, deletions around and a rename, and checks the
// commits Spans counts against git log -L on the same lines.
func TestSpansAgreeWithLogL(t *testing.T) {
	testenv.Isolate(t)
	ctx := context.Background()
	dir := testenv.Repo(t, map[string]string{"README": "x\n"})
	name := "f.go"
	lines := []string{"a", "b", "func f() {", "  x", "}", "c", "func g() {", "  g", "}", "d"}
	save := func(msg string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		testenv.Git(t, dir, "add", "-A")
		testenv.Git(t, dir, "commit", "-qm", msg)
	}
	save("create")
	lines = append([]string{"h1", "h2"}, lines...)
	save("insert above both")
	lines[5] = "  y"
	save("edit f")
	lines = append(lines[:1], lines[2:]...)
	save("delete above both")
	lines = append(lines[:5], append([]string{"  z"}, lines[5:]...)...)
	save("grow f")
	testenv.Git(t, dir, "mv", "f.go", "h.go")
	name = "h.go"
	lines[9] = "  G"
	save("rename, edit g")
	lines = append(lines, "e")
	save("append below")
	// f is lines 4..7 and g lines 9..11 now.
	if lines[3] != "func f() {" || lines[8] != "func g() {" {
		t.Fatalf("setup: %q", lines)
	}
	src := history.Source{Root: dir}
	src.Head, _ = gitx.Head(ctx, dir)
	spans := []history.Span{{Start: 4, End: 7}, {Start: 9, End: 11}}
	got, err := src.Spans(ctx, "h.go", spans, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, sp := range spans {
		want, err := src.Symbol(ctx, "h.go", sp.Start, sp.End, "")
		if err != nil {
			t.Fatal(err)
		}
		if got[i].Commits != want.Commits || got[i].LastCommit != want.LastCommit {
			t.Errorf("span %v: Spans counts %d commits (last %s), git log -L %d (last %s)", sp, got[i].Commits, got[i].LastCommit, want.Commits, want.LastCommit)
		}
	}
	if got[0].Commits != 3 || got[1].Commits != 2 {
		t.Errorf("commits: f %d (want 3: create, edit f, grow f), g %d (want 2: create, rename+edit g)", got[0].Commits, got[1].Commits)
	}
	files, err := src.Files(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if d := cmp.Diff([]string{"README", "f.go", "h.go"}, paths); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
}
