package query

import (
	"context"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/store"
)

// DefSpan is a symbol of a file with its whole definition's span.
type DefSpan struct {
	SymbolRef
	Span protocol.Location `json:"span"`
}

// FileDefs lists the symbols defined in an indexed file, in definition
// order (nil when the file is not indexed).
func (e *Engine) FileDefs(ctx context.Context, path string) ([]DefSpan, error) {
	var rows []store.SymbolRow
	if of, held := e.ovFile(path); held {
		d, err := e.derive(ctx, of)
		if err != nil {
			return nil, err
		}
		rows = d.Rows
	} else {
		f, ok, err := e.Store().FileByPath(ctx, path)
		if err != nil || !ok {
			return nil, err
		}
		if rows, err = e.Store().SymbolsOfFile(ctx, f.ID); err != nil {
			return nil, err
		}
	}
	return loadEach(ctx, e, rows, func(r *Resolved) DefSpan { return DefSpan{SymbolRef: r.Ref(), Span: r.Span()} })
}
