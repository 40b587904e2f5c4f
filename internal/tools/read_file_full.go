package tools

import (
	"context"
	"fmt"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/query"
)

// ReadFullIn are the arguments of read_file_full.
type ReadFullIn struct {
	Path    string `json:"path" jsonschema:"repo-relative file path"`
	Confirm bool   `json:"confirm,omitempty" jsonschema:"true to receive the content; without it the call only measures the file (size, lines, sha256, estimated tokens)"`
	View
	Base
}

// ReadFullOut is read_file_full's payload.
type ReadFullOut struct {
	*query.FullFile
	// Confirmed is true when Content holds the file.
	Confirmed bool `json:"confirmed"`
	// CapBytes is the largest file read_file_full returns (read.full_file_cap_kib).
	CapBytes int64 `json:"cap_bytes"`
	// Fits says whether a confirmed read of this file would succeed now
	// (under the cap and within the session budget).
	Fits   bool         `json:"fits"`
	Budget BudgetReport `json:"session_budget"`
}

// BudgetReport is the session read budget after the call, in bytes.
type BudgetReport struct {
	Limit     int64 `json:"limit"`
	Used      int64 `json:"used"`
	Remaining int64 `json:"remaining"`
}

func init() {
	Register(Tool{
		Name: "read_file_full", Group: "read", Fresh: true,
		Summary: "Whole file, in two phases: without confirm it returns size, line count, sha256 and estimated tokens; with confirm: true the exact content. Capped per file (400 KiB) and counted against the session read budget. Use only when you need the entire file; read_source reads spans.",
		Doc: "The first call costs nothing and tells what the second would cost, and whether it fits (fits). " +
			"The second call (confirm: true) returns content: the file's exact text, not numbered, so its sha256 is file_sha256 (unless valid_utf8 is false: JSON cannot carry invalid UTF-8). " +
			"A file over the cap (read.full_file_cap_kib, default 400 KiB) or over what is left of the session read budget (read.session_budget_kib, default 2 MiB per process) fails with PRECONDITION_FAILED; reset_budget resets the budget. " +
			"Secrets, ignored files, .git and paths outside the repository are refused as with read_source; binary files are refused.",
		When:     []string{"you will edit or review the whole file and spans would miss context", "small files (configs, manifests) you need entire"},
		WhenNot:  []string{"reading around a location: read_source with start_line/end_line", "finding something in a file: search with paths"},
		Examples: []string{`{"path": "go.mod"}`, `{"path": "go.mod", "confirm": true}`},
	}, readFileFull)
}

func readFileFull(ctx context.Context, c *Call, in ReadFullIn) (*ReadFullOut, error) {
	if in.Path == "" {
		return nil, errs.E(errs.InvalidArgument, "name a file (path)")
	}
	capBytes := c.Env.Config.Read.FullFileCapKiB << 10
	budget := c.Env.reads()
	// Measure first, so a confirmed read of a file over the cap never loads it.
	f, err := c.Engine().ReadFull(ctx, in.Path, false)
	if err != nil {
		return nil, err
	}
	out := &ReadFullOut{FullFile: f, CapBytes: capBytes}
	overCap := f.Size > capBytes
	out.Fits = !overCap && f.Size <= budget.Remaining()
	if !in.Confirm {
		out.Budget = budget.Report()
		c.Answer("%s: %d bytes, %d lines, about %d tokens; call again with confirm: true to read it", f.Path, f.Size, f.Lines, f.EstimatedTokens)
		switch {
		case overCap:
			c.Warn("%s is over the read_file_full cap of %d KiB: read it in spans", f.Path, capBytes>>10)
			c.Next("read_source", map[string]any{"path": f.Path, "start_line": 1, "end_line": LinesBudget.Cap}, "read the file in spans")
		case !out.Fits:
			c.Warn("%s needs %d bytes but %d are left of the session read budget", f.Path, f.Size, budget.Remaining())
			c.Next("read_source", map[string]any{"path": f.Path, "start_line": 1, "end_line": LinesBudget.Cap}, "read the file in spans")
		default:
			c.Next("read_file_full", map[string]any{"path": f.Path, "confirm": true}, fmt.Sprintf("read all %d lines (about %d tokens)", f.Lines, f.EstimatedTokens))
		}
		return out, nil
	}
	if overCap {
		return nil, overCapError(f, capBytes)
	}
	if !budget.Spend(f.Size) {
		return nil, &errs.Error{Kind: errs.Precondition, Path: f.Path,
			Msg:     fmt.Sprintf("the session read budget is spent: %s needs %d bytes, %d of %d are left", f.Path, f.Size, budget.Remaining(), budget.Limit()),
			Details: map[string]any{"size": f.Size, "budget_limit": budget.Limit(), "budget_used": budget.Used(), "budget_remaining": budget.Remaining()},
			Fixes: []string{"call reset_budget to start a new read budget (task group)", "read spans with read_source instead",
				"raise read.session_budget_kib in .cairn/config.yaml"}}
	}
	if err := c.spendTaskRead(f.Size); err != nil {
		budget.Adjust(-f.Size) // nothing is returned
		return nil, err
	}
	full, err := c.Engine().ReadFull(ctx, in.Path, true)
	if err != nil {
		budget.Adjust(-f.Size) // nothing was returned
		return nil, err
	}
	if full.Size != f.Size {
		// The file changed between measuring and reading: charge what is returned.
		budget.Adjust(full.Size - f.Size)
		if full.Size > capBytes {
			budget.Adjust(-full.Size)
			return nil, overCapError(full, capBytes)
		}
	}
	out.FullFile, out.Confirmed, out.Fits = full, true, true
	out.Budget = budget.Report()
	if !full.ValidUTF8 {
		c.Warn("%s is not valid UTF-8: invalid bytes are replaced in content, so it does not hash to file_sha256", full.Path)
	}
	c.Answer("%s: %d lines, %d bytes (session read budget: %d of %d bytes used)", full.Path, full.Lines, full.Size, out.Budget.Used, out.Budget.Limit)
	return out, nil
}

func overCapError(f *query.FullFile, capBytes int64) error {
	return &errs.Error{Kind: errs.Precondition, Path: f.Path,
		Msg:     fmt.Sprintf("%s is %d bytes, over the read_file_full cap of %d KiB", f.Path, f.Size, capBytes>>10),
		Details: map[string]any{"size": f.Size, "cap_bytes": capBytes},
		Fixes:   []string{"read it in spans with read_source (path, start_line, end_line)", "raise read.full_file_cap_kib in .cairn/config.yaml"}}
}
