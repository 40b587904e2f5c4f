package e2e_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/testenv"
)

// limited runs the cairn binary under shell limits (ulimit arguments such
// as "-f 256": file size in KiB), in dir, and returns its exit code and
// combined output.
func limited(t *testing.T, dir, limits string, args ...string) (int, string) {
	t.Helper()
	script := "ulimit " + limits + `; exec "$0" "$@"`
	cmd := exec.Command("bash", append([]string{"-c", script, cairn(t)}, args...)...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String()
}

// noCrash fails the test when output shows a panic or a Go stack trace:
// exhaustion must end in a clear error.
func noCrash(t *testing.T, what, out string) {
	t.Helper()
	for _, sign := range []string{"panic:", "goroutine ", "runtime error", "SIGSEGV"} {
		if strings.Contains(out, sign) {
			t.Fatalf("%s: the output shows a crash (%q):\n%s", what, sign, out)
		}
	}
}

// manyFiles is a Go module of n files, large enough that its index takes a
// few megabytes.
func manyFiles(n int) map[string]string {
	files := map[string]string{"go.mod": "module example.com/many\n\ngo 1.22\n"}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n\n", i%20)
		for j := range 8 {
			fmt.Fprintf(&b, "// Func%d_%d adds its arguments to a constant of its own, %s.\nfunc Func%d_%d(a, b int) int { return a + b + %d }\n\n",
				i, j, strings.Repeat("words ", 8), i, j, i*j)
		}
		files[fmt.Sprintf("p%d/f%d.go", i%20, i)] = b.String()
	}
	return files
}

