package change

import (
	"cmp"
	"context"
	"sort"

	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/query"
)

// DiffParams selects the two states semantic_diff compares.
type DiffParams struct {
	Base   string   // git revision or epoch:N (default HEAD)
	Target string   // git revision, epoch:M, or "" for the working tree (the index)
	Paths  []string // only these paths (files or directories)
	Limit  int
	Offset int
	// Impact enriches the changes of the page with their blast radius (only
	// when the target is the indexed working tree).
	Impact bool
}

// DiffSide describes one compared state.
type DiffSide struct {
	Spec   string `json:"spec"`             // as requested
	Kind   string `json:"kind"`             // git, worktree, epoch
	Commit string `json:"commit,omitempty"` // the commit a git revision names
	Epoch  int64  `json:"epoch,omitempty"`
}

// ChangeImpact is the blast radius of one change.
type ChangeImpact struct {
	ReferenceCount int            `json:"reference_count"`
	RefTiers       map[string]int `json:"ref_tiers"`
	// ReferenceBasis: ref_links (references resolved to the symbol),
	// name_only (a removed symbol: references by name that no longer resolve).
	ReferenceBasis   string   `json:"reference_basis"`
	ReferencingFiles []string `json:"referencing_files"`
	// ImportingFiles import the changed file (or its package) or reference
	// its definitions.
	ImportingFiles []string `json:"importing_files"`
	ImportingTotal int      `json:"importing_total"`
	AffectedTests  []string `json:"affected_test_files"`
	Confidence     string   `json:"confidence"` // high, low
}

// StructuralChange is one definition that changed.
type StructuralChange struct {
	Path          string            `json:"path"`
	Kind          string            `json:"kind"`
	Name          string            `json:"name"`
	QName         string            `json:"qualified_name"` // lexical path in the file, a.g. Server.Handle
	Change        string            `json:"change"`         // added, removed, signature_changed, body_changed, renamed, moved
	Severity      string            `json:"structural_severity"`
	Why           string            `json:"why,omitempty"` // why breaking
	Risk          string            `json:"behavior_change_risk"`
	Visibility    string            `json:"visibility"`
	SymbolID      protocol.SymbolID `json:"symbol_id,omitempty"`
	OldSignature  string            `json:"old_signature,omitempty"`
	NewSignature  string            `json:"new_signature,omitempty"`
	OldName       string            `json:"old_name,omitempty"`
	OldPath       string            `json:"old_path,omitempty"`
	Line          int               `json:"start_line"`
	EndLine       int               `json:"end_line"`
	LinesChanged  int               `json:"lines_changed,omitempty"`
	DeltaTags     []string          `json:"delta_tags"`
	ChangePreview []string          `json:"change_preview,omitempty"`
	Container     string            `json:"container,omitempty"`
	Impact        *ChangeImpact     `json:"impact,omitempty"`

	old, new *defOcc // the definitions compared (nil when absent)
}

// FileChangeInfo is a changed file.
type FileChangeInfo struct {
	Path     string `json:"path"`
	Status   string `json:"status"`   // added, modified, deleted
	Category string `json:"category"` // prod, test, build, config, docs
	Language string `json:"language,omitempty"`
}

// DiffResult is semantic_diff's payload.
type DiffResult struct {
	Summary         string             `json:"summary"`
	BreakingSummary string             `json:"breaking_summary,omitempty"`
	Base            DiffSide           `json:"base"`
	Target          DiffSide           `json:"target"`
	FilesChanged    int                `json:"files_changed"`
	FilesAnalyzed   int                `json:"files_analyzed"`
	Counts          map[string]int     `json:"counts"` // by change
	Breaking        int                `json:"breaking"`
	Total           int                `json:"total"`
	Changes         []StructuralChange `json:"structural_changes"`
	NonStructural   []FileChangeInfo   `json:"non_structural_changes"`
	NonStructTotal  int                `json:"non_structural_total"`
	AgenticHint     string             `json:"agentic_hint"`
	ImpactBasis     string             `json:"impact_basis"`
	More            bool               `json:"-"`
	NextOffset      int                `json:"-"`
	// Parsed and Reused count revision contents parsed for this diff and
	// found in the blob store.
	Parsed int `json:"contents_parsed"`
	Reused int `json:"contents_reused"`
	// Unavailable lists files of an epoch whose contents the blob store no
	// longer holds (collected after index.gc_grace_hours).
	Unavailable []string `json:"unavailable_files,omitempty"`
	// Files changed lists every changed file (for affected tests).
	Files []FileChangeInfo `json:"-"`
}

const maxNonStructural = 50

