package tools

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/config"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/semantic"
)

// IndexIn are the arguments of index_ensure.
type IndexIn struct {
	Full bool `json:"full,omitempty" jsonschema:"re-read every file and rebuild cross-file facts"`
	// Semantic refreshes the semantic layer.
	Semantic bool `json:"semantic,omitempty" jsonschema:"also refresh the semantic layer: run the installed SCIP indexers that fit the repository's modules (scip-go, scip-typescript, scip-python) as background jobs and import their output, plus the .scip files of semantic.scip_paths"`
	// SCIP imports one .scip file.
	SCIP string `json:"scip,omitempty" jsonschema:"import this .scip file (repo-relative or absolute) into the semantic layer"`
	// Wait blocks until the semantic jobs end (bounded by timeout_ms).
	Wait bool `json:"wait,omitempty" jsonschema:"wait for the semantic jobs to finish (bounded by timeout_ms); otherwise they run in the background and status reports them"`
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
	Capped      []string         `json:"capped,omitempty"` // files whose facts stop at the extractor's bounds
	Failed      []string         `json:"failed"`
	Symbols     int              `json:"symbols_written"`
	Relinked    int              `json:"files_relinked"`
	Skipped     map[string]int   `json:"skipped"`
	TimingMS    map[string]int64 `json:"timing_ms"`
	// SeededFrom is the worktree whose index this one started from when
	// this process created it (store.Seed), "" otherwise.
	SeededFrom string `json:"seeded_from,omitempty"`
	// Semantic reports the semantic jobs of a semantic refresh.
	Semantic *SemanticOut `json:"semantic,omitempty"`
}

// SemanticOut is what a semantic refresh did: the indexers that fit the
// modules, and the jobs that serve the request.
type SemanticOut struct {
	Detected []semantic.Detected `json:"detected"`
	Jobs     []semantic.Job      `json:"jobs"`
	// Skipped says why detected indexers did not run.
	Skipped []string `json:"skipped"`
}

func init() {
	Register(Tool{
		Name: "index_ensure", Group: "core", Deadline: indexDeadline,
		Summary: "Make sure the index is current (every other tool already does this incrementally); full: true rebuilds from scratch; semantic: true runs the installed SCIP indexers in the background for compiler-precise references. Reports what changed and where the time went.",
		When:    []string{"building the index ahead of the first query", "rebuilding from scratch (full) after doctor reports damage", "refreshing the semantic layer (semantic) when answers report files changed since the semantic index"},
		WhenNot: []string{"before ordinary queries: every query brings the index up to date itself"},
	}, indexEnsure)
}

func indexEnsure(ctx context.Context, c *Call, in IndexIn) (*IndexOut, error) {
	if err := checkSCIPFile(c.Env.Paths.Root, in.SCIP); err != nil {
		return nil, err
	}
	ix := c.Env.Index
	if !ix.Writable() {
		if in.Semantic || in.SCIP != "" {
			// The owner runs the jobs; this process only asks.
			st := c.State()
			out := &IndexOut{Epoch: st.Epoch, Files: st.Files, Failed: []string{}, Skipped: map[string]int{}, TimingMS: map[string]int64{}}
			c.Answer("index owned by pid %d at epoch %d", ix.Owner(), st.Epoch)
			return withSemantic(ctx, c, in, out)
		}
		return nil, &errs.Error{Kind: errs.IndexUnavailable, Msg: "another Cairn process owns this index (pid " + itoa(ix.Owner()) + ")",
			Fixes: []string{"wait for it to finish, or stop it"}}
	}
	var st *index.Stats
	var err error
	snapErr := c.Reindexed(ctx, func() {
		st, err = ix.Reconcile(ctx, index.ReconcileOptions{Full: in.Full, Progress: progressFor(ctx, c.Env)})
	})
	if err != nil {
		return nil, err
	}
	if snapErr != nil {
		return nil, snapErr
	}
	out := &IndexOut{Epoch: st.Epoch, Changed: st.Changed, Files: st.Files, Added: st.Added, Modified: st.Modified, Deleted: st.Deleted,
		Renamed: st.Renamed, Parsed: st.Parsed, BytesParsed: st.BytesParsed, ParseErrors: st.ParseErrors, Capped: st.Capped, Failed: st.Failed,
		Symbols: st.Symbols, Relinked: st.Relinked, Skipped: st.SkippedFiles, TimingMS: st.TimingMS, SeededFrom: c.Env.Index.SeededFrom}
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
	if st.GitFailed != "" {
		c.Warn("git could not list the files (%s); the directory was walked with the ignore rules instead", st.GitFailed)
	}
	warnPartlyParsed(c, st.ParseErrors, len(st.Capped))
	return withSemantic(ctx, c, in, out)
}

