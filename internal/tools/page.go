package tools

import "context"

// pager pages one list of a tool's answer with a cursor. Every paged tool
// does the same three things: read the offset its cursor asks for, register
// the page it returns (for the fitter, fit.go), and hand out the cursor of
// the next page when more items follow.
type pager struct {
	c   *Call
	key []any // the query: the arguments that define the result set
	// offset is where the requested page starts.
	offset int
}

// pager reads the call's cursor for the query identified by key.
func (c *Call) pager(ctx context.Context, key ...any) (*pager, error) {
	offset, err := c.Offset(ctx, key)
	if err != nil {
		return nil, err
	}
	return &pager{c: c, key: key, offset: offset}, nil
}

// done registers the list at field as the page that ends at offset next, out
// of total items (0 when unknown), returned of them in the answer; when more
// follow, it records the list as cut by the limit, with the cursor of the
// next page.
func (p *pager) done(ctx context.Context, field string, returned, next, total int, more bool) {
	p.c.Paged(field, p.key, next, total)
	if more {
		p.c.Truncated(field, returned, total, "limit", p.cursor(ctx, next))
	}
}

// cursor is the cursor of the page that starts at offset next; it is made
// even when the call's deadline has passed.
func (p *pager) cursor(ctx context.Context, next int) string {
	return p.c.Cursor(context.WithoutCancel(ctx), p.key, next)
}
