package tools

import (
	"context"
	"os"
	"sort"
	"strconv"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/obs"
	"github.com/cairnhq/cairn/internal/semantic"
	"github.com/cairnhq/cairn/internal/store"
)

// StatusIn are the arguments of status.
type StatusIn struct {
	Common
}

// LanguageStatus describes one language in the index.
type LanguageStatus struct {
	Language string   `json:"language"`
	Files    int      `json:"files"`
	Layers   []string `json:"layers"`
}

// StatusOut is status's payload.
type StatusOut struct {
	Repo      string `json:"repo"`
	StateDir  string `json:"state_dir"`
	BlobStore string `json:"blob_store"`
	RepoGit
	Epoch       int64  `json:"epoch"`
	IndexState  string `json:"index_state"`
	StateReason string `json:"state_reason,omitempty"`
	IndexedAt   string `json:"indexed_at,omitempty"`
	// PendingFiles counts files changed on disk since the last index (the
	// next query indexes them).
	PendingFiles int              `json:"pending_files,omitempty"`
	Files        int              `json:"files"`
	Symbols      int              `json:"symbols"`
	FileStates   map[string]int   `json:"file_states"`
	Languages    []LanguageStatus `json:"languages"`
	Writer       string           `json:"writer"` // this process, or pid N
	Initialized  bool             `json:"initialized"`
	// Semantic describes the imported SCIP indexes and the recent jobs.
	Semantic SemanticStatus `json:"semantic"`
	// Storage is the disk the index takes.
	Storage StorageStatus `json:"storage"`
	// Savings are the running totals of tokens saved (they grow with every
	// call, so two status answers differ here).
	Savings *SavingsStatus `json:"savings,omitempty"`
	// Caches are the caches of the server answering for the repository
	// (this process, or the one that owns the index) with their hits and
	// misses since it started (absent when no server runs).
	Caches []obs.CacheView `json:"caches,omitempty"`
}

// RepoGit is where the repository stands in git, as the index sees it.
type RepoGit struct {
	Git    bool   `json:"git"`
	Branch string `json:"branch,omitempty"`
	Head   string `json:"head,omitempty"`
	Dirty  bool   `json:"dirty"`
}

// repoGit is the git state of the call's repository.
func (c *Call) repoGit() RepoGit {
	st := c.State()
	return RepoGit{Git: c.Env.Index.Paths().IsGit, Branch: st.Branch, Head: st.Head, Dirty: st.Dirty}
}

// StorageStatus is the disk the index takes: the content-addressed blob
// store and the baseline that the worktrees of the repository share, and
// this worktree's own index (paths, and the symbols and resolved
// references that differ from the baseline's).
type StorageStatus struct {
	SharedBytes int64 `json:"shared_bytes"`
	// BaselineBytes is the part of SharedBytes that is the baseline this
	// worktree's index is an overlay over (omitted when standalone).
	BaselineBytes int64 `json:"baseline_bytes,omitempty"`
	OwnBytes      int64 `json:"own_bytes"`
	// Worktrees counts the worktree indexes that use the shared store.
	Worktrees int `json:"worktrees"`
}

// SemanticStatus is the semantic layer's part of status.
type SemanticStatus struct {
	Indexes []semantic.IndexFreshness `json:"indexes"`
	Jobs    []semantic.Job            `json:"jobs"`
}

func init() {
	Register(Tool{
		Name: "status", Group: "core", // answers at once, even while the first index builds
		Summary: "Index health: state, freshness, files and symbols per language, HEAD. Call when answers look wrong.",
		When:    []string{"answers look stale or incomplete", "checking whether the first index is still being built"},
		WhenNot: []string{"what is wrong with the setup and how to fix it: doctor", "the repository's shape: describe or map_repo"},
	}, status)
}

// indexState is the state of the index the call sees and why: what the
// service reports when it says, else ready once the first index is built.
func (c *Call) indexState() (state, reason string) {
	if c.Env.State != nil {
		if state, reason := c.Env.State(); state != "" {
			return state, reason
		}
	}
	if !c.State().Built {
		return "indexing", ""
	}
	return "ready", ""
}

