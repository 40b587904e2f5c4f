package scan

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
)

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
	}
	for _, tt := range tests {
		got, err := Contain(root, tt.in)
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
	for p, c := range files {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(c), 0o644)
	}
	os.WriteFile(filepath.Join(outside, "o.go"), []byte("package o"), 0o644)
	os.Symlink(filepath.Join(outside, "o.go"), filepath.Join(root, "out.go"))
	os.Symlink(filepath.Join(root, "a.go"), filepath.Join(root, "alias.go"))
	os.Symlink(filepath.Join(root, "docs"), filepath.Join(root, "docs2"))
	os.WriteFile(filepath.Join(root, ".cairnignore"), []byte(".env*\nid_rsa*\ngen/\n"), 0o644)
	res, err := Scan(context.Background(), Options{Paths: config.Paths{Root: root}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Files {
		got = append(got, f.Path)
	}
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
