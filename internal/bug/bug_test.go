package bug

import "testing"

func TestErrorfPanicsUnderTest(t *testing.T) {
	defer func() {
		r := recover()
		if r != "bug: broken: 7" {
			t.Fatalf("recover() = %v, want the report", r)
		}
	}()
	Errorf("broken: %d", 7)
	t.Fatal("Errorf returned under test")
}

func TestUnmarshal(t *testing.T) {
	var v []string
	Unmarshal(nil, &v, "empty")
	Unmarshal([]byte(`["a"]`), &v, "list %d", 1)
	if len(v) != 1 || v[0] != "a" {
		t.Fatalf("decoded %v", v)
	}
	defer func() {
		if r := recover(); r != `bug: row 7 "{": unexpected end of JSON input` {
			t.Fatalf("recover() = %v, want the report naming row 7", r)
		}
	}()
	Unmarshal([]byte("{"), &v, "row %d", 7)
	t.Fatal("Unmarshal of broken JSON returned under test")
}
