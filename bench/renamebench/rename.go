package renamebench

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Session is a Cairn server over the work copy with one layer setting.
type Session struct {
	Layer string // semantic (the SCIP index imported) or syntactic
	C     *Cairn
}

// Outcome is what became of one rename in one layer.
type Outcome struct {
	Symbol Symbol `json:"symbol"`
	Layer  string `json:"layer"`
	// Status: applied, needs_decision, blocked, refused (Cairn said no:
	// name taken, exportedness change, ...), wrong_symbol (the position
	// resolved to another symbol), error.
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// Oracle is the language server's error when it refused the rename.
	Oracle  string `json:"oracle_error,omitempty"`
	PlanMS  int64  `json:"plan_ms"`
	ApplyMS int64  `json:"apply_ms,omitempty"`
	Edits   int    `json:"edits"`
	Files   int    `json:"files"`
	Groups  int    `json:"groups,omitempty"`
	// SemanticEdits counts the plan's edits that came from the semantic
	// layer (of the edits the plan listed).
	SemanticEdits int          `json:"semantic_edits,omitempty"`
	Build         *Check       `json:"build,omitempty"`
	Diffs         []Difference `json:"diffs,omitempty"`
	// OracleBuild is the build of the oracle's own rename, made when
	// Cairn's code differs from it: a difference from a rename that does
	// not build is not a wrong rename of Cairn's.
	OracleBuild *Check `json:"oracle_build,omitempty"`
}

// WrongDiff reports whether Cairn's code differs from an oracle's rename
// that builds (or was not built).
func (o *Outcome) WrongDiff() bool {
	return o.CodeDiff() && (o.OracleBuild == nil || o.OracleBuild.OK)
}

// CodeDiff reports whether Cairn's result differs from the oracle's outside
// comments, in files the oracle sees.
func (o *Outcome) CodeDiff() bool {
	for _, d := range o.Diffs {
		if !d.CommentOnly && !d.Unseen {
			return true
		}
	}
	return false
}

// UnseenDiff reports whether Cairn's result differs from the oracle's only
// in code the oracle does not see (Go files outside the default build).
func (o *Outcome) UnseenDiff() bool {
	unseen := false
	for _, d := range o.Diffs {
		if !d.CommentOnly && !d.Unseen {
			return false
		}
		unseen = unseen || (d.Unseen && !d.CommentOnly)
	}
	return unseen
}

// RenameRun measures renames on one work copy.
type RenameRun struct {
	Lang     string // go, typescript
	Work     *Work
	Sessions []Session
	Oracle   map[string]OracleAnswer
	// Check builds the work copy after a rename: changed lists the files
	// Cairn changed and the oracle's.
	Check func(ctx context.Context, changed []string) Check
	Log   func(string, ...any)
	// checked remembers the checks by the changed files' contents: two
	// layers that made the same change share one build.
	checked map[string]Check
	// Progress is called after each symbol with the outcomes so far.
	Progress func([]Outcome)
}