// symbolAnswer is the symbol search the exhaustion tests compare: the
// results of a clean index, and of one built after a refused build.
func symbolAnswer(t *testing.T, dir, state, name string) string {
	t.Helper()
	code, out := limited(t, dir, "-f unlimited", "--state-dir", state, "search", name, "--mode", "symbol", "--json")
	if code != 0 {
		t.Fatalf("search %s: exit %d\n%s", name, code, out)
	}
	var env struct {
		Data struct {
			Results []struct {
				Location struct {
					Path string `json:"path"`
					Line int    `json:"line"`
				} `json:"location"`
			} `json:"results"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &env); err != nil {
		t.Fatalf("search %s: %v\n%s", name, err, out)
	}
	b, _ := json.Marshal(env.Data.Results)
	return string(b)
}

// TestIndexUnderFileSizeLimit builds the index while a file-size limit (as
// a full disk would) refuses its writes at different points: each build
// ends with NO_SPACE (exit 5) and no crash, and the next build without the
// limit answers exactly as a clean index does.
func TestIndexUnderFileSizeLimit(t *testing.T) {
	cairn(t)
	testenv.Isolate(t)
	repo := testenv.Repo(t, manyFiles(600))
	clean := filepath.Join(t.TempDir(), "clean")
	if code, out := limited(t, repo, "-f unlimited", "--state-dir", clean, "index"); code != 0 {
		t.Fatalf("clean index: exit %d\n%s", code, out)
	}
	want := symbolAnswer(t, repo, clean, "Func599_7")
	refused := 0
	for _, kib := range []int{16, 64, 256, 1024, 4096} {
		state := filepath.Join(t.TempDir(), fmt.Sprintf("state-%d", kib))
		code, out := limited(t, repo, fmt.Sprintf("-f %d", kib), "--state-dir", state, "index")
		noCrash(t, fmt.Sprintf("index under %d KiB", kib), out)
		switch {
		case code == 0: // the limit was high enough
		case code == 5 && strings.Contains(out, "NO_SPACE"):
			refused++
		default:
			t.Errorf("index under %d KiB: exit %d, want 0 or NO_SPACE (5)\n%s", kib, code, out)
		}
		if got := symbolAnswer(t, repo, state, "Func599_7"); got != want {
			t.Errorf("after a build refused at %d KiB: %s, a clean index answers %s", kib, got, want)
		}
	}
	if refused < 2 {
		t.Errorf("only %d of the limits refused the build: the test no longer exercises a full disk", refused)
	}
}

// TestWriteUnderFileSizeLimit: a write batch that the file-size limit
// refuses fails with NO_SPACE, leaves every file as it was and no temporary
// file behind, and the same batch succeeds without the limit.
func TestWriteUnderFileSizeLimit(t *testing.T) {
	cairn(t)
	testenv.Isolate(t)
	repo := testenv.Repo(t, testenv.Demo)
	state := filepath.Join(t.TempDir(), "state")
	if code, out := limited(t, repo, "-f unlimited", "--state-dir", state, "index"); code != 0 {
		t.Fatalf("index: exit %d\n%s", code, out)
	}
	before := map[string][]byte{}
	for _, p := range []string{"main.go", "server/server.go"} {
		before[p], _ = os.ReadFile(filepath.Join(repo, p))
	}
	big := "package main\n\n// " + strings.Repeat("x", 3<<20) + "\nfunc main() {}\n"
	edits, _ := json.Marshal([]map[string]any{
		{"path": "server/server.go", "action": "update", "content": "package server\n"},
		{"path": "main.go", "action": "update", "content": big},
	})
	editsFile := filepath.Join(t.TempDir(), "edits.json")
	os.WriteFile(editsFile, edits, 0o644)

	code, out := limited(t, repo, "-f 1024", "--state-dir", state, "write", "--edits", editsFile)
	noCrash(t, "write under 1 MiB", out)
	if code != 5 || !strings.Contains(out, "NO_SPACE") {
		t.Fatalf("write under a 1 MiB limit: exit %d, want NO_SPACE (5)\n%s", code, out)
	}
	for p, b := range before {
		if now, _ := os.ReadFile(filepath.Join(repo, p)); !bytes.Equal(now, b) {
			t.Errorf("%s changed though the batch was refused", p)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(repo, "*", ".cairn-*.tmp"))
	top, _ := filepath.Glob(filepath.Join(repo, ".cairn-*.tmp"))
	if len(leftovers)+len(top) > 0 {
		t.Errorf("temporary files left behind: %v %v", leftovers, top)
	}
	if code, out := limited(t, repo, "-f unlimited", "--state-dir", state, "write", "--edits", editsFile); code != 0 {
		t.Fatalf("the same write without the limit: exit %d\n%s", code, out)
	}
	if now, _ := os.ReadFile(filepath.Join(repo, "main.go")); string(now) != big {
		t.Error("main.go does not hold the written content")
	}
}

// TestFewFileDescriptors: with very few file descriptors the index either
// builds or fails with a clear error; nothing crashes, and a later build
// answers as a clean one.
func TestFewFileDescriptors(t *testing.T) {
	cairn(t)
	testenv.Isolate(t)
	repo := testenv.Repo(t, manyFiles(200))
	clean := filepath.Join(t.TempDir(), "clean")
	if code, out := limited(t, repo, "-f unlimited", "--state-dir", clean, "index"); code != 0 {
		t.Fatalf("clean index: exit %d\n%s", code, out)
	}
	want := symbolAnswer(t, repo, clean, "Func199_7")
	for _, n := range []int{12, 20, 40} {
		state := filepath.Join(t.TempDir(), fmt.Sprintf("fds-%d", n))
		code, out := limited(t, repo, fmt.Sprintf("-n %d", n), "--state-dir", state, "index")
		noCrash(t, fmt.Sprintf("index with %d descriptors", n), out)
		if code != 0 && !strings.Contains(out, "code: ") {
			t.Errorf("index with %d descriptors: exit %d without an error code\n%s", n, code, out)
		}
		if got := symbolAnswer(t, repo, state, "Func199_7"); got != want {
			t.Errorf("after a build with %d descriptors: %s, a clean index answers %s", n, got, want)
		}
	}
}

// TestHugeAndBinaryFiles: a 100 MB file and a binary with a source
// extension are left out of parsing with a stated reason; the rest of the
// repository is indexed and answers.
func TestHugeAndBinaryFiles(t *testing.T) {
	cairn(t)
	testenv.Isolate(t)
	files := manyFiles(20)
	files["blob.go"] = "package p0\n\x00\x01\x02\xff\xfe" + strings.Repeat("\x00binary", 1000)
	repo := testenv.Repo(t, files)
	huge, err := os.Create(filepath.Join(repo, "huge.txt"))
	if err != nil {
		t.Fatal(err)
	}
	line := []byte(strings.Repeat("a huge file of text ", 5) + "\n")
	for written := 0; written < 100<<20; written += len(line) {
		huge.Write(line)
	}
	huge.Close()
	state := filepath.Join(t.TempDir(), "state")
	code, out := limited(t, repo, "-v 4000000", "--state-dir", state, "index", "--json")
	noCrash(t, "index", out)
	if code != 0 {
		t.Fatalf("index with a 100 MB file and a binary: exit %d\n%s", code, out)
	}
	if got := symbolAnswer(t, repo, state, "Func19_7"); !strings.Contains(got, "p19/f19.go") {
		t.Errorf("the ordinary files are not answered: %s", got)
	}
	code, out = limited(t, repo, "-f unlimited", "--state-dir", state, "ls", ".", "--glob", "{blob.go,huge.txt}", "--json")
	if code != 0 {
		t.Fatalf("ls: exit %d\n%s", code, out)
	}
	var ls struct {
		Data struct {
			Entries []struct {
				Path  string `json:"path"`
				State string `json:"state"`
			} `json:"entries"`
		} `json:"data"`
	}
	json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &ls)
	states := map[string]string{}
	for _, e := range ls.Data.Entries {
		states[e.Path] = e.State
	}
	if states["huge.txt"] != "too_large" || states["blob.go"] != "binary" {
		t.Errorf("the file states say %v; want huge.txt too_large and blob.go binary", states)
	}
}
