package golang

import (
	"slices"
	"testing"
)

func TestFileTags(t *testing.T) {
	for p, want := range map[string][]string{
		"a/x.go":                 nil,
		"a/x_test.go":            {"test"},
		"a/x_linux.go":           {"linux"},
		"a/x_arm64.go":           {"arm64"},
		"a/x_windows_amd64.go":   {"windows", "amd64"},
		"a/x_linux_test.go":      {"linux", "test"},
		"a/linux.go":             nil, // the whole name is no suffix
		"a/x_unknown.go":         nil,
		"a/x_plan9_arm_test.go":  {"plan9", "arm", "test"},
		"a/zsyscall_darwin.go":   {"darwin"},
		"a/sys_linux_mips64x.go": nil, // mips64x is no GOARCH
	} {
		if got := fileTags(p); !slices.Equal(got, want) {
			t.Errorf("fileTags(%q) = %q, want %q", p, got, want)
		}
	}
}

func TestInDefaultBuild(t *testing.T) {
	for _, c := range []struct {
		path, build string
		want        bool
	}{
		{"a/x.go", "", true},
		{"a/x_linux.go", "", true},
		{"a/x_windows.go", "", false},
		{"a/x_test.go", "", true},
		{"a/x.go", "linux && cgo", true},
		{"a/x.go", "!linux", false},
		{"a/x.go", "go1.21", true},
		{"a/x.go", "integration", false},
		{"a/x.go", "unix || windows", true},
		{"a/x.go", "((", true}, // an expression that does not parse excludes nothing
		{"a/x_darwin.go", "cgo", false},
	} {
		if got := inDefaultBuild(c.path, c.build); got != c.want {
			t.Errorf("inDefaultBuild(%q, %q) = %v, want %v", c.path, c.build, got, c.want)
		}
	}
}
