package tools

import (
	"context"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
)

// IndexIn are the arguments of index_ensure.
type IndexIn struct {
	Full bool `json:"full,omitempty" jsonschema:"re-read every file and rebuild cross-file facts"`
	Common
}

// IndexOut summarises a reconcile.
type IndexOut struct {
	Epoch       int64            `json:"epoch"`
	Changed     bool             `json:"changed"`
	Files       int              `json:"files"`
	Added       int              `json:"added"`
	Modified    int              `json:"modified"`
	Deleted     int              `json:"deleted"`
	Renamed     int              `json:"renamed"`
	Parsed      int              `json:"parsed"`
	BytesParsed int64            `json:"bytes_parsed"`
	ParseErrors int              `json:"parse_errors"`
	Failed      []string         `json:"failed"`
	Symbols     int              `json:"symbols_written"`
	Relinked    int              `json:"files_relinked"`
	Skipped     map[string]int   `json:"skipped"`
	TimingMS    map[string]int64 `json:"timing_ms"`
}

func init() {
	Register(Tool{
		Name: "index_ensure", Group: "core",
		Summary: "Make sure the index is current (every other tool already does this incrementally); full: true rebuilds from scratch. Reports what changed and where the time went. Rarely needed by agents.",
		When:    []string{"building the index ahead of the first query", "rebuilding from scratch (full) after doctor reports damage"},
		WhenNot: []string{"before ordinary queries: every query brings the index up to date itself"},
	}, indexEnsure)
}

func indexEnsure(ctx context.Context, c *Call, in IndexIn) (*IndexOut, error) {
	ix := c.Env.Index
	if !ix.Writable() {
		return nil, &errs.Error{Kind: errs.IndexUnavailable, Msg: "another Cairn process owns this index (pid " + itoa(ix.Owner()) + ")",
			Fixes: []string{"wait for it to finish, or stop it"}}
	}
	st, err := ix.Reconcile(ctx, index.ReconcileOptions{Full: in.Full, Progress: progressFor(ctx, c.Env)})
	if err != nil {
		return nil, err
	}
	out := &IndexOut{Epoch: st.Epoch, Changed: st.Changed, Files: st.Files, Added: st.Added, Modified: st.Modified, Deleted: st.Deleted,
		Renamed: st.Renamed, Parsed: st.Parsed, BytesParsed: st.BytesParsed, ParseErrors: st.ParseErrors, Failed: st.Failed,
		Symbols: st.Symbols, Relinked: st.Relinked, Skipped: st.SkippedFiles, TimingMS: st.TimingMS}
	if out.Failed == nil {
		out.Failed = []string{}
	}
	if out.Skipped == nil {
		out.Skipped = map[string]int{}
	}
	if st.Changed {
		c.Answer("indexed epoch %d: %d files (%d added, %d modified, %d deleted, %d renamed; %d parsed)", st.Epoch, st.Files,
			st.Added, st.Modified, st.Deleted, st.Renamed, st.Parsed)
	} else {
		c.Answer("index is current at epoch %d (%d files)", st.Epoch, st.Files)
	}
	if st.ParseErrors > 0 {
		c.Warn("%d files have syntax errors; they stay searchable", st.ParseErrors)
	}
	return out, nil
}
