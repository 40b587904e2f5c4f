package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/refactor"
	"github.com/cairnhq/cairn/internal/tools"
)

// planNote is what the planning commands share on the command line.
const planNote = `The output lists the plan's edits (path:line:col old -> new), its candidate
groups with their questions, and for a blocked plan each file's state. Apply
it with 'cairn plan apply ID'; --apply applies a ready plan at once. A
refused plan (name taken, exportedness change, references left, target
exists) exits 7.`

// planCmd is a command that plans a refactor from positional arguments:
// flags defines the flags only it has, then come --apply and --verify.
func planCmd(tool, verb string, in any, apply *bool, verify *string, flags func(f *argFlags), pos ...posArg) *toolCmd {
	return &toolCmd{
		tool: tool, use: useOf(verb, pos), args: cobra.ExactArgs(len(pos)),
		pos:  pos,
		note: planNote,
		flags: func(f *argFlags) {
			if flags != nil {
				flags(f)
			}
			f.Bool(apply, "apply", "apply")
			f.String(verify, "verify", "verify", "")
		},
		in:     in,
		render: withAnswer(renderPlan),
	}
}

func renameCmd() *toolCmd {
	var in tools.RenameIn
	t := planTarget{then: "the new name (NEW)"}
	c := planCmd("refactor_rename", "rename", &in, &in.Apply, &in.Verify,
		func(f *argFlags) {
			f.Bool(&in.IncludeDocs, "include-docs", "include_docs")
			t.flag(f)
		},
		posArg{"NAME", "symbol", &in.Symbol}, posArg{"NEW", "new_name", &in.NewName})
	c.use, c.args = "rename [NAME] NEW", cobra.RangeArgs(1, 2)
	c.request = func(_ *cobra.Command, args []string) (any, error) {
		name, at, rest, err := t.read(args, 1)
		if err != nil {
			return nil, err
		}
		in.Symbol, in.At, in.NewName = name, at, rest[0]
		return &in, nil
	}
	return c
}

// planTarget reads the symbol of a planning command: NAME, its first
// argument, or --at PATH:LINE:COL, as its tool takes symbol or at.
type planTarget struct {
	at   string
	then string // what the command takes after NAME, for its usage errors
}

func (t *planTarget) flag(f *argFlags) {
	f.String(&t.at, "at", "at", "").Usage += ": PATH:LINE:COL"
}

// read splits args into the symbol's name (without --at) and the rest
// arguments that follow it.
func (t *planTarget) read(args []string, rest int) (name string, at *tools.Position, tail []string, err error) {
	want := "name the symbol (NAME) or give --at PATH:LINE:COL"
	switch {
	case t.at == "" && len(args) == 1+rest:
		return args[0], nil, args[1:], nil
	case t.at == "" && rest > 0:
		return "", nil, nil, errs.E(errs.Usage, "%s, then %s", want, t.then)
	case t.at == "":
		return "", nil, nil, errs.E(errs.Usage, "%s", want)
	case len(args) != rest && rest > 0:
		return "", nil, nil, errs.E(errs.Usage, "with --at, give only %s", t.then)
	case len(args) != rest:
		return "", nil, nil, errs.E(errs.Usage, "%s, not both", want)
	}
	at, err = tools.ParsePosition(t.at)
	return "", at, args, err
}

func mvCmd() *toolCmd {
	var in tools.MoveIn
	return planCmd("refactor_move", "mv", &in, &in.Apply, &in.Verify, nil,
		posArg{"FROM", "from", &in.From}, posArg{"TO", "to", &in.To})
}

func rmSymbolCmd() *toolCmd {
	var in tools.DeleteIn
	var t planTarget
	c := planCmd("refactor_delete", "rm-symbol", &in, &in.Apply, &in.Verify,
		func(f *argFlags) {
			f.Bool(&in.Force, "force", "force")
			t.flag(f)
		},
		posArg{"NAME", "symbol", &in.Symbol})
	c.use, c.args = "rm-symbol [NAME]", cobra.MaximumNArgs(1)
	c.request = func(_ *cobra.Command, args []string) (any, error) {
		name, at, _, err := t.read(args, 0)
		if err != nil {
			return nil, err
		}
		in.Symbol, in.At = name, at
		return &in, nil
	}
	return c
}

// planFamily groups the commands on stored plans: show, apply, cancel.
func planFamily() family {
	return family{name: "plan", short: "Show, apply or cancel a stored refactor plan",
		long: "A refactor plan (from rename, mv or rm-symbol) is stored under its id until it is applied,\ncancelled or expires (30 minutes, or when the index changes for a file it touches).",
		cmds: planCommands}
}

