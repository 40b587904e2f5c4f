package scan

import "bytes"

// BinarySniff is how much of the start of a file IsBinary looks at.
const BinarySniff = 8000

// IsBinary reports whether content looks binary: a NUL byte within its first
// BinarySniff bytes. The index does not parse such a file, the read tools
// refuse it and writes do not diff it.
func IsBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), BinarySniff)], 0) >= 0
}
