package gitx

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/testenv/testtree"
)

// repo makes a git repository in a temporary directory; run runs git in it
// with fixed identities and dates, so commit ids are the same every run.
type repo struct {
	t   *testing.T
	dir string
	n   int // commits made, for distinct dates
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	testtree.Isolate(t)
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	date := "2024-01-01T00:00:00Z"
	if r.n > 0 {
		date = "2024-01-0" + string(rune('1'+r.n%9)) + "T00:00:00Z"
	}
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=Ann", "GIT_AUTHOR_EMAIL=ann@example.com", "GIT_COMMITTER_NAME=Ann",
		"GIT_COMMITTER_EMAIL=ann@example.com", "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) write(path, content string) {
	r.t.Helper()
	testtree.WriteFile(r.t, r.dir, path, content)
}

func (r *repo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.n++
	r.git("commit", "-q", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

func TestStatusDiffLog(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.write("a.txt", "one\ntwo\nthree\n")
	r.write("b.txt", "bee\n")
	first := r.commit("first")
	r.write("a.txt", "one\nTWO\nthree\nfour\n")
	r.git("mv", "b.txt", "c.txt")
	r.write("new.txt", "new\n")
	r.git("add", "a.txt")
	r.write("a.txt", "one\nTWO\nthree\nfour\nfive\n")

	st, err := GetStatus(ctx, r.dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Branch != "main" || st.Head != first || st.Clean || st.State != "none" {
		t.Errorf("status header: %+v", st)
	}
	wantStaged := []FileChange{{Path: "a.txt", Status: "modified"}, {Path: "c.txt", Status: "renamed", OldPath: "b.txt"}}
	if d := cmp.Diff(wantStaged, st.Staged); d != "" {
		t.Errorf("staged (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]FileChange{{Path: "a.txt", Status: "modified"}}, st.Unstaged); d != "" {
		t.Errorf("unstaged (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"new.txt"}, st.Untracked); d != "" {
		t.Errorf("untracked (-want +got):\n%s", d)
	}

	d, err := GetDiff(ctx, r.dir, DiffOptions{Staged: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) != 2 || d.Files[1].Status != "renamed" || d.Files[1].OldPath != "b.txt" {
		t.Fatalf("staged diff files: %+v", d.Files)
	}
	a := d.Files[0]
	if a.Additions != 2 || a.Deletions != 1 || len(a.Hunks) != 1 {
		t.Fatalf("a.txt: %+v", a)
	}
	wantLines := []DiffLine{{Origin: " ", Content: "one", Old: 1, New: 1}, {Origin: "-", Content: "two", Old: 2},
		{Origin: "+", Content: "TWO", New: 2}, {Origin: " ", Content: "three", Old: 3, New: 3}, {Origin: "+", Content: "four", New: 4}}
	if diff := cmp.Diff(wantLines, a.Hunks[0].Lines); diff != "" {
		t.Errorf("hunk lines (-want +got):\n%s", diff)
	}

	second := r.commit("second\n\nwith a body")
	cs, err := Log(ctx, r.dir, LogOptions{Files: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].OID != second || cs[0].Body != "with a body" || cs[1].OID != first || cs[0].Parents[0] != first {
		t.Fatalf("log: %+v", cs)
	}
	if d := cmp.Diff([]FileChange{{Path: "a.txt", Status: "modified"}, {Path: "c.txt", Status: "renamed", OldPath: "b.txt"}, {Path: "new.txt", Status: "added"}}, cs[0].Files); d != "" {
		t.Errorf("log files (-want +got):\n%s", d)
	}
}

func TestBlame(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.write("f", "1\n2\n3\n")
	c1 := r.commit("one")
	r.write("f", "1\nB\n3\n4\n")
	c2 := r.commit("two")
	b, err := GetBlame(ctx, r.dir, BlameOptions{Path: "f", Content: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []BlameRange{{Start: 1, End: 1, Commit: c1, OrigPath: "f", OrigStart: 1, Lines: []string{"1"}},
		{Start: 2, End: 2, Commit: c2, OrigPath: "f", OrigStart: 2, Lines: []string{"B"}},
		{Start: 3, End: 3, Commit: c1, OrigPath: "f", OrigStart: 3, Lines: []string{"3"}},
		{Start: 4, End: 4, Commit: c2, OrigPath: "f", OrigStart: 4, Lines: []string{"4"}}}
	if d := cmp.Diff(want, b.Ranges); d != "" {
		t.Errorf("ranges (-want +got):\n%s", d)
	}
	if len(b.Commits) != 2 || b.Commits[0].OID != c2 || b.Commits[0].Lines != 2 || b.Commits[0].Author.Time != "2024-01-03T00:00:00+00:00" {
		t.Errorf("commits: %+v", b.Commits)
	}
}

func TestRefusesOptions(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.write("f", "x\n")
	r.commit("one")
	for name, err := range map[string]error{
		"branch":  CreateBranch(ctx, r.dir, "--upload-pack=x", ""),
		"rev":     Switch(ctx, r.dir, "-b", "", false),
		"path":    Stage(ctx, r.dir, []string{"-x"}),
		"remote":  RemoteAdd(ctx, r.dir, "-o", "/tmp"),
		"url":     RemoteAdd(ctx, r.dir, "o", "--upload-pack=touch /tmp/pwned"),
		"badname": CreateBranch(ctx, r.dir, "a..b", ""),
	} {
		if _, ok := err.(*InvalidName); !ok {
			t.Errorf("%s: got %v, want *InvalidName", name, err)
		}
	}
}
