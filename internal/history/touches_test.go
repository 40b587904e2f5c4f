package history

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/gitx"
	"github.com/cairnhq/cairn/internal/testenv/testtree"
)

// TestFilesIncremental: after a commit, file churn reads only the new
// commits from git and keeps the cached ones inside the window (a commit
// planted in the cache shows that it was used), and agrees with a count
// from scratch; a wider window than the cache holds is read again whole.
func TestFilesIncremental(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	testtree.Isolate(t)
	testtree.Git(t, dir, "init", "-q")
	commit := func(date string, files map[string]string) string {
		t.Helper()
		testtree.Write(t, dir, files)
		t.Setenv("GIT_COMMITTER_DATE", date)
		t.Setenv("GIT_AUTHOR_DATE", date)
		testtree.Git(t, dir, "add", "-A")
		testtree.Git(t, dir, "commit", "-qm", "c "+date)
		h, _ := gitx.Head(ctx, dir)
		if h == "" {
			t.Fatal("no HEAD after commit")
		}
		return h
	}
	now := time.Now().UTC()
	commit("2020-01-01T00:00:00Z", map[string]string{"a.txt": "a\n"})
	commit("2020-06-01T00:00:00Z", map[string]string{"b.txt": "b\n"})
	h3 := commit(now.Add(-2*time.Hour).Format(time.RFC3339), map[string]string{"a.txt": "a2\n"})

	cache := Cache{Dir: t.TempDir()}
	fresh := func(head, since string) []FileChurn {
		t.Helper()
		out, err := Source{Root: dir, Head: head}.Files(ctx, since)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	cached := func(head, since string) []FileChurn {
		t.Helper()
		out, err := Source{Root: dir, Head: head, Cache: cache}.Files(ctx, since)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if d := cmp.Diff(fresh(h3, ""), cached(h3, "")); d != "" {
		t.Fatalf("first count (-fresh +cached):\n%s", d)
	}
	var log touchLog
	if !cache.Get(touchLogKey, &log) || log.Head != h3 || len(log.Commits) != 3 {
		t.Fatalf("cached touch log: %+v", log)
	}
	log.Commits = append(log.Commits, gitx.CommitTouches{OID: "planted", Author: "p@example.com", Time: now.Format(time.RFC3339),
		Committed: now.Add(-time.Hour).Unix(), Files: []gitx.Touch{{Path: "planted.txt", Additions: 1}}})
	cache.Put(touchLogKey, log)

	testtree.Git(t, dir, "mv", "b.txt", "c.txt")
	h4 := commit(now.Add(-time.Hour).Format(time.RFC3339), map[string]string{"a.txt": "a3\n"})

	// a narrower window: the new commit from git, the cached ones inside it
	got := cached(h4, "2021-01-01")
	want := append(fresh(h4, "2021-01-01"), FileChurn{Path: "planted.txt", Commits: 1, Authors: 1, Added: 1, LastCommit: "planted", LastDate: now.Format(time.RFC3339)})
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("incremental count (-want +got):\n%s", d)
	}
	if len(got) != 3 || got[0].Path != "a.txt" || got[0].Commits != 2 || got[1].Path != "c.txt" {
		t.Errorf("since 2021: %+v, want a.txt twice, c.txt once, and the planted file", got)
	}
	// all history: wider than the cached log, read again
	if d := cmp.Diff(fresh(h4, ""), cached(h4, "")); d != "" {
		t.Errorf("whole history (-fresh +cached):\n%s", d)
	}
}