func planCommands() []*toolCmd {
	var show, cancel tools.PlanIn
	var apply tools.ApplyIn
	return []*toolCmd{
		{tool: "refactor_inspect", use: "show ID", args: cobra.ExactArgs(1),
			pos: []posArg{{"ID", "refactor_id", &show.RefactorID}}, in: &show, render: withAnswer(renderPlan)},
		{tool: "refactor_apply", use: "apply ID", args: cobra.ExactArgs(1),
			pos: []posArg{{"ID", "refactor_id", &apply.RefactorID}},
			note: `A plan that is expired, blocked, undecided or does not build exits 7 and
writes nothing; the diagnostics of a failed build are printed on stderr.`,
			flags: func(f *argFlags) {
				f.StringSlice(&apply.Groups, "groups", "groups")
				f.Bool(&apply.ForceSyntactic, "force-syntactic", "force_syntactic")
				f.String(&apply.Verify, "verify", "verify", "")
				f.Bool(&apply.DryRun, "dry-run", "dry_run")
				f.String(&apply.WorkspaceID, "workspace", "workspace_id", "")
			},
			in: &apply, render: withAnswer(renderApplied)},
		{tool: "refactor_cancel", use: "cancel ID", args: cobra.ExactArgs(1),
			pos: []posArg{{"ID", "refactor_id", &cancel.RefactorID}}, in: &cancel,
			render: printAnswer},
	}
}

// maxPrinted bounds the edits a plan prints.
const maxPrinted = 40

func renderPlan(w io.Writer, out *tools.PlanOut) {
	p := out.Plan
	if out.Applied != nil {
		renderApplied(w, out.Applied)
		return
	}
	for i, e := range p.Edits {
		if i == maxPrinted {
			fmt.Fprintf(w, "... %d more edits (cairn plan show %s)\n", p.Counts.Edits-maxPrinted, p.ID)
			break
		}
		fmt.Fprintf(w, "edit %s:%d:%d %s -> %s [%s]\n", e.Path, e.Line, e.Col, quoteShort(e.Old), quoteShort(e.New), e.Kind)
	}
	for _, m := range p.Moves {
		how := "git mv"
		if !m.GitMV {
			how = "move (" + m.Reason + ")"
		}
		fmt.Fprintf(w, "move %s -> %s [%s]\n", m.From, m.To, how)
	}
	for _, g := range p.Groups {
		fmt.Fprintf(w, "group %s: %s\n  question: %s\n", g.ID, g.Description, g.Capsule.Question)
		for _, e := range g.Edits {
			fmt.Fprintf(w, "  %s:%d:%d\n", e.Path, e.Line, e.Col)
		}
	}
	if p.Offered != nil {
		fmt.Fprintf(w, "decided before: groups %v\n", p.Offered.Groups)
	}
	for _, f := range p.Witness.Files {
		if f.Freshness != refactor.Clean && f.Freshness != refactor.Dirty {
			fmt.Fprintf(w, "file %s: %s (%s)\n", f.Path, f.Freshness, f.Reason)
		}
	}
	for _, r := range p.Witness.Refresh {
		fmt.Fprintf(w, "refresh: %s  # %s\n", r.CLI, r.Why)
	}
	for _, h := range p.Docs.Hits {
		fmt.Fprintf(w, "doc %s:%d:%d [%s %s] %s\n", h.Path, h.Line, h.Col, h.Where, h.Confidence, h.Context)
	}
	if out.Diff != "" {
		fmt.Fprint(w, out.Diff)
	}
}

func renderApplied(w io.Writer, a *refactor.Applied) {
	if a.Verify != nil {
		for _, c := range a.Verify.Checks {
			state := "ok"
			switch {
			case c.Skipped != "":
				state = "skipped: " + c.Skipped
			case !c.OK:
				state = "failed"
			}
			fmt.Fprintf(w, "verify %s: %s (%s)\n", c.Language, state, c.Command)
		}
	}
	for _, m := range a.Moves {
		fmt.Fprintf(w, "moved %s -> %s (git mv: %v)\n", m.From, m.To, m.GitMV)
	}
	for _, g := range a.Review {
		fmt.Fprintf(w, "review %s: %s\n", g.ID, g.Description)
	}
	if a.Write != nil {
		renderWrite(w, a.Write)
	}
}

// quoteShort quotes a text for one line of output, shortened.
func quoteShort(s string) string {
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return fmt.Sprintf("%q", s)
}
