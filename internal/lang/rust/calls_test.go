package rust

import "testing"

// TestTupleFieldType reads the type at a place of a tuple variant's
// signature, generic arguments and nested tuples included.
func TestTupleFieldType(t *testing.T) {
	for _, c := range []struct {
		sig   string
		place int
		want  string
	}{
		{"Literal(Literal)", 0, "Literal"},
		{"Pair(u8, Span)", 1, "Span"},
		{"Pair(u8, Span)", 2, ""},
		{"Map(HashMap<K, V>, Box<Node>)", 1, "Node"},
		{"Map(HashMap<K, V>, Box<Node>)", 0, "HashMap"},
		{"Nested((u8, u8), &Span)", 1, "Span"},
		{"Unit", 0, ""},
		{"Literal(ast::Literal)", 0, "ast::Literal"},
		{"Boxed(Box<hir::Hir>)", 0, "hir::Hir"},
		{"Shared(Rc<Node>, Vec<Node>)", 0, "Node"},
		{"Shared(Rc<Node>, Vec<Node>)", 1, "Vec"},
	} {
		if got := tupleFieldType(c.sig, c.place); got != c.want {
			t.Errorf("tupleFieldType(%q, %d) = %q, want %q", c.sig, c.place, got, c.want)
		}
	}
	if p, n, ok := variantPlace("ast::Ast::Literal(2)"); !ok || p != "ast::Ast::Literal" || n != (patternPlace{index: 2}) {
		t.Errorf("variantPlace = %q %v %v", p, n, ok)
	}
	if p, n, ok := variantPlace("GroupState::Group{concat}"); !ok || p != "GroupState::Group" || n != (patternPlace{field: "concat"}) {
		t.Errorf("variantPlace = %q %v %v", p, n, ok)
	}
	if _, _, ok := variantPlace("Counter"); ok {
		t.Errorf("variantPlace(Counter) ok")
	}
}
