package tools

import (
	"context"
	"fmt"
	"strings"
)

// PlanIn names a stored plan.
type PlanIn struct {
	RefactorID string `json:"refactor_id" jsonschema:"the plan's id (from refactor_rename, refactor_move or refactor_delete)"`
	Base
}

func init() {
	Register(Tool{
		Name: "refactor_inspect", Group: "edit",
		Summary:  "Show a stored refactor plan: its candidate groups with their edits and decision capsules, the witness packet (each file's freshness, certainty, hashes and layer) and the unified diff of its certain edits.",
		Doc:      "The plan is checked again against the index and the disk: an expired plan (30 minutes, or the index changed for one of its files) fails with PRECONDITION_FAILED; files changed on disk since are reported as blocked. The diff covers the certain edits; each group lists its own edits.",
		When:     []string{"before refactor_apply, to read what a plan will change", "deciding a needs_decision plan: the groups' capsules and exemplars"},
		WhenNot:  []string{"planning: refactor_rename, refactor_move, refactor_delete"},
		Examples: []string{`{"refactor_id": "rf_20260101T120000ab12cd34"}`},
	}, refactorInspect)
}

func refactorInspect(ctx context.Context, c *Call, in PlanIn) (*PlanOut, error) {
	p, blocked, res, err := c.refactorEnv().Inspect(ctx, in.RefactorID, c.mutator())
	if err != nil {
		return nil, err
	}
	out := &PlanOut{Plan: p}
	if res != nil {
		c.wrote(ctx, res) // a dry run: only bounds the diff
		out.Diff = res.Diff
	}
	if len(blocked) > 0 {
		var names []string
		for _, b := range blocked {
			names = append(names, b.Path+" ("+b.Freshness+")")
		}
		c.Warn("changed on disk since the plan, not reindexed: %s; refactor_apply will refuse it", strings.Join(names, ", "))
	}
	c.Answer("plan %s (%s, %s): %d edits in %d files, %d candidate groups, %d doc mentions; expires %s", p.ID, p.Op, p.Status,
		p.Counts.Edits, p.Counts.Files, p.Counts.Groups, p.Counts.Docs, p.Expires.Format("15:04:05"))
	c.Next("refactor_apply", map[string]any{"refactor_id": p.ID}, "apply it")
	c.Next("refactor_cancel", map[string]any{"refactor_id": p.ID}, "drop it")
	if len(p.Edits) > 500 {
		c.Truncated("edits", 500, len(p.Edits), fmt.Sprintf("the diff shows every edit (%d)", len(p.Edits)), "")
		cp := *p
		cp.Edits = cp.Edits[:500]
		out.Plan = &cp
	}
	return out, nil
}
