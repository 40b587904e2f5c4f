package store

import (
	"encoding/binary"
	"fmt"

	"github.com/zeebo/xxh3"
)

// SQLite checks the structure of its pages but not the values in them: a
// flipped byte inside a packed record reads back as a different, plausible
// record. Every packed record the store returns (facts, link data, surfaces,
// semantic occurrences) therefore carries a checksum that is verified on each
// read; a mismatch is reported as damage, never returned as data.

const sumLen = 8

// withSum returns b followed by its checksum. Empty records stay empty (an
// empty record carries nothing to damage).
func withSum(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	out := make([]byte, len(b)+sumLen)
	copy(out, b)
	binary.LittleEndian.PutUint64(out[len(b):], xxh3.Hash(b))
	return out
}

// checkSum verifies and strips the checksum withSum added. what names the
// record for the error.
func checkSum(db, what string, b []byte) ([]byte, error) {
	if len(b) == 0 {
		return b, nil
	}
	if len(b) < sumLen {
		return nil, damaged(db, "%s is shorter than its checksum", what)
	}
	body := b[:len(b)-sumLen]
	if binary.LittleEndian.Uint64(b[len(body):]) != xxh3.Hash(body) {
		return nil, damaged(db, "%s does not match its checksum", what)
	}
	return body, nil
}

// textSum is the checksum of a blob's searchable text, kept in the blob row
// (the text lives in the full-text table, which stores it as given).
func textSum(text []byte) int64 {
	if text == nil {
		return 0
	}
	return int64(xxh3.Hash(text) | 1) // never 0: 0 means "no text"
}

// blobRowSum covers the scalar columns of a blob row that answers depend on.
func blobRowSum(hash []byte, language string, xver int, size int64, status BlobStatus, tsum int64) int64 {
	var buf []byte
	buf = append(buf, hash...)
	buf = append(buf, language...)
	buf = binary.LittleEndian.AppendUint64(buf, uint64(xver))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(size))
	buf = append(buf, byte(status))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(tsum))
	return int64(xxh3.Hash(buf))
}

// Damage says that one of the two databases holds data that cannot be
// trusted: SQLite found it malformed, a checksum did not match, or the file
// was changed by something other than Cairn.
type Damage struct {
	DB     string // "main" (the worktree index) or "blobs" (the shared blob store)
	Reason string
	// Replaced: the file at the path is no longer the one this process
	// opened (another process rebuilt it); reopening is the whole repair.
	Replaced bool
	// Suspect: only the seal says the file changed outside Cairn; its
	// content may well be intact (Verify tells).
	Suspect bool
}

func (d *Damage) Error() string {
	return fmt.Sprintf("store: the %s is damaged: %s", d.Label(), d.Reason)
}

// Label names the damaged database for people: the worktree index or the
// shared blob store.
func (d *Damage) Label() string {
	if d.DB == "blobs" {
		return "shared blob store"
	}
	return "worktree index"
}

func damaged(db, format string, args ...any) *Damage {
	return &Damage{DB: db, Reason: fmt.Sprintf(format, args...)}
}
