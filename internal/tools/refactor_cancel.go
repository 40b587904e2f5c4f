package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/refactor"
)

// CancelOut says which plan was dropped.
type CancelOut struct {
	RefactorID string `json:"refactor_id"`
	Cancelled  bool   `json:"cancelled"`
}

func init() {
	Register(Tool{
		Name: "refactor_cancel", Group: "edit",
		Summary:  "Drop a stored refactor plan without applying it.",
		Doc:      "Plans also expire by themselves (30 minutes, or when the index changes for a file they touch); cancelling frees the id at once. Nothing in the working tree changes.",
		When:     []string{"a plan you will not apply"},
		WhenNot:  []string{"undoing an applied plan: edit_undo"},
		Examples: []string{`{"refactor_id": "rf_20260101T120000ab12cd34"}`},
	}, refactorCancel)
}

func refactorCancel(ctx context.Context, c *Call, in PlanIn) (*CancelOut, error) {
	st := refactor.NewStore(c.Env.Paths.StateDir, nil, 0)
	if _, err := st.Load(in.RefactorID); err != nil && !errs.Is(err, errs.Precondition) {
		return nil, err
	}
	st.Remove(in.RefactorID)
	c.Answer("cancelled %s", in.RefactorID)
	return &CancelOut{RefactorID: in.RefactorID, Cancelled: true}, nil
}
