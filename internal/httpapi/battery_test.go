package httpapi_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cairnhq/cairn/internal/httpapi"
	"github.com/cairnhq/cairn/internal/service"
	"github.com/cairnhq/cairn/internal/testenv"
	"github.com/cairnhq/cairn/internal/tools"
)

// Markers the battery's repository and its surroundings hold: an answer
// that contains one read a file it must not.
const (
	envSecret     = "hunter2-battery"
	keySecret     = "BEGIN OPENSSH PRIVATE KEY battery"
	outsideSecret = "outside-the-repository-battery"
	ignoredSecret = "ignored-by-cairnignore-battery"
	gitMarker     = "repositoryformatversion"
	planted       = "planted-by-the-battery"
)

// pathFields are the argument names that take a path or a symbol; the
// battery finds them in every tool's arguments (nested in edits and
// positions too), so a new tool is covered when it is registered.
var pathFields = []string{"path", "paths", "file", "files", "symbol", "target", "from", "to", "module", "glob"}

// attacks are the values the battery sends where a path or symbol goes.
func attacks(outside string) []string {
	return []string{
		"../outside/secret.txt",
		"../../" + filepath.Base(outside) + "/secret.txt",
		outside + "/secret.txt",
		"/etc/passwd",
		"%2e%2e/outside/secret.txt",
		"..%2foutside%2fsecret.txt",
		"\uff0e\uff0e/outside/secret.txt", // fullwidth dots
		"\u2024\u2024/outside/secret.txt", // one-dot leaders
		"link_out.txt",
		"dir_out/secret.txt",
		"settings.txt",
		"docs/key.txt",
		".env",
		".ENV",
		"id_rsa",
		"secrets/ignored.txt",
		".git/config",
		".GIT/config",
		"./.git/../.git/config",
		"a\x00b",
		"pkg/ok.go\x00../../outside/secret.txt",
		strings.Repeat("a/", 3000) + "x.go",
		strings.Repeat("n", 300) + ".go",
		"../outside/secret.txt#Secret",
		".env#X",
	}
}

