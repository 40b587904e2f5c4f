package httpapi_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/testenv"
)

// numbered is a file of n lines "line 1" ... "line n", with some replaced.
func numbered(n int, replace map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		l, ok := replace[i]
		if !ok {
			l = "line " + string(rune('0'+i/10)) + string(rune('0'+i%10))
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// A refresh merges the tree's changes into a workspace three ways: a
// change to other lines merges cleanly (and workspace_apply then lands the
// merge), a change to the same lines is a conflict listed with its hunks
// (the overlay stays as it was), a file deleted underneath is a conflict;
// once the workspace's version takes the tree's change in, the next
// refresh merges it and the apply lands it.
func TestWorkspaceRefreshMergesThreeWays(t *testing.T) {
	testenv.Isolate(t)
	files := files()
	files["notes/a.txt"] = numbered(12, nil)
	files["notes/b.txt"] = numbered(12, nil)
	files["notes/c.txt"] = numbered(12, nil)
	root := testenv.Repo(t, files)
	ts, _ := wsServer(t, root, filepath.Join(t.TempDir(), "state"))
	c := wsClient{t, ts}
	write := func(id, path, content string) {
		t.Helper()
		sum := c.ok("read_source", map[string]any{"path": path, "workspace_id": id})["file_sha256"]
		c.ok("write_source", map[string]any{"workspace_id": id, "edits": []map[string]any{{
			"path": path, "action": "update", "expected_sha256": sum, "content": content}}})
	}
	disk := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	c.ok("workspace_create", map[string]any{"workspace_id": "clean"})
	c.ok("workspace_create", map[string]any{"workspace_id": "mixed"})
	write("clean", "notes/a.txt", numbered(12, map[int]string{2: "workspace two"}))
	write("mixed", "notes/b.txt", numbered(12, map[int]string{5: "workspace five"}))
	write("mixed", "notes/c.txt", numbered(12, map[int]string{3: "workspace three"}))

	// underneath, a commit changes a.txt's line 11 and b.txt's line 5, and
	// deletes c.txt
	os.WriteFile(filepath.Join(root, "notes/a.txt"), []byte(numbered(12, map[int]string{11: "tree eleven"})), 0o644)
	os.WriteFile(filepath.Join(root, "notes/b.txt"), []byte(numbered(12, map[int]string{5: "tree five"})), 0o644)
	testenv.Git(t, root, "rm", "-q", "notes/c.txt")
	testenv.Git(t, root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "underneath")

	if ws := c.ok("workspace_list", nil)["workspaces"].([]any); len(ws[0].(map[string]any)["changed_underneath"].([]any)) != 1 {
		t.Fatalf("before the refresh, clean has no file changed underneath: %v", ws[0])
	}
	d := c.ok("workspace_refresh", map[string]any{"workspace_id": "clean"})
	if merged, _ := d["merged"].([]any); len(merged) != 1 || merged[0] != "notes/a.txt" || d["conflicts"] != nil {
		t.Fatalf("refresh clean: %v", d)
	}
	if cu := d["workspace"].(map[string]any)["changed_underneath"].([]any); len(cu) != 0 {
		t.Errorf("after a clean merge a.txt is still changed underneath: %v", cu)
	}
	wantA := numbered(12, map[int]string{2: "workspace two", 11: "tree eleven"})
	if got := c.text("notes/a.txt", map[string]any{"workspace_id": "clean"}); got+"\n" != wantA {
		t.Errorf("a.txt in the workspace after the merge:\n%s", got)
	}
	if got := c.text("notes/a.txt", nil); strings.Contains(got, "workspace two") {
		t.Errorf("the merge leaked into the committed view:\n%s", got)
	}

	d = c.ok("workspace_refresh", map[string]any{"workspace_id": "mixed"})
	if d["merged"] != nil {
		t.Errorf("refresh mixed merged %v", d["merged"])
	}
	conflicts, _ := d["conflicts"].([]any)
	if len(conflicts) != 2 {
		t.Fatalf("refresh mixed: conflicts %v", d)
	}
	b, cc := conflicts[0].(map[string]any), conflicts[1].(map[string]any)
	if b["path"] != "notes/b.txt" || cc["path"] != "notes/c.txt" || !strings.Contains(cc["reason"].(string), "deleted in the tree") {
		t.Errorf("conflicts: %v", conflicts)
	}
	hunks, _ := b["hunks"].([]any)
	if len(hunks) != 1 {
		t.Fatalf("b.txt's hunks: %v", b)
	}
	h := hunks[0].(map[string]any)
	if h["start_line"].(float64) != 5 || h["end_line"].(float64) != 11 || h["ours"].([]any)[0] != "workspace five" ||
		h["base"].([]any)[0] != "line 05" || h["theirs"].([]any)[0] != "tree five" {
		t.Errorf("b.txt's hunk: %v", h)
	}
	if cu := d["workspace"].(map[string]any)["changed_underneath"].([]any); len(cu) != 2 {
		t.Errorf("conflicted files are not changed underneath: %v", cu)
	}
	if got := c.text("notes/b.txt", map[string]any{"workspace_id": "mixed"}); got+"\n" != numbered(12, map[int]string{5: "workspace five"}) {
		t.Errorf("a conflict changed the overlay:\n%s", got)
	}
	again := c.ok("workspace_refresh", map[string]any{"workspace_id": "mixed"})
	if len(again["conflicts"].([]any)) != 2 || again["workspace"].(map[string]any)["overlay_revision"] != d["workspace"].(map[string]any)["overlay_revision"] {
		t.Errorf("a second refresh: %v", again)
	}

	// the clean merge lands; the conflicted workspace is refused
	c.ok("workspace_apply", map[string]any{"workspace_id": "clean"})
	if got := disk("notes/a.txt"); got != wantA {
		t.Errorf("a.txt after applying the merge:\n%s", got)
	}
	if r := c.call("workspace_apply", map[string]any{"workspace_id": "mixed"}); r.status != 409 {
		t.Errorf("apply with conflicts: %d %v", r.status, r.body["error"])
	}

	// the workspace takes the tree's line 5 in and gives up c.txt: the
	// next refresh merges b.txt and drops c.txt, and the apply lands b.txt
	write("mixed", "notes/b.txt", numbered(12, map[int]string{5: "tree five", 9: "workspace nine"}))
	c.ok("write_source", map[string]any{"workspace_id": "mixed", "edits": []map[string]any{{"path": "notes/c.txt", "action": "delete"}}})
	d = c.ok("workspace_refresh", map[string]any{"workspace_id": "mixed"})
	if merged, _ := d["merged"].([]any); len(merged) != 1 || merged[0] != "notes/b.txt" || d["conflicts"] != nil {
		t.Fatalf("refresh after resolving: %v", d)
	}
	if landed, _ := d["landed"].([]any); len(landed) != 1 || landed[0] != "notes/c.txt" {
		t.Errorf("c.txt is not dropped: %v", d["landed"])
	}
	c.ok("workspace_apply", map[string]any{"workspace_id": "mixed"})
	if got, want := disk("notes/b.txt"), numbered(12, map[int]string{5: "tree five", 9: "workspace nine"}); got != want {
		t.Errorf("b.txt after applying:\n%s", got)
	}
}
