package classlang

import (
	"path"
	"strings"
)

// JVMTestFile is the convention by which a Java or Kotlin file holds tests:
// a JUnit class named *Test, *Tests or *IT (the label names the first), or
// any file of Maven's and Gradle's src/test/.
func JVMTestFile(p string) string {
	base := path.Base(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch {
	case strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "IT"):
		return "JUnit (*Test" + ext + ")"
	case strings.Contains(p, "src/test/"):
		return "src/test/"
	}
	return ""
}
