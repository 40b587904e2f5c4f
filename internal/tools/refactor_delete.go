package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/refactor"
)

// DeleteIn are the arguments of refactor_delete.
type DeleteIn struct {
	Symbol string    `json:"symbol,omitempty" jsonschema:"the symbol to delete: id, qualified name, path#Name or unique suffix"`
	At     *Position `json:"at,omitempty" jsonschema:"a position instead of a name"`
	Force  bool      `json:"force,omitempty" jsonschema:"delete it although references remain (they will break)"`
	ApplyNow
	Base
}

func init() {
	Register(Tool{
		Name: "refactor_delete", Group: "edit", FreshIfPossible: true,
		Summary:  "Plan deleting a symbol's definition (with its doc comment); refused while references remain, listing them, unless force. Returns a refactor_id and a status, as refactor_rename.",
		Doc:      "References are those refs_find reports, anchored ones included (as possible references). The definition's whole lines go, with the comment lines and decorators right above it; a definition sharing its lines with other code loses only its span.",
		When:     []string{"removing dead code: a function, type or constant nothing uses"},
		WhenNot:  []string{"deleting files: write_source with action delete"},
		Examples: []string{`{"symbol": "util.go#oldHelper"}`, `{"symbol": "pkg.Legacy", "force": true}`},
	}, refactorDelete)
}

func refactorDelete(ctx context.Context, c *Call, in DeleteIn) (*PlanOut, error) {
	r, err := c.refactorTarget(ctx, in.Symbol, in.At)
	if err != nil {
		return nil, err
	}
	p, err := c.refactorEnv().Delete(ctx, refactor.DeleteRequest{Symbol: r, Force: in.Force})
	if err != nil {
		return nil, err
	}
	return c.planned(ctx, p, "delete "+p.Symbol.QName, in.ApplyNow)
}
