package e2e_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/testenv"
)

// smallTmpfs mounts a tmpfs of size (mount's syntax, "2m") on a new
// directory, unmounted at the end of the test. Mounting needs root: other
// users skip, saying that the file-size limit tests cover a full disk.
func smallTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skipf("not root (uid %d): a full tmpfs needs mount; TestIndexUnderFileSizeLimit and TestWriteUnderFileSizeLimit cover a full disk with RLIMIT_FSIZE", os.Geteuid())
	}
	dir := filepath.Join(t.TempDir(), "tmpfs")
	os.MkdirAll(dir, 0o755)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount a %s tmpfs as root: %v\n%s", size, err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// TestIndexOnFullTmpfs: the state directory on a tmpfs too small for the
// index: the build ends with NO_SPACE (exit 5) and no crash; with room
// made (the tmpfs remounted larger), the next build answers exactly as a
// clean index does.
func TestIndexOnFullTmpfs(t *testing.T) {
	cairn(t)
	testenv.Isolate(t)
	mnt := smallTmpfs(t, "1m")
	repo := testenv.Repo(t, manyFiles(600))
	clean := filepath.Join(t.TempDir(), "clean")
	if code, out := limited(t, repo, "-f unlimited", "--state-dir", clean, "index"); code != 0 {
		t.Fatalf("clean index: exit %d\n%s", code, out)
	}
	want := symbolAnswer(t, repo, clean, "Func599_7")
	state := filepath.Join(mnt, "state")
	code, out := limited(t, repo, "-f unlimited", "--state-dir", state, "index")
	noCrash(t, "index on a full tmpfs", out)
	if code != 5 || !strings.Contains(out, "NO_SPACE") {
		t.Fatalf("index on a 1 MiB tmpfs: exit %d, want NO_SPACE (5)\n%s", code, out)
	}
	if out, err := exec.Command("mount", "-o", "remount,size=256m", mnt).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v\n%s", err, out)
	}
	if got := symbolAnswer(t, repo, state, "Func599_7"); got != want {
		t.Errorf("after a build the full tmpfs refused: %s, a clean index answers %s", got, want)
	}
}

// TestWriteOnFullTmpfs: a repository on a tmpfs with little room left: a
// write batch too large for it fails with NO_SPACE, every file stays as
// it was and no temporary file is left; a small write then succeeds.
func TestWriteOnFullTmpfs(t *testing.T) {
	cairn(t)
	testenv.Isolate(t)
	mnt := smallTmpfs(t, "2m")
	src := testenv.Repo(t, testenv.Demo)
	repo := filepath.Join(mnt, "repo")
	if out, err := exec.Command("cp", "-a", src, repo).CombinedOutput(); err != nil {
		t.Fatalf("copy the repository: %v\n%s", err, out)
	}
	state := filepath.Join(t.TempDir(), "state")
	if code, out := limited(t, repo, "-f unlimited", "--state-dir", state, "index"); code != 0 {
		t.Fatalf("index: exit %d\n%s", code, out)
	}
	before, _ := os.ReadFile(filepath.Join(repo, "main.go"))
	big := "package main\n\n// " + strings.Repeat("x", 3<<20) + "\nfunc main() {}\n"
	small := "package server\n\n// Small fits.\nfunc Small() {}\n"
	editsFile := func(edits []map[string]any) string {
		b, _ := json.Marshal(edits)
		p := filepath.Join(t.TempDir(), "edits.json")
		os.WriteFile(p, b, 0o644)
		return p
	}
	code, out := limited(t, repo, "-f unlimited", "--state-dir", state, "write", "--edits",
		editsFile([]map[string]any{{"path": "server/small.go", "action": "create", "content": small}, {"path": "main.go", "action": "update", "content": big}}))
	noCrash(t, "write on a full tmpfs", out)
	if code != 5 || !strings.Contains(out, "NO_SPACE") {
		t.Fatalf("a 3 MiB write on a 2 MiB tmpfs: exit %d, want NO_SPACE (5)\n%s", code, out)
	}
	if now, _ := os.ReadFile(filepath.Join(repo, "main.go")); !bytes.Equal(now, before) {
		t.Error("main.go changed though the batch was refused")
	}
	if _, err := os.Stat(filepath.Join(repo, "server", "small.go")); err == nil {
		t.Error("server/small.go was created though the batch was refused")
	}
	tmps, _ := filepath.Glob(filepath.Join(repo, "*", ".cairn-*.tmp"))
	top, _ := filepath.Glob(filepath.Join(repo, ".cairn-*.tmp"))
	if len(tmps)+len(top) > 0 {
		t.Errorf("temporary files left behind: %v %v", tmps, top)
	}
	if code, out := limited(t, repo, "-f unlimited", "--state-dir", state, "write", "--edits",
		editsFile([]map[string]any{{"path": "server/small.go", "action": "create", "content": small}})); code != 0 {
		t.Fatalf("a small write after the refused one: exit %d\n%s", code, out)
	}
}
