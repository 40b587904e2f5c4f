package renamebench

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRustSymbols draws the methods of trait and inherent impls (a header
// over several lines included) and the fields of structs, and nothing
// nested deeper or outside them.
func TestRustSymbols(t *testing.T) {
	dir := t.TempDir()
	src := `pub struct Span {
    pub start: usize,
    end: usize,
}

pub struct Unit;

impl Span {
    pub fn len(&self) -> usize {
        fn helper() {}
        self.end - self.start
    }
}

impl<T> fmt::Display
    for Wrap<T>
{
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        Ok(())
    }
}

fn free() {}

mod tests {
    fn inner() {}
}
`
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "src", "lib.rs"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := RustSymbols(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string][]string{}
	for k, syms := range got {
		for _, s := range syms {
			names[k] = append(names[k], s.Name)
		}
	}
	want := map[string][]string{"field": {"start", "end"}, "method": {"len"}, "method_trait_impl": {"fmt"}}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("RustSymbols = %v, want %v", names, want)
	}
}
