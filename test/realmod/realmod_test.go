// Package realmod checks semantic_diff against the API changes a real Go
// module's changelog lists: two releases of github.com/fsnotify/fsnotify are
// fetched with `go mod download` (the Go module proxy), committed as two
// tagged commits of a fresh git repository and compared. It needs the proxy,
// so it runs when CAIRN_REALMOD=1 (make test and make realmod set it).
package realmod_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cairnhq/cairn/internal/cli"
)

const module = "github.com/fsnotify/fsnotify"

// change is what the changelog says about one definition.
type change struct {
	path, qname, change, severity string
}

func TestChangelogAPIChanges(t *testing.T) {
	if v := os.Getenv("CAIRN_REALMOD"); v == "" || v == "0" {
		t.Skip("set CAIRN_REALMOD=1 to fetch two releases of " + module + " from the Go module proxy")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	// One commit per release, oldest first.
	for _, v := range []string{"v0.9.3", "v1.0.0", "v1.6.0", "v1.7.0"} {
		dir := download(t, v)
		entries, _ := os.ReadDir(repo)
		for _, e := range entries {
			if e.Name() != ".git" {
				os.RemoveAll(filepath.Join(repo, e.Name()))
			}
		}
		copyTree(t, dir, repo)
		git("add", "-A")
		git("commit", "-qm", v, "--allow-empty")
		git("tag", v)
	}
	state := t.TempDir()

	// CHANGELOG 1.7.0, "Additions": NewBufferedWatcher(), Watcher.AddWith(),
	// WithBufferSize(); "Changes and fixes": return ErrClosed. Nothing listed
	// breaks the API.
	d := diff(t, repo, state, "v1.6.0", "v1.7.0")
	expect(t, d, []change{
		{"backend_inotify.go", "NewBufferedWatcher", "added", "non_breaking"},
		{"backend_kqueue.go", "NewBufferedWatcher", "added", "non_breaking"},
		{"backend_windows.go", "NewBufferedWatcher", "added", "non_breaking"},
		{"backend_inotify.go", "Watcher.AddWith", "added", "non_breaking"},
		{"backend_windows.go", "Watcher.AddWith", "added", "non_breaking"},
		{"fsnotify.go", "WithBufferSize", "added", "non_breaking"},
		{"fsnotify.go", "ErrClosed", "added", "non_breaking"},
	})
	if d.Breaking != 0 {
		t.Errorf("v1.6.0 -> v1.7.0: %d breaking changes, the changelog lists none: %s", d.Breaking, d.BreakingSummary)
	}

	// CHANGELOG 1.0.0 and the dev entries before it: "[API] Remove AddWatch
	// on Windows, use Add"; "Renamed Watch() to Add() and RemoveWatch() to
	// Remove()"; "Pluralized channel names: Events and Errors"; "Renamed
	// FileEvent struct to Event"; "Op constants replace methods like
	// IsCreate()"; "Remove current implementation of WatchFlags".
	d = diff(t, repo, state, "v0.9.3", "v1.0.0")
	expect(t, d, []change{
		{"fsnotify_windows.go", "Watcher.AddWatch", "removed", "breaking"},
		{"fsnotify.go", "Watcher.Watch", "removed", "breaking"},
		{"fsnotify.go", "Watcher.RemoveWatch", "removed", "breaking"},
		{"fsnotify_linux.go", "Watcher.Add", "added", "non_breaking"},
		{"fsnotify_linux.go", "Watcher.Remove", "added", "non_breaking"},
		{"fsnotify_linux.go", "Watcher.Event", "removed", "breaking"},
		{"fsnotify_linux.go", "Watcher.Error", "removed", "breaking"},
		{"fsnotify_linux.go", "Watcher.Events", "added", "non_breaking"},
		{"fsnotify_linux.go", "Watcher.Errors", "added", "non_breaking"},
		{"fsnotify_linux.go", "FileEvent", "removed", "breaking"},
		{"fsnotify.go", "Event", "added", "non_breaking"},
		{"fsnotify_linux.go", "FileEvent.IsCreate", "removed", "breaking"},
		{"fsnotify.go", "Create", "added", "non_breaking"},
		{"fsnotify.go", "Watcher.WatchFlags", "removed", "breaking"},
	})

	// The second run parses nothing: every content is in the blob store.
	d = diff(t, repo, state, "v0.9.3", "v1.0.0")
	if d.Parsed != 0 || d.Reused == 0 {
		t.Errorf("second diff parsed %d contents and reused %d; want 0 parsed", d.Parsed, d.Reused)
	}
}

type diffData struct {
	Breaking        int    `json:"breaking"`
	BreakingSummary string `json:"breaking_summary"`
	Parsed          int    `json:"contents_parsed"`
	Reused          int    `json:"contents_reused"`
	Changes         []struct {
		Path     string `json:"path"`
		QName    string `json:"qualified_name"`
		Change   string `json:"change"`
		Severity string `json:"structural_severity"`
	} `json:"structural_changes"`
}

// diff runs `cairn diff` and pages through every structural change with
// the cursor (a page is cut to the response budget); the counts are the
// first page's.
func diff(t *testing.T, repo, state, base, target string) diffData {
	t.Helper()
	var all diffData
	cursor := ""
	for page := 0; ; page++ {
		args := []string{"--repo", repo, "--state-dir", state, "--json", "diff", base, target, "--limit", "200"}
		if cursor != "" {
			args = append(args, "--cursor", cursor)
		}
		var out, errb bytes.Buffer
		if code := cli.Run(context.Background(), args, &out, &errb); code != 0 {
			t.Fatalf("cairn diff %s %s: exit %d\n%s%s", base, target, code, out.String(), errb.String())
		}
		var env struct {
			Data       diffData `json:"data"`
			Provenance struct {
				Truncations []struct {
					Field  string `json:"field"`
					Cursor string `json:"cursor"`
				} `json:"truncations"`
			} `json:"provenance"`
		}
		if err := json.Unmarshal(out.Bytes(), &env); err != nil {
			t.Fatal(err)
		}
		if page == 0 {
			all = env.Data
		} else {
			all.Changes = append(all.Changes, env.Data.Changes...)
		}
		cursor = ""
		for _, tr := range env.Provenance.Truncations {
			if tr.Field == "structural_changes" {
				cursor = tr.Cursor
			}
		}
		if cursor == "" {
			return all
		}
		if page > 50 {
			t.Fatalf("%s -> %s: more than 50 pages", base, target)
		}
	}
}

func expect(t *testing.T, d diffData, want []change) {
	t.Helper()
	for _, w := range want {
		found := false
		for _, c := range d.Changes {
			if c.Path == w.path && c.QName == w.qname {
				found = true
				if c.Change != w.change || c.Severity != w.severity {
					t.Errorf("%s %s: %s %s, want %s %s", w.path, w.qname, c.Change, c.Severity, w.change, w.severity)
				}
			}
		}
		if !found {
			t.Errorf("%s %s: not reported (want %s %s)", w.path, w.qname, w.change, w.severity)
		}
	}
}

// download fetches one release into the module cache and returns its directory.
func download(t *testing.T, version string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=on")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s@%s: %v", module, version, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s@%s: %s %s", module, version, out, info.Error)
	}
	return info.Dir
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
