package golang

import (
	"path"
	"strings"
)

// testFile: go test runs the files named *_test.go.
func testFile(p string) string {
	if strings.HasSuffix(path.Base(p), "_test.go") {
		return "go test (*_test.go)"
	}
	return ""
}

// testLayout: a Go file is a test by its name alone; a test/ directory
// holds packages of ordinary files.
func testLayout(p string) (string, bool) {
	if strings.HasSuffix(path.Base(p), "_test.go") {
		return "*_test.go", true
	}
	return "", true
}
