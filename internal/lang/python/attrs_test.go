package python_test

import (
	"testing"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/lang/python"
)

const attrsSource = `class Conn:
    def __init__(self, db):
        self.db = db
        def nested():
            return 1
        self.cursor = db.cursor()
        open_pool()

    def close(self):
        self.db.close()
`

// The attributes that __init__ assigns are fields of the class inserted
// among its definitions: the definitions stay in pre-order, every index into
// them follows, and the innermost definition around a position is still the
// method that holds it.
func TestInstanceAttributesKeepDefinitionOrder(t *testing.T) {
	x := lang.NewExtractor()
	defer x.Close()
	f, err := x.Extract(python.Language, []byte(attrsSource))
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]int32{}
	for i, d := range f.Defs {
		byPath[d.Path] = int32(i)
		if i > 0 && d.Span.Start.Before(f.Defs[i-1].Span.Start) {
			t.Errorf("definition %d (%s) starts before the one ahead of it", i, d.Path)
		}
		if d.Parent >= int32(i) {
			t.Errorf("definition %d (%s) comes before its parent %d", i, d.Path, d.Parent)
		}
	}
	for _, p := range []string{"Conn.db", "Conn.cursor"} {
		i, ok := byPath[p]
		if !ok {
			t.Fatalf("no definition %s among %v", p, byPath)
		}
		if d := f.Defs[i]; d.Kind != lang.KindField || d.Parent != byPath["Conn"] {
			t.Errorf("%s: kind %v, parent %d; want a field of Conn (%d)", p, d.Kind, d.Parent, byPath["Conn"])
		}
	}
	init := byPath["Conn.__init__"]
	for _, r := range f.Refs {
		switch f.Names[r.Name] {
		case "open_pool", "cursor":
			if r.Enclosing != init {
				t.Errorf("%s at %v: enclosed by %d, want __init__ (%d)", f.Names[r.Name], r.Pos, r.Enclosing, init)
			}
		case "nested":
			t.Errorf("nested is a definition, not a reference")
		}
		if r.Pos.Line == 10 && r.Enclosing != byPath["Conn.close"] {
			t.Errorf("%s at %v: enclosed by %d, want close (%d)", f.Names[r.Name], r.Pos, r.Enclosing, byPath["Conn.close"])
		}
	}
	// line 7 (open_pool()) follows the cursor attribute and the nested function
	if got := f.DefAt(lang.Pos{Line: 7, Col: 9}); got != init {
		t.Errorf("DefAt(7:9) = %d, want __init__ (%d)", got, init)
	}
	if got := f.DefAt(lang.Pos{Line: 6, Col: 14}); got != byPath["Conn.cursor"] {
		t.Errorf("DefAt(6:14) = %d, want the cursor attribute (%d)", got, byPath["Conn.cursor"])
	}
	if got := f.DefAt(lang.Pos{Line: 10, Col: 9}); got != byPath["Conn.close"] {
		t.Errorf("DefAt(10:9) = %d, want close (%d)", got, byPath["Conn.close"])
	}
}
