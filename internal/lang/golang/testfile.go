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
