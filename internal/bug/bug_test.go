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