// Diff compares two states of the repository definition by definition.
func Diff(ctx context.Context, e *query.Engine, c *Cache, p DiffParams) (*DiffResult, error) {
	a := &analysis{Engine: e, cache: c}
	base, target, err := a.sides(ctx, p)
	if err != nil {
		return nil, err
	}
	res := &DiffResult{Base: base.side, Target: target.side, Counts: map[string]int{}, Changes: []StructuralChange{},
		NonStructural: []FileChangeInfo{}}
	changed := a.changedFiles(base, target, p.Paths)
	res.FilesChanged = len(changed)
	olds, news, err := a.loadSides(ctx, base, target, changed, res)
	if err != nil {
		return nil, err
	}
	oldDefs, newDefs := sortFiles(res, changed, olds, news)
	changes := matchDefs(oldDefs, newDefs)
	sortChanges(changes)
	countChanges(res, changes)
	res.Changes, res.More, res.NextOffset = pageOf(res.Changes, changes, p.Offset, p.Limit)
	for k := range res.Changes {
		a.linesChanged(ctx, &res.Changes[k])
	}
	tests, err := a.radius(ctx, res, target.side, p.Impact)
	if err != nil {
		return nil, err
	}
	res.AgenticHint = agenticHint(res, changes, tests)
	return res, nil
}

// sides reads the two states compared: a git revision or an epoch as the
// base, the working tree (the index) by default as the target.
func (a *analysis) sides(ctx context.Context, p DiffParams) (base, target *snapshot, err error) {
	if p.Base == "" {
		p.Base = "HEAD"
	}
	if base, err = a.snapshot(ctx, p.Base); err != nil {
		return nil, nil, err
	}
	if target, err = a.snapshot(ctx, p.Target); err != nil {
		return nil, nil, err
	}
	if (base.side.Kind == "epoch") != (target.side.Kind == "epoch") && target.side.Kind != "worktree" {
		return nil, nil, errs.E(errs.InvalidArgument, "compare epochs with epochs (or an epoch with the working tree), and git revisions with git revisions")
	}
	if base.side.Kind == "worktree" {
		return nil, nil, errs.E(errs.InvalidArgument, "the base must be a git revision or an epoch; the working tree is the default target")
	}
	return base, target, nil
}

// changedFiles lists the paths that differ between the states (within
// only, when given).
func (a *analysis) changedFiles(base, target *snapshot, only []string) []string {
	changed := changedPaths(base, target, only)
	if base.side.Kind != "git" || target.side.Kind != "worktree" {
		return changed
	}
	// A tracked file missing from the index but present on disk is left
	// out by the ignore rules or the size cap: not a deletion.
	root := a.Index().Paths().Root
	kept := changed[:0]
	for _, c := range changed {
		if _, inTarget := target.files[c]; !inTarget && exists(root, c) {
			continue
		}
		kept = append(kept, c)
	}
	return kept
}

// sortFiles records every changed file and returns the definitions of the
// files that hold code on each side; the others are listed as
// non-structural changes.
func sortFiles(res *DiffResult, changed []string, olds, news map[string]*fileSide) (oldDefs, newDefs []*defOcc) {
	for _, path := range changed {
		o, n := olds[path], news[path]
		status := "modified"
		switch {
		case o == nil:
			status = "added"
		case n == nil:
			status = "deleted"
		}
		language := ""
		if n != nil {
			language = n.lang
		} else if o != nil {
			language = o.lang
		}
		info := FileChangeInfo{Path: path, Status: status, Category: fileCategory(path, language), Language: language}
		res.Files = append(res.Files, info)
		if !structural(o) && !structural(n) {
			res.NonStructTotal++
			if len(res.NonStructural) < maxNonStructural {
				res.NonStructural = append(res.NonStructural, info)
			}
			continue
		}
		res.FilesAnalyzed++
		oldDefs = append(oldDefs, occurrences(o)...)
		newDefs = append(newDefs, occurrences(n)...)
	}
	return oldDefs, newDefs
}

// sortChanges orders changes by file, line and name.
func sortChanges(changes []StructuralChange) {
	sort.Slice(changes, func(i, j int) bool {
		a, b := changes[i], changes[j]
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.QName, b.QName), cmp.Compare(a.Change, b.Change)) < 0
	})
}

// countChanges fills the totals and summaries, over every change.
func countChanges(res *DiffResult, changes []StructuralChange) {
	for _, c := range changes {
		res.Counts[c.Change]++
		if c.Severity == "breaking" {
			res.Breaking++
		}
	}
	res.Total = len(changes)
	res.Summary = diffSummary(res)
	res.BreakingSummary = breakingSummary(changes)
}
