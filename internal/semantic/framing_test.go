package semantic

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// A field whose declared length runs past the end of the file is refused
// before the streaming parser allocates it; well-framed fields pass.
func TestCheckFraming(t *testing.T) {
	field := func(num protowire.Number, length uint64, body string) []byte {
		b := protowire.AppendTag(nil, num, protowire.BytesType)
		b = protowire.AppendVarint(b, length)
		return append(b, body...)
	}
	real, err := os.ReadFile(filepath.Join("testdata", "fixture.scip"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string // "" when the framing is sound
	}{
		{"the fixture", real, ""},
		{"empty", nil, ""},
		{"two fields", append(field(1, 3, "abc"), field(2, 0, "")...), ""},
		{"25 GB declared", field(2, 25<<30, "xy"), "declares 26843545600 bytes, but only 2 follow"},
		{"one byte too many", append(field(1, 1, "a"), field(2, 4, "abc")...), "declares 4 bytes, but only 3 follow"},
		{"a cut length", []byte{0x12, 0xff}, "cut short"},
		{"an unknown field ends the walk", append(field(9, 1<<40, ""), 0), ""},
	} {
		err := checkFraming(bytes.NewReader(c.data), int64(len(c.data)))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