// Rename measures one symbol in every session.
func (r *RenameRun) Rename(ctx context.Context, s Symbol) ([]Outcome, error) {
	oa := r.Oracle[key(s)]
	if err := r.Work.Restore(ctx); err != nil {
		return nil, err
	}
	want, err := oa.Contents(r.Work)
	if err != nil {
		return nil, fmt.Errorf("%s: the oracle's edits do not apply: %w", s, err)
	}
	var out []Outcome
	for _, ss := range r.Sessions {
		o, err := r.one(ctx, ss, s, oa, want)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
		if err := r.Work.Restore(ctx); err != nil {
			return nil, err
		}
		for _, other := range r.Sessions {
			if _, err := other.C.Call(ctx, "index_ensure", map[string]any{}); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func (r *RenameRun) one(ctx context.Context, ss Session, s Symbol, oa OracleAnswer, want Contents) (Outcome, error) {
	o := Outcome{Symbol: s, Layer: ss.Layer, Oracle: oa.Err}
	env, err := ss.C.Call(ctx, "refactor_rename", map[string]any{
		"at": map[string]any{"path": s.Path, "line": s.Line, "col": s.Col}, "new_name": s.New,
		// A rename that changes an interface's method set builds the
		// code first, which on a loaded machine outlasts the default
		// deadline.
		"timeout_ms": 300000})
	if err != nil {
		return o, err
	}
	o.PlanMS = env.Wall.Milliseconds()
	if env.Error != nil {
		o.Status, o.Reason = "refused", env.Reason()+": "+env.Error.Message
		if env.Error.Code == "NOT_FOUND" || env.Error.Code == "AMBIGUOUS" {
			o.Status = "not_resolved"
		}
		return o, nil
	}
	p, err := DecodePlan(env)
	if err != nil {
		return o, err
	}
	o.Edits, o.Files, o.Groups = p.Counts.Edits, p.Counts.Files, p.Counts.Groups
	for _, e := range p.Edits {
		if e.Layer == "semantic" {
			o.SemanticEdits++
		}
	}
	loc := p.Symbol.Location
	if loc.Path != s.Path || loc.Line != s.Line || loc.Col != s.Col {
		o.Status = "wrong_symbol"
		o.Reason = fmt.Sprintf("resolved to %s at %s:%d:%d", p.Symbol.QName, loc.Path, loc.Line, loc.Col)
		ss.C.Call(ctx, "refactor_cancel", map[string]any{"refactor_id": p.ID})
		return o, nil
	}
	if p.Status != "ready" {
		o.Status, o.Reason = p.Status, p.Reason
		ss.C.Call(ctx, "refactor_cancel", map[string]any{"refactor_id": p.ID})
		return o, nil
	}
	env, err = ss.C.Call(ctx, "refactor_apply", map[string]any{"refactor_id": p.ID, "verify": "none"})
	if err != nil {
		return o, err
	}
	o.ApplyMS = env.Wall.Milliseconds()
	if env.Error != nil {
		o.Status, o.Reason = "error", env.Reason()+": "+env.Error.Message
		return o, nil
	}
	o.Status = "applied"
	got, gone, err := r.Work.Changed(ctx)
	if err != nil {
		return o, err
	}
	for _, g := range gone {
		got[g] = ""
	}
	o.Diffs = Compare(want, got, r.Work.Orig, r.Lang)
	if oa.Err != "" {
		o.Diffs = nil // the oracle refused: only the build can judge
	}
	changed := map[string]bool{}
	for p := range got {
		changed[p] = true
	}
	for p := range want {
		changed[p] = true
	}
	list := make([]string, 0, len(changed))
	for p := range changed {
		list = append(list, p)
	}
	sort.Strings(list)
	h := sha256.New()
	for _, p := range list {
		fmt.Fprintf(h, "%s\x00%d\x00%s\x00", p, len(got[p]), got[p])
	}
	c := r.check(ctx, string(h.Sum(nil)), list)
	o.Build = &c
	if o.CodeDiff() {
		// Cairn's rename differs: build the oracle's in its place.
		if err := r.Work.Restore(ctx); err != nil {
			return o, err
		}
		h := sha256.New()
		for _, p := range list {
			fmt.Fprintf(h, "oracle\x00%s\x00%d\x00%s\x00", p, len(want[p]), want[p])
			if w, ok := want[p]; ok {
				if err := os.WriteFile(filepath.Join(r.Work.Dir, filepath.FromSlash(p)), []byte(w), 0o644); err != nil {
					return o, err
				}
			}
		}
		oc := r.check(ctx, string(h.Sum(nil)), list)
		o.OracleBuild = &oc
	}
	return o, nil
}

// check builds the work copy after a change of the listed files, once per
// change (k identifies the change).
func (r *RenameRun) check(ctx context.Context, k string, list []string) Check {
	c, ok := r.checked[k]
	if !ok {
		c = r.Check(ctx, list)
		if r.checked == nil {
			r.checked = map[string]Check{}
		}
		r.checked[k] = c
	}
	return c
}

// RunAll measures every symbol and logs a line for each.
func (r *RenameRun) RunAll(ctx context.Context, syms []Symbol) ([]Outcome, error) {
	var all []Outcome
	for i, s := range syms {
		t := time.Now()
		outs, err := r.Rename(ctx, s)
		if err != nil {
			return all, err
		}
		all = append(all, outs...)
		if r.Progress != nil {
			r.Progress(all)
		}
		if r.Log != nil {
			line := fmt.Sprintf("%d/%d %s [%s]", i+1, len(syms), s, s.Kind)
			for _, o := range outs {
				line += fmt.Sprintf(" | %s: %s", o.Layer, o.Status)
				if o.Build != nil && !o.Build.OK {
					line += " BUILD-BROKEN"
				}
				if o.CodeDiff() {
					line += " DIFFERS"
					if !o.WrongDiff() {
						line += " (the oracle's rename does not build)"
					}
				}
			}
			r.Log("%s (%.1fs)", line, time.Since(t).Seconds())
		}
	}
	return all, nil
}
