// Package semantic owns Cairn's semantic layer: it imports SCIP indexes
// (produced by compiler-grade indexers such as scip-go, scip-typescript and
// scip-python, or supplied by the user) into the store, maps SCIP symbols to
// Cairn symbol ids, reports how fresh an imported index is, and runs indexer
// jobs in the background. It never formats responses and runs no SQL itself
// (store does); queries read what it wrote through query.
package semantic

import (
	"strings"

	"github.com/zeebo/xxh3"
)

// Roles of an occurrence (the bits of scip.SymbolRole).
const (
	RoleDefinition = 1
	RoleImport     = 2
	RoleWrite      = 4
	RoleRead       = 8
	RoleGenerated  = 16
	RoleTest       = 32
)

// RoleName names the main role of an occurrence as Cairn's reference kinds do.
func RoleName(roles int32) string {
	switch {
	case roles&RoleDefinition != 0:
		return "definition"
	case roles&RoleImport != 0:
		return "import"
	case roles&RoleWrite != 0:
		return "write"
	}
	return "reference"
}

// Relationship kinds (bits of store.SemRelRow.Kinds).
const (
	RelImplementation = 1
	RelTypeDefinition = 2
	RelReference      = 4
	RelDefinition     = 8
)

// RelNames lists the relationship kinds set in bits.
func RelNames(kinds uint8) []string {
	var out []string
	for _, k := range []struct {
		bit  uint8
		name string
	}{{RelImplementation, "implementation"}, {RelTypeDefinition, "type_definition"}, {RelReference, "reference"}, {RelDefinition, "definition"}} {
		if kinds&k.bit != 0 {
			out = append(out, k.name)
		}
	}
	return out
}

// DocState says whether a document's facts may be used.
type DocState uint8

// Document states (stored; append-only).
const (
	DocUsable            DocState = iota // the file is what the indexer saw
	DocChangedDuringRun                  // the file changed while the indexer ran
	DocNewerThanIndex                    // the file was modified after the .scip was written
	DocMismatch                          // definitions are not where the index says: other content
	DocMissing                           // the file is not in the repository
	DocOutsideRepository                 // the document lies outside the repository
)

var docStateNames = [...]string{"usable", "changed_during_indexing", "modified_after_index", "content_mismatch", "missing", "outside_repository"}

func (s DocState) String() string {
	if int(s) < len(docStateNames) {
		return docStateNames[s]
	}
	return "unknown"
}

// SymbolID is the 64-bit id of a SCIP symbol string (its hash). Collisions
// are checked on lookup (the string is stored beside it).
func SymbolID(symbol string) int64 {
	id := int64(xxh3.HashString(symbol))
	if id == 0 {
		id = 1
	}
	return id
}

// IsLocal reports whether a SCIP symbol is document-local ("local 12").
func IsLocal(symbol string) bool { return strings.HasPrefix(symbol, "local ") }

// LooksLikeSymbol reports whether a name is a SCIP symbol string: a scheme,
// manager, package name and version, then descriptors, separated by single
// spaces ("scip-go gomod k8s.io/client-go . `k8s.io/client-go/rest`/Config#").
func LooksLikeSymbol(s string) bool {
	if IsLocal(s) {
		return false
	}
	fields := 0
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			if i+1 < len(s) && s[i+1] == ' ' { // an escaped space inside a name
				i++
				continue
			}
			fields++
		}
	}
	return fields >= 4 && !strings.ContainsAny(s[:strings.IndexByte(s, ' ')], "/#.`")
}
