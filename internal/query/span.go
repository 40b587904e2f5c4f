package query

import "github.com/cairnhq/cairn/internal/protocol"

// Span is the whole definition of the symbol (for a symbol without
// definition facts, its name's location): what history and blame of a
// symbol look at.
func (r *Resolved) Span() protocol.Location {
	if r.Def != nil {
		return spanLoc(r.File.Path, r.Def.Span)
	}
	return r.Ref().Location
}
