package tools

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/refactor"
)

// ApplyIn are the arguments of refactor_apply.
type ApplyIn struct {
	RefactorID     string   `json:"refactor_id" jsonschema:"the plan's id"`
	Groups         []string `json:"groups,omitempty" jsonschema:"the candidate groups (ids) that do refer to the symbol: applied with the certain edits; the others are left out"`
	ForceSyntactic bool     `json:"force_syntactic,omitempty" jsonschema:"apply only the certain edits of a needs_decision plan; its groups are listed for review"`
	Verify         string   `json:"verify,omitempty" jsonschema:"build: prove the result builds before writing (go build -overlay and go vet, tsc --noEmit, py_compile); none: do not; default build where the toolchain is installed"`
	DryRun         bool     `json:"dry_run,omitempty" jsonschema:"check, verify and return the delta and diff without writing"`
	WorkspaceID    string   `json:"workspace_id,omitempty" jsonschema:"apply into this workspace's overlay instead of the files (not verified; a file the workspace holds in another version conflicts)"`
	Base
}

func init() {
	Register(Tool{
		Name: "refactor_apply", Group: "edit",
		Summary: "Apply a refactor plan as one all-or-nothing batch, after re-checking the mutation gate and every edit's anchor against the index and the disk, and (verify: build) proving the result builds; groups selects the candidate groups of a needs_decision plan.",
		Doc: "Refused with PRECONDITION_FAILED (exit 7): an expired plan (30 minutes, or the index changed for one of its files: plan expired), a file changed on disk since the plan (blocked), a needs_decision plan without groups or force_syntactic, and a change that does not build (the compiler's diagnostics, each mapped to the edit nearest to it; nothing is written). " +
			"Errors the tree had before the change do not refuse it. Verify time is reported apart (meta.timing_ms.verify). " +
			"The choice of groups is remembered for the same ambiguity and offered by the next plan that meets it. edit_undo reverts the batch (a git mv's index entry stays: git reset -- PATHS).",
		When:     []string{"after refactor_rename, refactor_move or refactor_delete, when the plan is ready or you have decided its groups"},
		WhenNot:  []string{"a blocked plan: refresh the index and plan again"},
		Examples: []string{`{"refactor_id": "rf_20260101T120000ab12cd34"}`, `{"refactor_id": "rf_20260101T120000ab12cd34", "groups": ["g1"], "verify": "build"}`},
	}, refactorApply)
}

func refactorApply(ctx context.Context, c *Call, in ApplyIn) (*refactor.Applied, error) {
	if err := checkVerify(in.Verify); err != nil {
		return nil, err
	}
	res, err := c.applyPlan(ctx, refactor.ApplyRequest{ID: in.RefactorID, Groups: in.Groups, ForceSyntactic: in.ForceSyntactic, Verify: in.Verify, DryRun: in.DryRun}, in.WorkspaceID)
	if err != nil {
		return nil, err
	}
	verified := "not verified"
	if res.Verify != nil && res.Verify.Mode == refactor.VerifyBuild {
		verified = "verified: " + strings.Join(checksRan(res.Verify), ", ")
	}
	switch {
	case res.Write.DryRun:
		c.Answer("dry run of %s: %d files would change (%s); nothing written", res.ID, res.Write.FilesChanged, verified)
	case in.WorkspaceID != "":
		c.Answer("applied %s into workspace %s: %d edits, %d files changed in its overlay; the files on disk are unchanged", res.ID, in.WorkspaceID, res.Edits, res.Write.FilesChanged)
		c.Next("workspace_apply", map[string]any{"workspace_id": in.WorkspaceID}, "land the workspace's changes in the files")
	default:
		c.Answer("applied %s: %d edits, %d files changed (batch %s, %s)", res.ID, res.Edits, res.Write.FilesChanged, res.Write.Batch, verified)
		c.Next("edit_undo", map[string]any{}, "revert it")
	}
	if len(res.Review) > 0 {
		c.Warn("%d candidate groups were not applied and remain for review: see review", len(res.Review))
	}
	return res, nil
}

// msDuration turns milliseconds into a duration for meta timing.
func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

// verifyOf finds the verify report in a refusal.
func verifyOf(err error) *refactor.VerifyReport {
	var e *errs.Error
	if errors.As(err, &e) && e.Details != nil {
		if r, ok := e.Details["verify"].(*refactor.VerifyReport); ok {
			return r
		}
	}
	return nil
}