func status(ctx context.Context, c *Call, _ StatusIn) (*StatusOut, error) {
	ix := c.Env.Index
	st := c.State()
	p := ix.Paths()
	out := &StatusOut{Repo: p.Root, StateDir: p.StateDir, BlobStore: p.BlobPath, RepoGit: c.repoGit(), Epoch: st.Epoch,
		Initialized: p.Initialized, Languages: []LanguageStatus{}, FileStates: map[string]int{}}
	out.IndexState, out.StateReason = c.indexState()
	if c.Env.Pending != nil && st.Built {
		// status does not reindex; it says what the index has not seen.
		if n, err := c.Env.Pending(ctx); err == nil && n > 0 {
			out.PendingFiles = n
			out.Dirty = out.Dirty || p.IsGit
			c.pending(n)
		}
	}
	out.IndexedAt = st.IndexedAt
	db := c.snap.Store()
	files, states, symbols, err := db.Counts(ctx)
	if err != nil {
		return nil, err
	}
	out.Symbols = symbols
	for s, n := range states {
		out.FileStates[s.String()] = n
		out.Files += n
	}
	for l, n := range files {
		if l == "" || lang.ByName(l) == nil {
			continue
		}
		out.Languages = append(out.Languages, LanguageStatus{Language: l, Files: n, Layers: []string{"syntactic"}})
	}
	out.Storage.SharedBytes, out.Storage.OwnBytes = ix.StorageBytes()
	out.Storage.BaselineBytes = ix.BaselineBytes()
	if wts, err := db.Worktrees(ctx); err == nil {
		out.Storage.Worktrees = len(wts)
	}
	out.Semantic = SemanticStatus{Indexes: []semantic.IndexFreshness{}, Jobs: []semantic.Job{}}
	fr, err := c.Engine().SemanticFreshness(ctx)
	if err != nil {
		return nil, err
	}
	covered := map[string]bool{}
	for _, f := range fr {
		out.Semantic.Indexes = append(out.Semantic.Indexes, f)
		for _, l := range f.Languages {
			covered[l] = true
		}
		if f.Warning != "" {
			c.Warn("%s", f.Warning)
		}
	}
	for i := range out.Languages {
		if covered[out.Languages[i].Language] {
			out.Languages[i].Layers = append(out.Languages[i].Layers, "semantic")
		}
	}
	jobs, err := db.Jobs(ctx, 10)
	if err != nil {
		return nil, err
	}
	for _, j := range jobs {
		out.Semantic.Jobs = append(out.Semantic.Jobs, semantic.JobOf(j))
	}
	sort.Slice(out.Languages, func(i, j int) bool { return out.Languages[i].Language < out.Languages[j].Language })
	if ix.Writable() {
		out.Writer = "this process (pid " + itoa(os.Getpid()) + ")"
	} else {
		out.Writer = "pid " + itoa(ix.Owner())
	}
	out.Savings = c.savingsStatus(ctx)
	if c.Env.Caches != nil {
		for _, st := range c.Env.Caches(ctx) {
			out.Caches = append(out.Caches, obs.CacheView{CacheStat: st, HitRatio: st.HitRatio()})
		}
	}
	c.Answer("index %s at epoch %d: %d files, %d symbols", out.IndexState, out.Epoch, out.Files, out.Symbols)
	warnPartlyParsed(c, states[store.BlobParseErrors], states[store.BlobCapped])
	return out, nil
}

// warnPartlyParsed warns of the files whose facts the index holds only in
// part: files with syntax errors, and files that reached the extractor's
// bounds (lang.Limits).
func warnPartlyParsed(c *Call, parseErrors, capped int) {
	if parseErrors > 0 {
		c.Warn("%d files have syntax errors; they stay searchable", parseErrors)
	}
	if capped > 0 {
		c.Warn("%d files nest deeper than %d levels or have lexical paths over %d bytes: their definitions below level %d are summarised into it and longer paths cut (ls lists them as capped)",
			capped, lang.MaxNesting, lang.MaxPath, lang.MaxNesting)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
