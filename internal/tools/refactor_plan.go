package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
	"github.com/cairnhq/cairn/internal/refactor"
)

// refactorEnv is the refactor planner over the call's snapshot.
func (c *Call) refactorEnv() *refactor.Env {
	return &refactor.Env{Paths: c.Env.Paths, Engine: c.Engine(), Snap: c.snap, Store: refactor.NewStore(c.Env.Paths.StateDir, nil, 0),
		Behind: c.fresh.Freshness == protocol.MayBeStale}
}

// planEdits bounds the edits a plan's answer lists; refactor_inspect
// pages the diff, and the stored plan keeps them all.
const planEdits = 100

// PlanOut is what the planning tools return: the plan, with its edit
// lists cut to a readable size (counts has the totals).
type PlanOut struct {
	*refactor.Plan
	// Diff is the unified diff of the certain edits (refactor_inspect).
	Diff string `json:"diff,omitempty"`
	// Applied is set when apply: true applied a ready plan at once.
	Applied *refactor.Applied `json:"applied,omitempty"`
}

// ApplyNow are the arguments of a planning tool that applies a ready plan
// at once when asked.
type ApplyNow struct {
	Apply       bool   `json:"apply,omitempty" jsonschema:"apply at once when the plan is ready"`
	Verify      string `json:"verify,omitempty" jsonschema:"with apply: build or none; default build where the toolchain is installed"`
	WorkspaceID string `json:"workspace_id,omitempty" jsonschema:"with apply: apply into this workspace's overlay instead of the files"`
}

// refactorTarget resolves the symbol a refactoring is to change, once the
// mutation gate lets edits through.
func (c *Call) refactorTarget(ctx context.Context, name string, at *Position) (*query.Resolved, error) {
	if err := c.editsAllowed(); err != nil {
		return nil, err
	}
	return resolveArg(ctx, c, name, at)
}

// checkVerify refuses a verify argument other than build or none.
func checkVerify(v string) error {
	if v != "" && v != refactor.VerifyBuild && v != refactor.VerifyNone {
		return mustBeOneOf("verify", v, "build", "none")
	}
	return nil
}

// planned finishes a planning tool: it cuts the lists, says what the plan
// is and what to do next, and applies a ready plan when asked.
func (c *Call) planned(ctx context.Context, p *refactor.Plan, what string, now ApplyNow) (*PlanOut, error) {
	apply, verify, workspaceID := now.Apply, now.Verify, now.WorkspaceID
	if err := checkVerify(verify); err != nil {
		return nil, err
	}
	out := &PlanOut{Plan: p}
	c.warnings = append(c.warnings, p.Warnings...)
	if len(p.Witness.Files) > 0 {
		layers := map[string]bool{}
		for _, f := range p.Witness.Files {
			layers[f.Layer] = true
		}
		if layers["semantic"] {
			c.Layers("syntactic", "semantic")
		}
	}
	if apply && p.Status == refactor.StatusReady {
		applied, err := c.applyPlan(ctx, refactor.ApplyRequest{ID: p.ID, Verify: verify}, workspaceID)
		if err != nil {
			return nil, err
		}
		out.Applied = applied
		c.Answer("%s: applied %d edits in %d files (batch %s)", what, applied.Edits, applied.Write.FilesChanged, applied.Write.Batch)
		if workspaceID != "" {
			c.Answer("%s: applied %d edits in %d files into workspace %s; the files on disk are unchanged", what, applied.Edits, applied.Write.FilesChanged, workspaceID)
		}
		c.trimPlan(out)
		return out, nil
	}
	c.trimPlan(out)
	id := map[string]any{"refactor_id": p.ID}
	if workspaceID != "" {
		id["workspace_id"] = workspaceID
		if apply {
			c.Warn("the plan is not ready, so nothing was applied into workspace %s; refactor_apply with workspace_id applies it there", workspaceID)
		}
	}
	switch p.Status {
	case refactor.StatusReady:
		c.Answer("plan %s: %s: %d edits in %d files, ready to apply", p.ID, what, p.Counts.Edits, p.Counts.Files)
		c.Next("refactor_apply", id, "apply it (verified to build where the toolchain is installed)")
		c.Next("refactor_inspect", id, "read the diff first")
	case refactor.StatusNeedsDecision:
		c.Answer("plan %s: %s: %d certain edits in %d files; %d candidate groups (%d uses) need a decision", p.ID, what, p.Counts.Edits, p.Counts.Files, p.Counts.Groups, p.Counts.GroupEdits)
		ids := make([]string, 0, len(p.Groups))
		for _, g := range p.Groups {
			ids = append(ids, g.ID)
		}
		if p.Offered != nil {
			c.Warn("the same ambiguity was decided before (plan %s, %s): it selected groups [%s]; pass them to refactor_apply to decide the same way", p.Offered.PlanID, p.Offered.DecidedAt.Format("2006-01-02 15:04"), strings.Join(p.Offered.Groups, ", "))
			c.Next("refactor_apply", map[string]any{"refactor_id": p.ID, "groups": p.Offered.Groups}, "decide as before")
		}
		c.Next("refactor_inspect", id, "read the groups' capsules and exemplars")
		c.Next("refactor_apply", map[string]any{"refactor_id": p.ID, "groups": ids}, "apply with the groups that do refer to the symbol (drop the others)")
		c.Next("refactor_apply", map[string]any{"refactor_id": p.ID, "force_syntactic": true}, "apply only the certain edits; the groups stay for review")
	case refactor.StatusBlocked:
		c.Answer("plan %s: %s: blocked: %s", p.ID, what, p.Reason)
		for _, r := range p.Witness.Refresh {
			c.Next(r.Tool, r.Args, r.Why)
		}
	}
	if p.Docs.Total > 0 && !p.Docs.Included {
		c.Warn("%d mentions in comments, strings or docs are not edited (docs.hits, with confidence); plan with include_docs: true to edit the high and medium ones", p.Docs.Total)
	}
	return out, nil
}

