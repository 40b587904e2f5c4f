package refactor

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/mutate"
)

// ApplyRequest applies a stored plan.
type ApplyRequest struct {
	ID string
	// Groups are the candidate groups (ids) to apply with the certain edits.
	Groups []string
	// ForceSyntactic applies the certain edits of a needs_decision plan and
	// leaves its groups for review.
	ForceSyntactic bool
	// Verify is build or none; "" chooses build where the toolchains of the
	// plan's languages are installed.
	Verify string
	DryRun bool
	// Overlay, when set, receives the batch instead of the working tree (a
	// workspace): the plan's edits stage into it, planned against the
	// files the plan read, so a file the overlay holds in another version
	// conflicts. Nothing is verified (the compilers read the disk) and no
	// git index entry or directory changes.
	Overlay mutate.Overlay
}

// Applied is the outcome of refactor_apply.
type Applied struct {
	ID      string   `json:"refactor_id"`
	Op      string   `json:"op"`
	Applied bool     `json:"applied"`
	Groups  []string `json:"groups_applied"`
	// Review are the groups left out (not selected, or force_syntactic).
	Review []Group `json:"review"`
	Moves  []Move  `json:"moves,omitempty"`
	// Edits counts the edits written.
	Edits  int            `json:"edits"`
	Verify *VerifyReport  `json:"verify"`
	Write  *mutate.Result `json:"write"`
	// Decision is the signature the choice was cached under.
	Decision string   `json:"decision_cached,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// Apply re-checks a plan against the snapshot and the disk, verifies the
// result when asked and writes it as one batch through the mutation engine.
func (env *Env) Apply(ctx context.Context, req ApplyRequest, m *mutate.Engine) (*Applied, error) {
	p, err := env.Store.Load(req.ID)
	if err != nil {
		return nil, err
	}
	if p.Status == StatusBlocked {
		return nil, blockedErr(p, p.Witness.Files, "the plan was blocked when it was made")
	}
	selected, review, err := choose(p, req)
	if err != nil {
		return nil, err
	}
	blocked, err := env.recheck(ctx, p)
	if err != nil {
		return nil, err
	}
	if len(blocked) > 0 {
		return nil, blockedErr(p, blocked, "files changed on disk since the plan and the index does not hold their new content")
	}
	edits := append([]Edit{}, p.Edits...)
	for _, g := range selected {
		edits = append(edits, g.Edits...)
	}
	// Two groups may hold the same use (an anchored call of a method that
	// is also another method's reference).
	sortEdits(edits)
	edits = dedupEdits(edits)
	changes, fileEdits, err := env.contents(p, edits)
	if err != nil {
		return nil, err
	}
	out := &Applied{ID: p.ID, Op: p.Op, Groups: []string{}, Review: review, Moves: p.Moves, Edits: len(edits)}
	for _, g := range selected {
		out.Groups = append(out.Groups, g.ID)
	}
	mode, warn := req.Verify, ""
	switch {
	case req.Overlay != nil && mode == VerifyBuild:
		return nil, errs.E(errs.InvalidArgument, "verify build is not available for a refactor applied into a workspace: the compilers read the files on disk")
	case req.Overlay != nil:
		mode = VerifyNone
	case mode == "":
		mode, warn = DefaultVerify(env.Paths.Root, p.Languages)
	}
	if warn != "" {
		out.Warnings = append(out.Warnings, warn)
	}
	if mode == VerifyBuild {
		rep := Verify(ctx, VerifyRequest{Root: env.Paths.Root, Changes: changes})
		out.Verify = rep
		if !rep.OK {
			return nil, rep.Refusal()
		}
	} else {
		out.Verify = &VerifyReport{Mode: VerifyNone, OK: true, Checks: []VerifyCheck{}, Diagnostics: []Diagnostic{}, Warnings: []string{}}
	}
	res, err := m.Write(ctx, mutate.Request{Edits: fileEdits, DryRun: req.DryRun, Overlay: req.Overlay})
	if err != nil {
		return nil, err
	}
	out.Write, out.Applied = res, res.Applied
	if req.DryRun || !res.Applied {
		return out, nil
	}
	for _, mv := range p.Moves {
		if req.Overlay != nil {
			break
		}
		if mv.GitMV {
			if err := gitRecordMove(ctx, env.Paths.Root, mv.From, mv.To); err != nil {
				out.Warnings = append(out.Warnings, fmt.Sprintf("%s moved to %s, but git's index could not record the rename: %v", mv.From, mv.To, err))
			}
		}
		env.removeEmptyDirs(path.Dir(mv.From))
	}
	if len(p.Groups) > 0 && !req.ForceSyntactic {
		keys := make([]string, 0, len(selected))
		for _, g := range selected {
			keys = append(keys, g.Key)
		}
		env.Store.Decided(p.Signature, keys, p.ID)
		out.Decision = p.Signature
	}
	env.Store.Remove(p.ID)
	return out, nil
}

// choose splits a plan's groups into those to apply and those left for
// review, refusing a needs_decision plan applied without a choice.
func choose(p *Plan, req ApplyRequest) (selected, review []Group, err error) {
	want := map[string]bool{}
	for _, id := range req.Groups {
		want[id] = true
	}
	ids := make([]string, 0, len(p.Groups))
	for _, g := range p.Groups {
		ids = append(ids, g.ID)
		if want[g.ID] && !req.ForceSyntactic {
			selected = append(selected, g)
			delete(want, g.ID)
		} else {
			review = append(review, g)
			delete(want, g.ID)
		}
	}
	if len(want) > 0 {
		unknown := slices.Sorted(maps.Keys(want))
		return nil, nil, &errs.Error{Kind: errs.InvalidArgument, Msg: fmt.Sprintf("plan %s has no candidate group %s (it has: %s)", p.ID, strings.Join(unknown, ", "), orNone(ids))}
	}
	if req.ForceSyntactic && len(req.Groups) > 0 {
		return nil, nil, errs.E(errs.InvalidArgument, "force_syntactic applies the certain edits only: give it or groups, not both")
	}
	if len(p.Groups) > 0 && len(req.Groups) == 0 && !req.ForceSyntactic {
		details := map[string]any{"status": StatusNeedsDecision, "groups": ids, "refactor_id": p.ID}
		fixes := []string{fmt.Sprintf("cairn plan show %s", p.ID), fmt.Sprintf("cairn plan apply %s --groups %s", p.ID, ids[0]),
			fmt.Sprintf("cairn plan apply %s --force-syntactic", p.ID)}
		if p.Offered != nil {
			details["offered_decision"] = p.Offered
		}
		return nil, nil, &errs.Error{Kind: errs.Precondition, Details: details, Fixes: fixes,
			Msg: fmt.Sprintf("plan %s needs a decision: select the candidate groups that refer to the symbol (groups: [%s]), or force_syntactic to apply only the certain edits", p.ID, strings.Join(ids, ", "))}
	}
	if review == nil {
		review = []Group{}
	}
	return selected, review, nil
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// blockedErr is the refusal of a plan the gate blocks.
func blockedErr(p *Plan, files []FileCheck, why string) error {
	var names []string
	for _, f := range files {
		if !fresh(f.Freshness) {
			names = append(names, f.Path+" ("+f.Freshness+")")
		}
	}
	return &errs.Error{Kind: errs.Precondition,
		Msg:     fmt.Sprintf("plan %s is blocked: %s: %s", p.ID, why, strings.Join(names, ", ")),
		Details: map[string]any{"status": StatusBlocked, "refactor_id": p.ID, "files": files, "refresh": p.Witness.Refresh},
		Fixes:   []string{"cairn index", "then plan the refactor again"}}
}

// contents computes every changed file's new content from the disk (whose
// hash the plan recorded) and the mutation engine's edits for them.
func (env *Env) contents(p *Plan, edits []Edit) ([]Change, []mutate.FileEdit, error) {
	byPath := map[string][]Edit{}
	for _, e := range edits {
		byPath[e.Path] = append(byPath[e.Path], e)
	}
	shaOf := map[string]string{}
	for _, f := range p.Witness.Files {
		shaOf[f.Path] = f.SHA256
	}
	moved := map[string]string{}
	for _, mv := range p.Moves {
		moved[mv.From] = mv.To
		if _, ok := byPath[mv.From]; !ok {
			byPath[mv.From] = nil
		}
	}
	paths := slices.Sorted(maps.Keys(byPath))
	var changes []Change
	var fes []mutate.FileEdit
	for _, f := range paths {
		data, ok := env.read(f)
		if !ok {
			return nil, nil, expired(p.ID, f+" is gone")
		}
		if want := shaOf[f]; want != "" && mutate.SHA(data) != want {
			return nil, nil, expired(p.ID, f+" changed since the plan")
		}
		out, err := applyEdits(f, data, byPath[f])
		if err != nil {
			return nil, nil, err
		}
		content := string(out)
		if to, ok := moved[f]; ok {
			fes = append(fes, mutate.FileEdit{Path: f, Action: mutate.Delete, ExpectedSHA256: shaOf[f]},
				mutate.FileEdit{Path: to, Action: mutate.Create, Content: &content})
			changes = append(changes, Change{Path: f}, Change{Path: to, Content: out, Marks: marks(byPath[f], "")})
			continue
		}
		fes = append(fes, mutate.FileEdit{Path: f, Action: mutate.Update, Content: &content, ExpectedSHA256: shaOf[f]})
		changes = append(changes, Change{Path: f, Content: out, Marks: marks(byPath[f], "")})
	}
	return changes, fes, nil
}

// marks locate edits for mapping diagnostics back to them.
func marks(edits []Edit, label string) []Mark {
	out := make([]Mark, 0, len(edits))
	for _, e := range edits {
		l := label
		if l == "" {
			l = fmt.Sprintf("%s:%d:%d %s -> %s", e.Path, e.Line, e.Col, firstLine(e.Old, "(insert)"), firstLine(e.New, "(delete)"))
		}
		out = append(out, Mark{Label: l, Line: e.Line, EndLine: e.EndLine + strings.Count(e.New, "\n") - strings.Count(e.Old, "\n")})
	}
	return out
}

// removeEmptyDirs removes a directory a move emptied, and its parents
// while they are empty too (never the repository root).
func (env *Env) removeEmptyDirs(dir string) {
	for dir != "." && dir != "" && dir != "/" {
		if os.Remove(filepath.Join(env.Paths.Root, filepath.FromSlash(dir))) != nil {
			return
		}
		dir = path.Dir(dir)
	}
}

// Inspect re-reads a stored plan against the snapshot and the disk (an
// expired plan is an error; files changed since are returned as blocked)
// and renders the unified diff of its certain edits.
func (env *Env) Inspect(ctx context.Context, id string, m *mutate.Engine) (*Plan, []FileCheck, *mutate.Result, error) {
	p, err := env.Store.Load(id)
	if err != nil {
		return nil, nil, nil, err
	}
	blocked, err := env.recheck(ctx, p)
	if err != nil {
		return nil, nil, nil, err
	}
	if p.Status == StatusBlocked || len(blocked) > 0 {
		return p, blocked, nil, nil
	}
	_, fes, err := env.contents(p, p.Edits)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(fes) == 0 {
		return p, nil, nil, nil
	}
	res, err := m.Write(ctx, mutate.Request{Edits: fes, DryRun: true})
	if err != nil {
		return nil, nil, nil, err
	}
	return p, nil, res, nil
}
