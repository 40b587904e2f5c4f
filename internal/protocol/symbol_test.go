package protocol

import (
	"encoding/json"
	"testing"
)

func TestSymbolIDRoundTrip(t *testing.T) {
	for _, h := range []int64{1, 0x0123456789abcdef, -1, -0x7fffffffffffffff - 1} {
		id := NewSymbolID(h)
		if len(id) != len("sym_")+16 {
			t.Errorf("NewSymbolID(%d) = %q, want sym_ and 16 hex digits", h, id)
		}
		got, ok := id.Hash()
		if !ok || got != h {
			t.Errorf("%q.Hash() = %d, %v; want %d, true", id, got, ok, h)
		}
		if p, ok := ParseSymbolID(string(id)); !ok || p != id {
			t.Errorf("ParseSymbolID(%q) = %q, %v", id, p, ok)
		}
	}
	if got := NewSymbolID(0x0123456789abcdef); got != "sym_0123456789abcdef" {
		t.Errorf("NewSymbolID = %q, want sym_0123456789abcdef", got)
	}
}

func TestSymbolIDRejectsNames(t *testing.T) {
	for _, s := range []string{"", "sym_", "sym_0123", "sym_0123456789abcdeg", "sym_0123456789abcdef0",
		"SYM_0123456789abcdef", "rest.Config", "internal/store", "scip-go gomod x v1 `x`/Y#"} {
		if id, ok := ParseSymbolID(s); ok {
			t.Errorf("ParseSymbolID(%q) = %q, true; want not an id", s, id)
		}
		if _, ok := SymbolID(s).Hash(); ok {
			t.Errorf("SymbolID(%q).Hash() ok, want false", s)
		}
	}
}

func TestSymbolIDWireIsPlainString(t *testing.T) {
	type ref struct {
		ID SymbolID `json:"symbol_id"`
	}
	b, err := json.Marshal(ref{NewSymbolID(42)})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"symbol_id":"sym_000000000000002a"}`; string(b) != want {
		t.Errorf("marshal = %s, want %s", b, want)
	}
	var back ref
	if err := json.Unmarshal(b, &back); err != nil || back.ID != NewSymbolID(42) {
		t.Errorf("unmarshal = %q, %v", back.ID, err)
	}
}
