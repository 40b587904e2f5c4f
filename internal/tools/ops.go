package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/mutate"
	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/refactor"
	"github.com/cairnhq/cairn/internal/task"
)

// opsCall is what the Monitor (Env.Ops) knows of a call in flight.
type opsCall struct {
	span   *obs.Span
	before string // the repository state of the call's first snapshot
	opened string // the task the call opened
}

// TestOutcome is implemented by the results of tools that run tests
// (test_run): the failing tests of the run, and whether it ran at all. The
// open task counts the run and fingerprints the failures.
type TestOutcome interface {
	TestFailures() (failures []task.Failure, ran bool)
}

// planning are tools of the edit group that only plan or inspect: they
// change no file, so no task counts them as mutations. The refactor
// planners (true) write when asked to apply a ready plan at once.
var planning = map[string]bool{"refactor_rename": true, "refactor_move": true, "refactor_delete": true,
	"refactor_inspect": false, "refactor_cancel": false}

// kindOf is what a call spends of a task's budgets.
func kindOf(t *Tool, args json.RawMessage) task.Kind {
	var flags struct {
		DryRun  bool            `json:"dry_run"`
		Confirm bool            `json:"confirm"`
		Apply   bool            `json:"apply"`
		TestRun json.RawMessage `json:"test_run"`
	}
	switch applies, plans := planning[t.Name]; {
	case t.Group == "edit" && (!plans || applies):
		json.Unmarshal(args, &flags)
		if !flags.DryRun && (!plans || flags.Apply) {
			return task.Mutation
		}
	case t.Name == "workspace_apply":
		if json.Unmarshal(args, &flags) == nil && !flags.DryRun {
			return task.Mutation
		}
	case t.Name == "test_run":
		return task.TestRun
	case t.Name == "read_file_full":
		if json.Unmarshal(args, &flags) == nil && flags.Confirm {
			return task.FullRead
		}
	case t.Name == "task_status":
		if json.Unmarshal(args, &flags) == nil && len(flags.TestRun) > 0 && string(flags.TestRun) != "null" {
			return task.TestRun
		}
	}
	return task.Other
}

// admit starts the call with the Monitor: the caller's task must cover it.
func (c *Call) admit(ctx context.Context, t *Tool, args json.RawMessage) error {
	if c.Env.Ops == nil {
		return nil
	}
	sp, err := c.Env.Ops.Begin(ctx, t.Name, kindOf(t, args))
	c.ops.span = sp
	return err
}

// observe finishes the call with the Monitor (deferred by Invoke, after the
// envelope is complete).
func (c *Call) observe(ctx context.Context, env **protocol.Envelope) {
	m := c.Env.Ops
	if m == nil || *env == nil {
		return
	}
	sp := c.ops.span
	if sp == nil {
		// Refused before admission (an unknown tool): counted, in no task.
		name := c.Tool
		if Lookup(name) == nil {
			name = "unknown"
		}
		sp, _ = m.Begin(obs.WithTask(ctx, ""), name, task.Other)
	}
	d := obs.Delta{RepoBefore: c.ops.before, Opened: c.ops.opened}
	if k := sp.Kind(); k == task.Mutation || k == task.TestRun {
		d = deltaOf((*env).Data, c.ops.before)
		d.Opened = c.ops.opened
	}
	m.Finish(ctx, sp, *env, d)
}

// spendTaskRead takes a whole-file read from the call's task budget.
func (c *Call) spendTaskRead(n int64) error {
	if c.Env.Ops == nil {
		return nil
	}
	return c.ops.span.SpendRead(c.Env.Ops, n)
}

// deltaOf reads what a result changed or ran: the file delta of a
// mutation, the failures of a test run.
func deltaOf(data any, before string) obs.Delta {
	d := obs.Delta{RepoBefore: before}
	switch r := data.(type) {
	case nil:
	case *mutate.Result:
		d.Files, d.Stats = mutationFiles(r)
	case *refactor.Applied:
		if r.Write != nil {
			d.Files, d.Stats = mutationFiles(r.Write)
		}
	case *PlanOut:
		if r.Applied != nil && r.Applied.Write != nil {
			d.Files, d.Stats = mutationFiles(r.Applied.Write)
		}
	case TestOutcome:
		d.Failures, d.Ran = r.TestFailures()
	default:
		d.Files, d.Stats = genericDelta(data)
	}
	return d
}

func mutationFiles(r *mutate.Result) ([]task.FileChange, *ledger.DiffStats) {
	files := make([]task.FileChange, 0, len(r.Files))
	for _, f := range r.Files {
		files = append(files, task.FileChange{Path: f.Path, Action: f.Action, NewHash: f.NewSHA256})
	}
	return files, &ledger.DiffStats{FilesChanged: r.FilesChanged, Insertions: r.LinesAdded, Deletions: r.LinesRemoved}
}

// genericDelta reads a delta off a result shaped like the mutation
// engine's (files with path, action and new_sha256, at the top or under
// "delta"); any other result is fingerprinted whole.
func genericDelta(data any) ([]task.FileChange, *ledger.DiffStats) {
	b, err := json.Marshal(data)
	if err != nil {
		return nil, nil
	}
	type shape struct {
		mutate.Result
		Delta *mutate.Result `json:"delta"`
	}
	var s shape
	if json.Unmarshal(b, &s) == nil {
		r := &s.Result
		if s.Delta != nil {
			r = s.Delta
		}
		if len(r.Files) > 0 {
			return mutationFiles(r)
		}
	}
	sum := sha256.Sum256(b)
	return []task.FileChange{{Path: "*", Action: "updated", NewHash: hex.EncodeToString(sum[:])}}, nil
}
