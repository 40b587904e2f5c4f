package semantic

import (
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
)

// checkFraming walks the top-level fields of a SCIP index (metadata,
// documents, external symbols: each a tag, a length and that many bytes)
// and refuses one whose length runs past the end of the file. The
// streaming parser allocates a field's declared length before it reads the
// field, so a few corrupt bytes declaring gigabytes would take the process
// down (a 266-byte file asked for 25 GB). A field it cannot frame (an
// unknown number or wire type) ends the walk: the parser refuses it before
// reading anything after it.
func checkFraming(r io.ReaderAt, size int64) error {
	var head [2 * binaryMaxVarint]byte
	for pos := int64(0); pos < size; {
		n, err := r.ReadAt(head[:], pos)
		if n == 0 && err != nil {
			return fmt.Errorf("byte %d: %w", pos, err)
		}
		b := head[:n]
		num, typ, tagLen := protowire.ConsumeTag(b)
		if tagLen < 0 || num < 1 || num > 3 || typ != protowire.BytesType {
			return nil
		}
		length, lenLen := protowire.ConsumeVarint(b[tagLen:])
		if lenLen < 0 {
			return fmt.Errorf("byte %d: the length of field %d is cut short", pos, num)
		}
		start := pos + int64(tagLen+lenLen)
		if length > uint64(size-start) {
			return fmt.Errorf("byte %d: field %d declares %d bytes, but only %d follow", pos, num, length, size-start)
		}
		pos = start + int64(length)
	}
	return nil
}

// binaryMaxVarint is the longest encoding of a 64-bit varint.
const binaryMaxVarint = 10
