package results

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReplace(t *testing.T) {
	p := filepath.Join(t.TempDir(), "RESULTS.md")
	os.WriteFile(p, []byte("# R\n\n<!-- a:begin -->\nold\n<!-- a:end -->\n\ntail\n"), 0o644)
	if err := Replace(p, "a", "<!-- a:begin -->\nnew\n<!-- a:end -->\n"); err != nil {
		t.Fatal(err)
	}
	if err := Replace(p, "b", "<!-- b:begin -->\nB\n<!-- b:end -->\n"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want := "# R\n\n<!-- a:begin -->\nnew\n<!-- a:end -->\n\ntail\n\n<!-- b:begin -->\nB\n<!-- b:end -->\n"
	if string(got) != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
