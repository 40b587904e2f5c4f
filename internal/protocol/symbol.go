package protocol

import (
	"fmt"
	"strconv"
	"strings"
)

// SymbolID names a definition across edits: "sym_" and the 16 lowercase hex
// digits of its 64-bit identity hash. The hash leaves positions out, so
// moving lines or reformatting keeps the id (DESIGN §5, Identity). On the
// wire it is the plain string.
type SymbolID string

// NewSymbolID formats an identity hash as a symbol id.
func NewSymbolID(hash int64) SymbolID { return SymbolID(fmt.Sprintf("sym_%016x", uint64(hash))) }

// ParseSymbolID reads s as a symbol id; ok is false for anything else (a
// name, a path, a SCIP symbol), so callers that take "a name or an id" can
// tell them apart.
func ParseSymbolID(s string) (id SymbolID, ok bool) {
	if _, ok := SymbolID(s).Hash(); !ok {
		return "", false
	}
	return SymbolID(s), true
}

// Hash is the identity hash the id encodes; ok is false when the id is not
// sym_<16 hex>.
func (id SymbolID) Hash() (int64, bool) {
	hex, found := strings.CutPrefix(string(id), "sym_")
	if !found || len(hex) != 16 {
		return 0, false
	}
	v, err := strconv.ParseUint(hex, 16, 64)
	if err != nil {
		return 0, false
	}
	return int64(v), true
}