// withSemantic adds to an index_ensure answer the semantic refresh the call
// asks for, if it asks for one.
func withSemantic(ctx context.Context, c *Call, in IndexIn, out *IndexOut) (*IndexOut, error) {
	if !in.Semantic && in.SCIP == "" {
		return out, nil
	}
	sem, err := semanticRefresh(ctx, c, in)
	if err != nil {
		return nil, err
	}
	out.Semantic = sem
	return out, nil
}

// semanticRefresh enqueues the semantic jobs of an index_ensure call and,
// when asked, waits for them.
func semanticRefresh(ctx context.Context, c *Call, in IndexIn) (*SemanticOut, error) {
	if c.Env.Jobs == nil {
		return nil, &errs.Error{Kind: errs.IndexUnavailable, Msg: "this process cannot run semantic jobs"}
	}
	out := &SemanticOut{Detected: []semantic.Detected{}, Jobs: []semantic.Job{}, Skipped: []string{}}
	var reqs []semantic.Request
	if in.Semantic {
		det, err := c.Env.Jobs.Detect(ctx)
		if err != nil {
			return nil, err
		}
		out.Detected = append(out.Detected, det...)
		only := map[string]bool{}
		for _, n := range c.Env.Config.Semantic.Indexers {
			only[n] = true
		}
		for _, d := range det {
			switch {
			case len(only) > 0 && !only[d.Indexer]:
				out.Skipped = append(out.Skipped, fmt.Sprintf("%s for %q: not in semantic.indexers", d.Indexer, d.Root))
			case !d.Runnable:
				out.Skipped = append(out.Skipped, fmt.Sprintf("%s for %q: Cairn does not run it; add its .scip output to semantic.scip_paths", d.Indexer, d.Root))
			case !d.Installed:
				out.Skipped = append(out.Skipped, fmt.Sprintf("%s for %q: not installed (%s)", d.Indexer, d.Root, d.Install))
			default:
				reqs = append(reqs, semantic.Request{Indexer: d.Indexer, Root: d.Root, Trigger: "user"})
			}
		}
		for _, p := range c.Env.Config.Semantic.SCIPPaths {
			reqs = append(reqs, semantic.Request{Indexer: semantic.IndexerFile, Root: p, Trigger: "config"})
		}
	}
	if in.SCIP != "" {
		reqs = append(reqs, semantic.Request{Indexer: semantic.IndexerFile, Root: in.SCIP, Trigger: "user"})
	}
	if len(reqs) == 0 {
		c.Warn("no semantic indexer can run here: %s", strings.Join(out.Skipped, "; "))
		c.Next("doctor", map[string]any{}, "see which indexers to install")
		return out, nil
	}
	jobs, err := c.Env.Jobs.Enqueue(ctx, reqs)
	if err != nil {
		return nil, err
	}
	if in.Wait {
		ids := make([]int64, len(jobs))
		for i, j := range jobs {
			ids[i] = j.ID
		}
		if jobs, err = c.Env.Jobs.Wait(ctx, ids); err != nil {
			return nil, err
		}
	}
	out.Jobs = jobs
	states := map[string]int{}
	for _, j := range jobs {
		states[j.Status]++
		if j.Status == semantic.JobFailed {
			c.Warn("semantic job %d (%s %q) failed: %s", j.ID, j.Indexer, j.Root, j.Error)
		}
	}
	var parts []string
	for _, s := range []string{semantic.JobCompleted, semantic.JobRunning, semantic.JobQueued, semantic.JobFailed, semantic.JobSuperseded} {
		if states[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", states[s], s))
		}
	}
	c.answer += fmt.Sprintf("; semantic jobs: %s", strings.Join(parts, ", "))
	if states[semantic.JobQueued]+states[semantic.JobRunning] > 0 {
		c.Next("status", map[string]any{}, "follow the semantic jobs")
	}
	return out, nil
}

// indexDeadline is index_ensure's default deadline: building the index of a
// large repository takes minutes, far past a query's timeout (timeout_ms
// still sets a shorter one).
func indexDeadline(config.Config) time.Duration { return time.Hour }

// checkSCIPFile refuses a .scip file that is not there before any work
// starts, rather than reporting a failed background job afterwards.
func checkSCIPFile(root, p string) error {
	if p == "" {
		return nil
	}
	full := semantic.FilePath(root, p)
	fi, err := os.Stat(full)
	switch {
	case err != nil:
		return &errs.Error{Kind: errs.FileNotFound, Msg: "no .scip file at " + full,
			Fixes: []string{"give the path of a .scip file, relative to the repository or absolute"}}
	case fi.IsDir():
		return &errs.Error{Kind: errs.InvalidArgument, Msg: full + " is a directory, not a .scip file"}
	}
	return nil
}
