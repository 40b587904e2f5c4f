package query

import "github.com/cairnhq/cairn/internal/errs"

// Bounds on what a request may ask for. A longer text search is not a
// search anyone means, and a longer name matches nothing the index stores
// (the extractor bounds stored names); both would only cost time (a 1 MB
// LIKE pattern takes seconds and then fails in SQLite) and echo megabytes
// back.
const (
	// MaxQueryBytes bounds a lexical query (literal or regular expression).
	MaxQueryBytes = 4096
	// MaxNameBytes bounds a symbol name or a name query (symbol and
	// definitions modes, a symbol argument).
	MaxNameBytes = 1024
)

// Page cuts the page of items that starts at offset and holds at most
// limit of them; more says items follow it.
func Page[T any](items []T, offset, limit int) (page []T, more bool) {
	if offset < len(items) {
		page = items[offset:]
	}
	if len(page) > limit {
		page, more = page[:limit], true
	}
	return page, more
}

// checkName refuses a symbol name longer than MaxNameBytes.
func checkName(what, name string) error {
	if len(name) > MaxNameBytes {
		return errs.TooLong(what, name, MaxNameBytes)
	}
	return nil
}
