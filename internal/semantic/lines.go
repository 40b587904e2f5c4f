package semantic

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/scip-code/scip/bindings/go/scip"

	"github.com/cairnhq/cairn/internal/lang"
)

// lineIndex converts SCIP positions (0-based line, 0-based character in the
// document's position encoding) to Cairn's (1-based line, 1-based byte
// column). Without content it passes positions through as bytes.
type lineIndex struct {
	content []byte
	starts  []int // byte offset of each line
	unit    int   // 8, 16 or 32: what a character counts
}

func newLineIndex(content []byte, enc scip.PositionEncoding, tool string) *lineIndex {
	li := &lineIndex{content: content, unit: 8}
	switch enc {
	case scip.PositionEncoding_UTF16CodeUnitOffsetFromLineStart:
		li.unit = 16
	case scip.PositionEncoding_UTF32CodeUnitOffsetFromLineStart:
		li.unit = 32
	case scip.PositionEncoding_UnspecifiedPositionEncoding:
		// Indexers written in JavaScript count UTF-16 code units (the
		// language's string unit); others count bytes.
		if strings.Contains(tool, "typescript") || strings.Contains(tool, "python") || strings.Contains(tool, "javascript") {
			li.unit = 16
		}
	}
	if content != nil {
		li.starts = lang.LineStarts(content)
	}
	return li
}

// line returns the bytes of a 0-based line without its terminator.
func (li *lineIndex) line(n int32) ([]byte, bool) {
	if n < 0 || int(n) >= len(li.starts) {
		return nil, false
	}
	s := li.starts[n]
	e := len(li.content)
	if int(n)+1 < len(li.starts) {
		e = li.starts[n+1] - 1
	}
	b := li.content[s:e]
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return b, true
}

// pos converts one position; ok is false when it lies outside the content.
func (li *lineIndex) pos(line, char int32) (uint32, uint32, bool) {
	if li.content == nil {
		return uint32(line) + 1, uint32(char) + 1, true
	}
	text, ok := li.line(line)
	if !ok {
		// The end of a range may sit just past the last line.
		if int(line) == len(li.starts) && char == 0 {
			return uint32(line) + 1, 1, true
		}
		return uint32(line) + 1, uint32(char) + 1, false
	}
	if li.unit == 8 || isASCII(text) {
		return uint32(line) + 1, uint32(char) + 1, int(char) <= len(text)
	}
	off, ok := byteOffset(text, int(char), li.unit)
	return uint32(line) + 1, uint32(off) + 1, ok
}

// byteOffset finds the byte offset of the n-th code unit of a line.
func byteOffset(text []byte, n, unit int) (int, bool) {
	units := 0
	for i := 0; i < len(text); {
		if units >= n {
			return i, units == n
		}
		r, size := utf8.DecodeRune(text[i:])
		if unit == 16 {
			if k := utf16.RuneLen(r); k > 0 {
				units += k
			} else {
				units++
			}
		} else {
			units++
		}
		i += size
	}
	return len(text), units == n
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// hasName reports whether an occurrence spans exactly name on one line (true
// when name is empty: nothing to check).
func (li *lineIndex) hasName(o Occ, name string) bool {
	if name == "" || o.EndLine != o.Line || o.EndCol == o.Col {
		return true // nothing to check; empty ranges mark a whole module (scip-python)
	}
	text, ok := li.line(int32(o.Line) - 1)
	if !ok {
		return false
	}
	s, e := int(o.Col)-1, int(o.EndCol)-1
	if s < 0 || e > len(text) || s > e {
		return false
	}
	got := string(text[s:e])
	// Some indexers span a definition's whole name token, which may carry
	// quotes or a sigil (string-named members, private #names), or suffix a
	// name with digits to tell same-named members apart (scip-typescript).
	return got == name || strings.Trim(got, `"'#$`+"`") == name || strings.TrimRight(name, "0123456789") == got
}

// isIdentifier reports whether s is a plain identifier.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || r >= 0x80 && (r != utf8.RuneError):
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// lastDescriptorName is the name of a symbol's last descriptor ("Host" for
// ".../rest`/Config#Host."), "" when it cannot be parsed.
func lastDescriptorName(symbol string) string {
	s, err := scip.ParseSymbol(symbol)
	if err != nil || len(s.Descriptors) == 0 {
		return ""
	}
	return s.Descriptors[len(s.Descriptors)-1].Name
}
