package query

import "testing"

func TestUTF8Check(t *testing.T) {
	text := []byte("héllo wörld → ok")
	for split := 0; split <= len(text); split++ {
		var u utf8Check
		u.write(text[:split])
		u.write(text[split:])
		if !u.valid() {
			t.Errorf("split at %d: valid text reported invalid", split)
		}
	}
	var u utf8Check
	u.write([]byte("ok \xff"))
	if u.valid() {
		t.Error("invalid byte not reported")
	}
	u = utf8Check{}
	u.write([]byte("cut \xe2\x86")) // an arrow missing its last byte at the end
	if u.valid() {
		t.Error("truncated rune at the end not reported")
	}
}
