package index_test

import (
	"testing"

	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/lang"
)

// TestUnitKey: where a definition's identity lives decides whether moving it
// keeps its symbol — within a Go package's directory, within a Java, Kotlin
// or C# package wherever the file is, otherwise within its file.
func TestUnitKey(t *testing.T) {
	for _, c := range []struct {
		path, language, pkg, want string
	}{
		{"pkg/a/x.go", "go", "a", "go:pkg/a"},
		{"pkg/a/x_test.go", "go", "a", "go:pkg/a"},
		{"pkg/a/x_test.go", "go", "a_test", "go:pkg/a#_test"},
		{"main.go", "go", "main", "go:"},
		{"src/com/x/A.java", "java", "com.x", "java:com.x"},
		{"other/B.java", "java", "com.x", "java:com.x"},
		{"A.java", "java", "", "file:A.java"},
		{"src/K.kt", "kotlin", "com.x", "kotlin:com.x"},
		{"src/C.cs", "csharp", "Acme.Web", "csharp:Acme.Web"},
		{"m/a.py", "python", "", "file:m/a.py"},
		{"src/a.ts", "typescript", "", "file:src/a.ts"},
		{"src/lib.rs", "rust", "", "file:src/lib.rs"},
		{"x.unknown", "cobol", "p", "file:x.unknown"},
	} {
		if got := index.UnitKey(c.path, c.language, &lang.Facts{Package: c.pkg}); got != c.want {
			t.Errorf("UnitKey(%q, %q, package %q) = %q, want %q", c.path, c.language, c.pkg, got, c.want)
		}
	}
	if got := index.UnitKey("a/x.go", "go", nil); got != "go:a" {
		t.Errorf("UnitKey without facts = %q, want go:a", got)
	}
}
