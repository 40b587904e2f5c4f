package obs

import (
	"context"
	"fmt"
	"time"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/ledger"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/task"
)

// Span is one call on its way through: who made it, in which task, what it
// spends of the task's budgets.
type Span struct {
	start   time.Time
	tool    string
	kind    task.Kind
	client  Client
	task    *task.Task
	refused string // the budget that refused the call
	quiet   bool
}

// Begin starts a call of tool: it finds the caller's task and checks that
// its budgets cover the call. A refused call still gets a Span, to be
// finished with the refusal's envelope.
func (m *Monitor) Begin(ctx context.Context, tool string, kind task.Kind) (*Span, error) {
	sp := &Span{start: time.Now(), tool: tool, kind: kind, client: ClientOf(ctx), quiet: IsQuiet(ctx)}
	t, err := m.CurrentTask(ctx)
	if err != nil {
		return sp, err
	}
	sp.task = t
	if err := m.tasks.Admit(t, kind); err != nil {
		sp.refused, _ = errs.As(err).Details["budget"].(string)
		return sp, err
	}
	return sp, nil
}

// Kind is what the call spends of a task's budgets.
func (sp *Span) Kind() task.Kind { return sp.kind }

// SpendRead takes n bytes of whole-file content from the call's task, if
// it runs in one.
func (sp *Span) SpendRead(m *Monitor, n int64) error {
	if sp == nil || sp.task == nil {
		return nil
	}
	if err := m.tasks.SpendRead(sp.task, n); err != nil {
		sp.refused = task.BudgetReads
		return err
	}
	return nil
}

// Delta is what a finished call changed or ran, as the registry read it off
// the result.
type Delta struct {
	// Files of a mutation, with their state afterwards.
	Files []task.FileChange
	// Stats are the mutation's line counts.
	Stats *ledger.DiffStats
	// RepoBefore is the repository state the call started from.
	RepoBefore string
	// Ran says a test run ran; Failures are its failing tests.
	Ran      bool
	Failures []task.Failure
	// Opened is the task the call opened (task_open): its meta shows it.
	Opened string
}

// Finish records a finished call: metrics, the task's counters (flagging a
// call that makes no progress with a warning), meta.task, savings, the
// recent operations, the ledger and the log.
func (m *Monitor) Finish(ctx context.Context, sp *Span, env *protocol.Envelope, d Delta) {
	if sp == nil || sp.quiet {
		return
	}
	dur := time.Since(sp.start)
	failed := env.Error != nil
	outcome := "ok"
	op := ledger.Operation{RequestID: env.Meta.RequestID, Client: sp.client.ID, Time: sp.start, Duration: dur, Type: sp.tool,
		Success: !failed, RepoBefore: d.RepoBefore, RepoAfter: env.Provenance.RepoStateID, Tokens: env.Meta.Tokens,
		TokensSaved: env.Meta.TokensSaved, LimitTriggered: sp.refused}
	if failed {
		outcome = env.Error.Code
		op.ErrorCode = env.Error.Code
		if !m.opts.Anonymized {
			op.ErrorMessage = env.Error.Message
		}
	}
	if sp.kind == task.Mutation && !failed && len(d.Files) > 0 {
		op.MutationFP = task.MutationFingerprint(d.Files)
		op.DiffStats = d.Stats
		for _, f := range d.Files {
			if f.Action != "unchanged" {
				op.ChangedPaths = append(op.ChangedPaths, f.Path)
				op.ShortDiff += shortMark(f.Action) + " " + f.Path + "\n"
			}
		}
	}
	if d.Ran {
		op.FailureFP = task.FailureFingerprint(d.Failures)
		for _, f := range d.Failures {
			op.FailingTests = append(op.FailingTests, f.Test)
		}
		if len(d.Failures) > 0 {
			op.FailureClass = "test_failure"
		}
	}
	m.metrics.calls.WithLabelValues(sp.tool, outcome).Inc()
	m.metrics.latency.WithLabelValues(sp.tool).Observe(dur.Seconds())
	m.metrics.tokens.Add(float64(env.Meta.Tokens))
	m.metrics.saved.Add(float64(env.Meta.TokensSaved))
	if sp.refused != "" {
		m.metrics.refusals.WithLabelValues(sp.refused).Inc()
	}
	m.mu.Lock()
	ts := m.tools[sp.tool]
	if ts == nil {
		ts = &toolStats{}
		m.tools[sp.tool] = ts
	}
	ts.calls++
	if failed {
		ts.errors++
	}
	m.mu.Unlock()

	t := sp.task
	if t != nil {
		np := m.tasks.Record(ctx, t, task.Outcome{Kind: sp.kind, Failed: failed, Refused: sp.refused != "", MutationFP: op.MutationFP,
			Ran: d.Ran, FailureFP: op.FailureFP, TokensSaved: env.Meta.TokensSaved})
		switch {
		case sp.kind == task.Mutation && !failed:
			m.metrics.mutations.Inc()
		case d.Ran:
			m.metrics.testRuns.Inc()
		}
		if np != "" {
			op.NoProgress = np
			m.metrics.noProgress.WithLabelValues(np).Inc()
			env.Provenance.Warnings = append(env.Provenance.Warnings, noProgressWarning(np, t.ID))
		}
	} else if d.Opened != "" {
		t, _ = m.tasks.Current("", d.Opened)
	}
	if t != nil {
		st := m.tasks.Status(t)
		op.TaskID = st.TaskID
		env.Meta.TaskID, env.Meta.Task = st.TaskID, TaskMeta(st)
	}
	m.savings.add(sp.client, env.Meta.Tokens, env.Meta.TokensSaved, sp.start)
	m.recent.add(op, sp.client)
	if m.ledger != nil {
		m.ledger.Append(op)
	}
	level := slogInfo
	attrs := []any{"tool", sp.tool, "outcome", outcome, "ms", float64(dur.Microseconds()) / 1000, "request_id", op.RequestID, "client", sp.client.ID}
	if op.TaskID != "" {
		attrs = append(attrs, "task_id", op.TaskID)
	}
	if op.NoProgress != "" {
		attrs = append(attrs, "no_progress", op.NoProgress)
	}
	if failed {
		level = slogWarn
		if op.ErrorMessage != "" {
			attrs = append(attrs, "error", op.ErrorMessage)
		}
	}
	m.log.Log(ctx, level, "call", attrs...)
}

func shortMark(action string) string {
	switch action {
	case "created":
		return "+"
	case "deleted":
		return "-"
	}
	return "~"
}

func noProgressWarning(reason, id string) string {
	switch reason {
	case task.RepeatedMutation:
		return fmt.Sprintf("no progress: this mutation leaves the files exactly as the previous mutation of task %s did", id)
	case task.RepeatedFailure:
		return fmt.Sprintf("no progress: the same tests fail with the same messages as before the last mutation of task %s", id)
	}
	return "no progress in task " + id + ": " + reason
}
