package testtree

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Read gives back what Write wrote, nested directories included, by
// slash-separated path.
func TestWriteRead(t *testing.T) {
	files := map[string]string{"a.txt": "a\n", "d/e/f.go": "package e\n", "d/empty": ""}
	dir := t.TempDir()
	Write(t, dir, files)
	if diff := cmp.Diff(files, Read(t, dir)); diff != "" {
		t.Errorf("tree (-written +read):\n%s", diff)
	}
}
