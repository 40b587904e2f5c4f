package csharp

import (
	"path"
	"strings"
)

// testFile: a class file named *Tests or *Test, or any file of a test
// project (a directory named *.Tests, *.Test, Tests or tests).
func testFile(p string) string {
	stem := strings.TrimSuffix(path.Base(p), path.Ext(p))
	if strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "Test") {
		return "*Tests.cs"
	}
	for _, d := range strings.Split(path.Dir(p), "/") {
		if strings.HasSuffix(d, ".Tests") || strings.HasSuffix(d, ".Test") || d == "Tests" || d == "tests" {
			return "test project (" + d + "/)"
		}
	}
	return ""
}
