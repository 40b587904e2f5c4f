package scan

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/testenv/testtree"
)

// scanned scans and returns the result with the paths it found, in order.
func scanned(t *testing.T, opts Options) (Result, []string) {
	t.Helper()
	res, err := Scan(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Path)
	}
	return res, got
}

func TestContain(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(root, "escape"))
	os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "inner"))
	tests := []struct {
		in   string
		want string
		kind errs.Kind
	}{
		{"a/b.go", "a/b.go", 0},
		{"./a//b.go", "a/b.go", 0},
		{"a/../b.go", "b.go", 0},
		{".", "", 0},
		{filepath.Join(root, "sub", "x.go"), "sub/x.go", 0},
		{"../x", "", errs.OutsideRepo},
		{"a/../../x", "", errs.OutsideRepo},
		{"/etc/passwd", "", errs.OutsideRepo},
		{"escape/secret", "", errs.OutsideRepo},
		{"inner/x.go", "inner/x.go", 0},
		// PATH_MAX and NAME_MAX: at the limit is fine, past it is refused.
		{strings.Repeat("a/", MaxPathBytes/2-1) + "bc", strings.Repeat("a/", MaxPathBytes/2-1) + "bc", 0},
		{strings.Repeat("a/", MaxPathBytes/2) + "b", "", errs.InvalidArgument},
		{"d/" + strings.Repeat("n", MaxNameBytes), "d/" + strings.Repeat("n", MaxNameBytes), 0},
		{"d/" + strings.Repeat("n", MaxNameBytes+1), "", errs.InvalidArgument},
	}
	for _, tt := range tests {
		got, err := Contain(context.Background(), root, tt.in)
		if tt.kind != 0 {
			if errs.KindOf(err) != tt.kind {
				t.Errorf("Contain(%q) = %q, %v; want %v", tt.in, got, err, tt.kind)
			}
			continue
		}
		if err != nil || string(got) != tt.want {
			t.Errorf("Contain(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// Resolve follows the symlinks on a path to where it really leads, inside
// the repository, the way the kernel would.
func TestResolve(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	for _, d := range []string{"sub", ".git", "docs"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	for _, f := range []string{".env", "id_rsa", ".git/config", "sub/x.go"} {
		os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644)
	}
	links := map[string]string{
		"settings.txt":  ".env",
		"docs/key.txt":  "../id_rsa",
		"gitcfg.txt":    ".git/config",
		"gitdir":        ".git",
		"abs.txt":       filepath.Join(root, ".env"),
		"chain.txt":     "settings.txt",
		"inner":         "sub",
		"loop1":         "loop2",
		"loop2":         "loop1",
		"up.txt":        "../x",
		"docs/deep.txt": "../../x",
		"out":           outside,
		"dangling.txt":  "nothere/../../../x",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		in         string
		path, real string
		kind       errs.Kind
	}{
		{"a.go", "a.go", "a.go", 0},
		{"settings.txt", "settings.txt", ".env", 0},
		{"docs/key.txt", "docs/key.txt", "id_rsa", 0},
		{"gitcfg.txt", "gitcfg.txt", ".git/config", 0},
		{"gitdir/HEAD", "gitdir/HEAD", ".git/HEAD", 0},
		{"abs.txt", "abs.txt", ".env", 0},
		{"chain.txt", "chain.txt", ".env", 0},
		{"inner/x.go", "inner/x.go", "sub/x.go", 0},
		{"inner/../id_rsa", "id_rsa", "id_rsa", 0},
		{"inner/missing/y.go", "inner/missing/y.go", "sub/missing/y.go", 0},
		{"loop1", "", "", errs.InvalidArgument},
		{"up.txt", "", "", errs.OutsideRepo},
		{"docs/deep.txt", "", "", errs.OutsideRepo},
		{"out/x", "", "", errs.OutsideRepo},
		{"dangling.txt", "", "", errs.OutsideRepo},
	}
	for _, tt := range tests {
		got, err := Resolve(context.Background(), root, tt.in)
		if tt.kind != 0 {
			if errs.KindOf(err) != tt.kind {
				t.Errorf("Resolve(%q) = %+v, %v; want %v", tt.in, got, err, tt.kind)
			}
			continue
		}
		if err != nil || string(got.Path) != tt.path || string(got.Real) != tt.real {
			t.Errorf("Resolve(%q) = %+v, %v; want %q -> %q", tt.in, got, err, tt.path, tt.real)
		}
	}
}

// An over-long path is refused at once, whatever its shape, and a walk
// stops when its context ends.
func TestContainBounded(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "a", "b"), 0o755)
	long := strings.Repeat("a/", 1<<19) // 1 MiB of directories
	for _, p := range []string{long, long + "x", "/" + long, strings.Repeat("n", 1<<20), strings.Repeat("../", 1<<18)} {
		start := time.Now()
		_, err := Contain(context.Background(), root, p)
		if errs.KindOf(err) != errs.InvalidArgument {
			t.Errorf("Contain(%d bytes): %v, want INVALID_ARGUMENT", len(p), err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Contain(%d bytes) took %s", len(p), d)
		}
		if e := errs.As(err); e != nil && len(e.Error()) > 1000 {
			t.Errorf("the error echoes the path: %d bytes", len(e.Error()))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Resolve(ctx, root, "a/b/c"); !errors.Is(err, context.Canceled) {
		t.Errorf("Resolve with a cancelled context: %v", err)
	}
}

// Outside git: every file minus ignores, pruned directories and secrets;
// symlinked directories are never entered; symlinked files only when their
// target is inside the repository.
func TestScanPolicy(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	files := map[string]string{
		"a.go": "package a", "node_modules/x/y.js": "x", "vendor/v.go": "v", ".env": "S=1", "keys/id_rsa": "k",
		"docs/readme.md": "hi", "gen/big.pb.go": "p",
	}
	testtree.Write(t, root, files)
	os.WriteFile(filepath.Join(outside, "o.go"), []byte("package o"), 0o644)
	os.Symlink(filepath.Join(outside, "o.go"), filepath.Join(root, "out.go"))
	os.Symlink(filepath.Join(root, "a.go"), filepath.Join(root, "alias.go"))
	os.Symlink(filepath.Join(root, "docs"), filepath.Join(root, "docs2"))
	os.WriteFile(filepath.Join(root, ".cairnignore"), []byte(".env*\nid_rsa*\ngen/\n"), 0o644)
	res, got := scanned(t, Options{Paths: config.Paths{Root: root}})
	want := []string{".cairnignore", "a.go", "alias.go", "docs/readme.md"}
	if len(got) != len(want) {
		t.Fatalf("scanned %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("scanned %v, want %v", got, want)
		}
	}
	if res.Skipped["symlink_outside"] != 1 || res.Skipped["symlinked_dir"] != 1 {
		t.Errorf("skipped %v", res.Skipped)
	}
	if !IsSecret("config/.env.local") || !IsSecret("a/b/server.pem") || IsSecret("main.go") {
		t.Error("secret patterns")
	}
}

// A symlink is held to the rules of the file it leads to: a link to a secret,
// an ignored file, a file in .git, a pruned directory or Cairn's state is left
// out, by a scan and by a one-path update alike.
func TestScanSymlinkTargets(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"a.go": "package a", ".env": "PASSWORD=hunter2", "id_rsa": "KEY", "gen/big.pb.go": "p",
		".git/config": "[core]", "node_modules/m/i.js": "x", ".cairn/cache/index.db": "db", "state/index.db": "db",
		"sub/x.go": "package sub",
	}
	testtree.Write(t, root, files)
	os.WriteFile(filepath.Join(root, ".cairnignore"), []byte(".env*\nid_rsa*\ngen/\n"), 0o644)
	links := map[string]string{
		"settings.txt":   ".env",
		"docs/key.txt":   "../id_rsa",
		"abs_key.txt":    filepath.Join(root, "id_rsa"),
		"gen.go":         "gen/big.pb.go",
		"gitcfg.txt":     ".git/config",
		"mod.js":         "node_modules/m/i.js",
		"db.txt":         ".cairn/cache/index.db",
		"state.txt":      "state/index.db",
		"alias.go":       "a.go",
		"docs/x_link.go": "../sub/x.go",
		"subdir":         "sub",
	}
	for name, target := range links {
		os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	opts := Options{Paths: config.Paths{Root: root, InTreeState: "state"}}
	res, got := scanned(t, opts)
	want := []string{".cairnignore", "a.go", "alias.go", "docs/x_link.go", "sub/x.go"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scanned (-want +got):\n%s", diff)
	}
	if res.Skipped["symlink_ignored"] != 4 || res.Skipped["symlink_pruned"] != 4 {
		t.Errorf("skipped %v, want 4 symlink_ignored and 4 symlink_pruned", res.Skipped)
	}
	for name := range links {
		_, why := One(context.Background(), opts, name)
		in := why == ""
		wantIn := name == "alias.go" || name == "docs/x_link.go"
		if in != wantIn {
			t.Errorf("One(%q): reason %q, want indexed %v", name, why, wantIn)
		}
	}
	// A path through a symlinked directory is not indexed under that name.
	if _, why := One(context.Background(), opts, "subdir/x.go"); why != "symlinked_dir" {
		t.Errorf("One(subdir/x.go): reason %q, want symlinked_dir", why)
	}
}

// A .cairnignore that does not mention secrets does not let them in; one
// that negates a secret pattern indexes that file on purpose.
func TestCairnignoreKeepsSecretsOut(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"a.go": "package a", ".env": "S=1", "id_rsa": "k", "certs/server.pem": "p",
		".env.example": "S=", "secrets/x.txt": "x"})
	os.WriteFile(filepath.Join(root, ".cairnignore"), []byte("secrets/\n!.env.example\n"), 0o644)
	_, got := scanned(t, Options{Paths: config.Paths{Root: root}})
	want := []string{".cairnignore", ".env.example", "a.go"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("scanned %v, want %v", got, want)
	}
}

// TestScanUnder: a scan limited to one directory lists what a whole scan
// lists below it, by the same rules (git's ignore files in a worktree,
// .cairnignore, pruned and symlinked directories), and nothing else.
func TestScanUnder(t *testing.T) {
	for _, git := range []bool{false, true} {
		root := t.TempDir()
		testtree.Write(t, root, map[string]string{
			"a.go": "package a", "sub/b.go": "package b", "sub/deep/c.go": "package c", "sub/gen/g.go": "package g",
			"sub/.gitignore": "*.log\n", "sub/x.log": "log", "subway/s.go": "package s", "sub/vendor/v.go": "package v",
			".cairnignore": "sub/gen/\n",
		})
		os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "linked"))
		opts := Options{Paths: config.Paths{Root: root}}
		if git {
			testtree.Git(t, root, "init", "-q")
			testtree.Git(t, root, "add", "-A")
			testtree.Write(t, root, map[string]string{"sub/deep/untracked.go": "package c"})
			opts.Paths.IsGit = true
		}
		_, all := scanned(t, opts)
		var want []string
		for _, p := range all {
			if strings.HasPrefix(p, "sub/") {
				want = append(want, p)
			}
		}
		opts.Under = "sub"
		_, got := scanned(t, opts)
		if diff := cmp.Diff(want, got); diff != "" || len(got) < 3 {
			t.Errorf("git %v: under sub (-whole scan +under): %s (%v)", git, diff, got)
		}
		for _, dir := range []string{"sub/gen", "sub/vendor", "linked", "missing"} {
			opts.Under = dir
			if _, got := scanned(t, opts); len(got) > 0 {
				t.Errorf("git %v: under %s: %v, want nothing", git, dir, got)
			}
		}
	}
}