// batteryRepo is a repository with secrets, an ignored file, symlinks to
// secrets inside and to files and directories outside, beside a directory
// "outside" holding a secret of its own.
func batteryRepo(t *testing.T) (root, outside string) {
	t.Helper()
	root = testenv.Repo(t, map[string]string{
		"go.mod":              "module example.com/battery\n\ngo 1.22\n",
		"pkg/ok.go":           "package pkg\n\n// OK is an ordinary function.\nfunc OK() int { return 1 }\n",
		".env":                "PASSWORD=" + envSecret + "\n",
		"id_rsa":              "-----" + keySecret + "-----\n",
		".cairnignore":        "secrets/\n",
		"secrets/ignored.txt": ignoredSecret + "\n",
	})
	outside = filepath.Join(filepath.Dir(root), "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte(outsideSecret+"\n"), 0o644))
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link_out.txt")))
	must(t, os.Symlink(outside, filepath.Join(root, "dir_out")))
	must(t, os.Symlink(".env", filepath.Join(root, "settings.txt")))
	must(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	must(t, os.Symlink("../id_rsa", filepath.Join(root, "docs", "key.txt")))
	return root, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPathBattery sends every attack to every path or symbol argument of
// every tool, over REST as a client would, and checks that no answer holds a
// secret, an ignored file, a file outside the repository or git's own
// files, that no call fails INTERNAL, and that nothing was written outside
// the repository, into .git or over a secret.
func TestPathBattery(t *testing.T) {
	testenv.Isolate(t)
	root, outside := batteryRepo(t)
	svc := testenv.Open(t, root, service.Options{})
	api := httpapi.New(svc, httpapi.Options{Version: "test"})
	ts := newServer(t, api)
	if _, r := post(t, ts, "search", `{"query": "OK"}`); r.status != 200 {
		t.Fatalf("first search: %d %v", r.status, r.body["error"])
	}
	before := snapshotTree(t, filepath.Dir(root))

	attempts, covered := 0, 0
	// The git tools run last: staging and committing write .git's objects
	// and index, which is their job; every other tool must leave .git alone.
	all := tools.All()
	slices.SortStableFunc(all, func(a, b *tools.Tool) int {
		return cmpBool(a.Group == "git", b.Group == "git")
	})
	var beforeGit map[string]string
	for _, tool := range all {
		if skipInBattery(tool) {
			continue
		}
		if tool.Group == "git" && beforeGit == nil {
			beforeGit = snapshotTree(t, filepath.Dir(root))
			checkWrites(t, root, before, beforeGit, false)
		}
		fields := argPaths(tool.In, "")
		if len(fields) == 0 {
			continue
		}
		covered++
		for _, field := range fields {
			for _, value := range attacks(outside) {
				body := batteryArgs(tool.Name, field, value)
				raw, r := post(t, ts, tool.Name, body)
				attempts++
				if r.status >= 500 {
					t.Errorf("%s %s=%.60q: status %d: %.300s", tool.Name, field, value, r.status, raw)
				}
				for _, secret := range []string{envSecret, keySecret, outsideSecret, ignoredSecret, gitMarker} {
					if strings.Contains(raw, secret) {
						t.Errorf("%s %s=%.60q: the answer holds %q: %.1500s", tool.Name, field, value, secret, raw)
					}
				}
			}
		}
	}
	if beforeGit == nil {
		beforeGit = snapshotTree(t, filepath.Dir(root))
		checkWrites(t, root, before, beforeGit, false)
	}
	checkWrites(t, root, beforeGit, snapshotTree(t, filepath.Dir(root)), true)
	if covered < 10 {
		t.Errorf("only %d tools take a path or a symbol: the battery found too few fields", covered)
	}
	t.Logf("path battery: %d attempts on %d tools, 0 escapes allowed", attempts, covered)
}

// skipInBattery leaves out tools whose every call runs outside processes on
// the whole repository (tests, linters, git network operations): they take
// paths, but a run per attack would take minutes; their path checks are the
// same validation the battery exercises through the other tools.
func skipInBattery(t *tools.Tool) bool {
	return t.Group == "test" || slices.Contains([]string{"git_push", "git_pull", "git_fetch", "lint_check"}, t.Name)
}

// checkWrites fails the test for every file that changed between two
// snapshots where no tool may write: outside the repository, over a
// secret or an ignored file, or into .git (unless gitOK: the git tools'
// own writes there).
func checkWrites(t *testing.T, root string, before, after map[string]string, gitOK bool) {
	t.Helper()
	for p, sum := range after {
		if before[p] != sum && !mayChange(root, p, gitOK) {
			t.Errorf("written outside the work tree (or into .git or a secret): %s", p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok && !mayChange(root, p, gitOK) {
			t.Errorf("deleted outside the work tree (or in .git or a secret): %s", p)
		}
	}
}

// mayChange reports whether a changed path is one a tool may change:
// inside the repository, not a secret or an ignored file, and in .git only
// when gitOK.
func mayChange(root, p string, gitOK bool) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	first := strings.Split(filepath.ToSlash(rel), "/")[0]
	return (first != ".git" || gitOK) && rel != ".env" && rel != "id_rsa" && first != "secrets"
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// snapshotTree maps every regular file under dir to its content.
func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if strings.Contains(p, string(filepath.Separator)+"state"+string(filepath.Separator)) {
			return nil // Cairn's own state dir
		}
		b, _ := os.ReadFile(p)
		out[p] = string(b)
		return nil
	})
	return out
}

// argPaths lists the JSON paths of the path and symbol arguments of an
// argument type: "path", "paths[]", "edits[].path", "at.path".
func argPaths(typ reflect.Type, prefix string) []string {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			out = append(out, argPaths(f.Type, prefix)...)
			continue
		}
		if name == "" || name == "-" {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case ft.Kind() == reflect.String && slices.Contains(pathFields, name):
			out = append(out, prefix+name)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.String && slices.Contains(pathFields, name):
			out = append(out, prefix+name+"[]")
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			out = append(out, argPaths(ft.Elem(), prefix+name+"[].")...)
		case ft.Kind() == reflect.Struct:
			out = append(out, argPaths(ft, prefix+name+".")...)
		}
	}
	return out
}

// batteryArgs builds the arguments of one attack: the attacked field set
// to value in the shape its JSON path names (a list, an object in a list,
// a position), plus what the tool needs besides; writes create a file
// holding a marker.
func batteryArgs(tool, field, value string) string {
	m := map[string]any{}
	outer, inner, nested := strings.Cut(field, ".")
	switch {
	case nested && strings.HasSuffix(outer, "[]"): // edits[].path
		m[strings.TrimSuffix(outer, "[]")] = []any{map[string]any{inner: value, "action": "create", "content": planted + "\n"}}
	case nested: // at.path
		m[outer] = map[string]any{inner: value, "line": 1, "col": 1}
	case strings.HasSuffix(field, "[]"):
		m[strings.TrimSuffix(field, "[]")] = []any{value}
	default:
		m[field] = value
	}
	switch tool {
	case "refactor_rename":
		m["new_name"] = "Renamed"
	case "search":
		m["query"] = "battery"
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// TestArgPaths: the reflection finds nested path fields.
func TestArgPaths(t *testing.T) {
	got := argPaths(reflect.TypeOf(tools.WriteIn{}), "")
	if !slices.Contains(got, "edits[].path") {
		t.Errorf("write_source fields = %v", got)
	}
	if s := batteryArgs("write_source", "edits[].path", "x"); !strings.Contains(s, `"edits":[{`) || !strings.Contains(s, planted) {
		t.Errorf("write_source args = %s", s)
	}
}
