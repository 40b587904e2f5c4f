package php

import (
	"path"
	"strings"
)

// testFile: PHPUnit's *Test.php.
func testFile(p string) string {
	if base := path.Base(p); strings.HasSuffix(base, "Test.php") {
		return "PHPUnit (*Test.php)"
	}
	return ""
}
