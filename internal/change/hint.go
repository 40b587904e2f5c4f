package change

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

func diffSummary(r *DiffResult) string {
	if r.Total == 0 {
		return fmt.Sprintf("no structural changes in %d changed files", r.FilesChanged)
	}
	var parts []string
	for _, k := range []string{"added", "removed", "signature_changed", "body_changed", "renamed", "moved"} {
		if n := r.Counts[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, strings.ReplaceAll(k, "_", " ")))
		}
	}
	return strings.Join(parts, ", ")
}

func breakingSummary(cs []StructuralChange) string {
	var names []string
	n := 0
	for _, c := range cs {
		if c.Severity == "breaking" {
			n++
			if len(names) < 5 {
				names = append(names, c.QName)
			}
		}
	}
	if n == 0 {
		return ""
	}
	s := fmt.Sprintf("%d breaking changes: %s", n, strings.Join(names, ", "))
	if n > len(names) {
		s += ", …"
	}
	return s
}

// hintTests lists the tests the changed files reach (for the hint).
func (a *analysis) hintTests(ctx context.Context, r *DiffResult) []string {
	var files, deleted []string
	for _, f := range r.Files {
		if f.Status == "deleted" {
			deleted = append(deleted, f.Path)
		} else {
			files = append(files, f.Path)
		}
	}
	if len(files)+len(deleted) == 0 {
		return nil
	}
	aff, err := AffectedTests(ctx, a.Engine, a.cache, AffectedParams{Files: files, Deleted: deleted, Limit: 5})
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range aff.Tests {
		out = append(out, t.Path)
	}
	if aff.Total > len(out) {
		out = append(out, fmt.Sprintf("… %d more", aff.Total-len(out)))
	}
	return out
}

// agenticHint orders what to look at first, from every change (not only the
// page): breaking changes by their reach, then renames, risky body changes,
// and the tests to run.
func agenticHint(r *DiffResult, all []StructuralChange, tests []string) string {
	if r.Total == 0 {
		if r.FilesChanged == 0 {
			return "Nothing changed between the two states."
		}
		return "No definitions changed; review the non-structural changes (configuration, data, docs) directly."
	}
	refs := map[string]int{}
	for _, c := range r.Changes {
		if c.Impact != nil {
			refs[c.Path+"#"+c.QName] = c.Impact.ReferenceCount
		}
	}
	var steps []string
	var breaking []StructuralChange
	for _, c := range all {
		if c.Severity == "breaking" {
			breaking = append(breaking, c)
		}
	}
	sort.SliceStable(breaking, func(i, j int) bool {
		return refs[breaking[i].Path+"#"+breaking[i].QName] > refs[breaking[j].Path+"#"+breaking[j].QName]
	})
	if len(breaking) > 0 {
		var names []string
		for _, c := range breaking {
			if len(names) == 4 {
				names = append(names, "…")
				break
			}
			s := c.QName + " (" + strings.ReplaceAll(c.Change, "_", " ")
			if n, ok := refs[c.Path+"#"+c.QName]; ok {
				s += fmt.Sprintf(", %d refs", n)
			}
			names = append(names, s+")")
		}
		steps = append(steps, fmt.Sprintf("%d breaking: check every caller of %s with impact_analyze or refs_find", len(breaking), strings.Join(names, ", ")))
	}
	var risky []string
	for _, c := range all {
		if c.Severity != "breaking" && (c.Change == "renamed" || c.Risk == "high") {
			if len(risky) < 4 {
				risky = append(risky, c.QName)
			}
		}
	}
	if len(risky) > 0 {
		steps = append(steps, "review the risky non-breaking changes: "+strings.Join(risky, ", "))
	}
	if n := r.Counts["body_changed"]; n > 0 {
		steps = append(steps, fmt.Sprintf("%d body changes keep their signatures: their behaviour is what tests must cover", n))
	}
	if len(tests) > 0 {
		steps = append(steps, "run the affected tests: "+strings.Join(tests, ", "))
	} else if r.Target.Kind == "worktree" {
		steps = append(steps, "no test reaches the changed files (affected_tests lists the gaps)")
	}
	if r.NonStructTotal > 0 {
		steps = append(steps, fmt.Sprintf("%d non-structural files changed (configuration, data, docs)", r.NonStructTotal))
	}
	var b strings.Builder
	for i, s := range steps {
		fmt.Fprintf(&b, "%d. %s. ", i+1, s)
	}
	return strings.TrimSpace(b.String())
}
