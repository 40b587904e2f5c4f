package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairnhq/cairn/internal/change"
)

// DiffIn are the arguments of semantic_diff.
type DiffIn struct {
	Base   string   `json:"base,omitempty" jsonschema:"git revision (commit, branch, tag) or epoch:N; default HEAD"`
	Target string   `json:"target,omitempty" jsonschema:"git revision or epoch:M; default the working tree (as indexed)"`
	Paths  []string `json:"paths,omitempty" jsonschema:"only these files or directories"`
	// NoImpact skips the blast radius (faster on large diffs).
	NoImpact bool `json:"no_impact,omitempty" jsonschema:"skip the blast radius of each change"`
	View
	Common
}

// DiffBudget bounds the structural changes per page.
var DiffBudget = Budget{50, 200}

func init() {
	Register(Tool{
		Name: "semantic_diff", Group: "read", Fresh: true, Paged: true,
		Summary: "Structural changes between two git revisions, a revision and the working tree, or two epochs: definitions added, removed, signature or body changed, renamed, moved; breaking vs non-breaking; blast radius (references per tier, importing files, affected tests); an ordered hint of what to review first.",
		Doc: "Definitions are matched by unit (Go package, JVM/.NET package, else file), kind and lexical path; the rest pair as renames when kind and body fingerprint (the text without whitespace and without the name) match one to one. " +
			"A removed, renamed or signature-changed public definition is breaking, as is a member added to a public interface; additions and body-only changes are not. Go internal/ and main packages and test files are not API. " +
			"Files of other revisions are read from git and parsed once into the content-addressed blob store. The blast radius is measured on the index, so only when the target is the working tree. " +
			"Epoch mode compares index states recorded at each epoch (epoch:N). Page with the cursor from provenance.truncations.",
		When:     []string{"reviewing a change before commit or a branch before merge", "what changed in the API between two releases (two tags)", "what the last index updates changed (epochs)"},
		WhenNot:  []string{"line-level diff text: git_diff", "what a change would break before making it: impact_analyze"},
		Examples: []string{`{}`, `{"base": "v1.2.0", "target": "v1.3.0"}`, `{"base": "main", "paths": ["pkg/api"]}`, `{"base": "epoch:3", "target": "epoch:5"}`},
	}, semanticDiff)
}

func semanticDiff(ctx context.Context, c *Call, in DiffIn) (*change.DiffResult, error) {
	limit := c.Clamp("limit", in.Limit, DiffBudget)
	paths, err := c.repoPaths(ctx, in.Paths)
	if err != nil {
		return nil, err
	}
	in.Paths = paths
	pg, err := c.pager(ctx, "diff", in.Base, in.Target, in.Paths, in.NoImpact, limit)
	if err != nil {
		return nil, err
	}
	res, err := change.Diff(ctx, c.Engine(), c.Env.Changes, change.DiffParams{Base: in.Base, Target: in.Target, Paths: in.Paths, Limit: limit, Offset: pg.offset,
		Impact: !in.NoImpact})
	if err != nil {
		return nil, err
	}
	target := res.Target.Spec
	c.Answer("%s → %s: %s; %d breaking (%d files changed, %d analysed)", res.Base.Spec, target, res.Summary, res.Breaking,
		res.FilesChanged, res.FilesAnalyzed)
	pg.done(ctx, "structural_changes", len(res.Changes), res.NextOffset, res.Total, res.More)
	c.Shortened("non_structural_changes", len(res.NonStructural), res.NonStructTotal, "limit")
	if len(res.Unavailable) > 0 {
		c.Warn("%d files of the epochs compared are no longer in the blob store (kept index.gc_grace_hours after last use); their definitions were not compared", len(res.Unavailable))
		c.Complete(0.8, "some epoch contents were collected")
	}
	if ctx.Err() != nil {
		c.Warn("the deadline stopped the blast radius; changes after it have no impact")
		c.Complete(0.7, "blast radius incomplete (deadline)")
	}
	named := 0
	for _, ch := range res.Changes {
		if ch.Severity == "breaking" && ch.SymbolID != "" && named < 3 {
			c.Next("impact_analyze", map[string]any{"symbol": ch.SymbolID}, fmt.Sprintf("what depends on %s (%s)", ch.QName, strings.ReplaceAll(ch.Change, "_", " ")))
			named++
		}
	}
	if res.Target.Kind == "worktree" && res.FilesChanged > 0 {
		c.Next("affected_tests", map[string]any{}, "the tests the changed files reach")
	}
	return res, nil
}
