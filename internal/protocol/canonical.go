package protocol

import (
	"bytes"
	"encoding/json"
	"math"
)

// Canonical encodes v as deterministic JSON: object keys sorted, no HTML escaping,
// numbers kept as written. Two equal values always give the same bytes.
func Canonical(v any) ([]byte, error) {
	raw, err := Compact(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	return Compact(tree)
}

// CanonicalIndent is Canonical with two-space indentation, for human eyes.
func CanonicalIndent(v any) ([]byte, error) {
	b, err := Canonical(v)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// Compact encodes v as JSON in its own key order, without HTML escaping and
// without the encoder's trailing newline: the bytes Canonical embeds
// unchanged when v is raw JSON.
func Compact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// Round6 rounds a float to 6 decimal places, the precision of every float Cairn emits.
func Round6(f float64) float64 {
	return math.Round(f*1e6) / 1e6
}

// EstimateTokens estimates how many LLM tokens a piece of text costs (about four
// bytes per token for code and JSON).
func EstimateTokens(n int) int {
	return (n + 3) / 4
}
