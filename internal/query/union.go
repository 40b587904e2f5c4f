package query

import (
	"context"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/store"
)

// A member called on a value whose declared type is a union (x: A | B,
// recorded by the extractor as Local.Type "A|B") may be the member of any
// of the union's types: each member type's method is a candidate, and the
// same-named methods of other types are not. Which one runs depends on the
// value, so none is guessed.

// unionMembers narrows the symbols named name to the members of the types
// of the union that qualifies reference ri of a file, when it is one: nil
// (and no error) when the qualifier is not a local with a union type, or no
// symbol is a member of one of its types.
func unionMembers(facts *lang.Facts, ri int, rows []store.SymbolRow) (types []string, out []store.SymbolRow) {
	r := facts.Refs[ri]
	if r.Shape != lang.QualIdent {
		return nil, nil
	}
	q := facts.Names[r.Qualifier]
	// the qualifier's own reference: the name just before the member
	for j := ri - 1; j >= 0 && j >= ri-4; j-- {
		qr := facts.Refs[j]
		if qr.Name != r.Qualifier || qr.Pos.Line != r.Pos.Line || int(qr.Pos.Col)+len(q) >= int(r.Pos.Col) || qr.BindLocal < 0 {
			continue
		}
		typ := facts.Locals[qr.BindLocal].Type
		if !strings.Contains(typ, "|") {
			return nil, nil
		}
		types = strings.Split(typ, "|")
		break
	}
	if types == nil {
		return nil, nil
	}
	name := facts.Names[r.Name]
	for _, row := range rows {
		for _, t := range types {
			if hasSuffixAtBoundary(row.QName, lastSegment(t)+"."+name) {
				out = append(out, row)
				break
			}
		}
	}
	return types, out
}

// unionAnswer answers a member of a union-typed value: the one candidate,
// or AMBIGUOUS_SYMBOL with each member type's.
func (e *Engine) unionAnswer(ctx context.Context, name string, types []string, rows []store.SymbolRow) (*Resolved, error) {
	if len(rows) == 1 {
		return e.Load(ctx, rows[0])
	}
	return nil, e.ambiguousAmong(ctx, rows, map[string]any{"total": len(rows), "union": types},
		"%q is called on a value of type %s: the method of each type is a candidate", name, strings.Join(types, " | "))
}