// trimPlan cuts the plan's lists for the answer.
func (c *Call) trimPlan(out *PlanOut) {
	cp := *out.Plan
	if n := len(cp.Edits); n > planEdits {
		cp.Edits = cp.Edits[:planEdits]
		c.Truncated("edits", planEdits, n, "refactor_inspect shows every edit as a diff", "")
	}
	groups := make([]refactor.Group, len(cp.Groups))
	for i, g := range cp.Groups {
		if len(g.Edits) > 20 {
			c.Truncated(fmt.Sprintf("groups.%d.edits", i), 20, len(g.Edits), "exemplars; refactor_inspect shows every edit", "")
			g.Edits = g.Edits[:20]
		}
		groups[i] = g
	}
	cp.Groups = groups
	if n := len(cp.Docs.Hits); n > 50 {
		cp.Docs.Hits = cp.Docs.Hits[:50]
		c.Truncated("docs.hits", 50, cp.Docs.Total, "the first mentions", "")
	}
	out.Plan = &cp
}

// applyPlan applies a plan through the call's mutation engine and brings
// the index up to date.
func (c *Call) applyPlan(ctx context.Context, req refactor.ApplyRequest, workspaceID string) (*refactor.Applied, error) {
	if err := c.editsAllowed(); err != nil {
		return nil, err
	}
	if workspaceID != "" {
		v, err := c.loadWorkspace(workspaceID)
		if err != nil {
			return nil, err
		}
		req.Overlay = v
	}
	env := c.refactorEnv()
	t0 := time.Now()
	res, err := env.Apply(ctx, req, c.mutator())
	c.timing("apply", time.Since(t0))
	if res != nil && res.Verify != nil {
		c.timing("verify", msDuration(res.Verify.MS))
	}
	if err != nil {
		if rep := verifyOf(err); rep != nil {
			c.timing("verify", msDuration(rep.MS))
		}
		return nil, err
	}
	c.warnings = append(c.warnings, res.Warnings...)
	if res.Verify != nil {
		c.warnings = append(c.warnings, res.Verify.Warnings...)
	}
	t0 = time.Now()
	c.wrote(ctx, res.Write)
	c.timing("index", time.Since(t0))
	if workspaceID != "" && res.Applied {
		if _, err := c.keepStaged(workspaceID, res.Write); err != nil {
			return nil, err
		}
	}
	return res, nil
}
