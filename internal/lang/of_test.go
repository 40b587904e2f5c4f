package lang_test

import (
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
	_ "github.com/cairnhq/cairn/internal/lang/all"
)

// Of gives the registered language, and for any other name one with no
// hooks and no facts, never nil.
func TestOf(t *testing.T) {
	if l := lang.Of("go"); l != lang.ByName("go") || l.Packages != lang.PackageDirectory {
		t.Errorf("Of(go) = %+v", l)
	}
	for _, name := range []string{"", "cobol", "ts"} {
		l := lang.Of(name)
		if l == nil || l.Name != "" || l.Grammar != nil || l.TestFile != nil || l.Ecosystem != "" || l.Packages != lang.PackageNone {
			t.Errorf("Of(%q) = %+v, want an empty language", name, l)
		}
	}
}
