package doctor

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairnhq/cairn/internal/repomap"
	"github.com/cairnhq/cairn/internal/semantic"
)

func (d *run) indexers(ctx context.Context) {
	if d.o.Engine != nil && !d.built {
		d.add(Check{Name: "indexers", Status: Pass, Message: "skipped: no built index to take the languages from"})
		return
	}
	if d.o.Engine == nil {
		d.add(Check{Name: "indexers", Status: Warn, Message: "not checked: the index cannot be opened, so its languages are unknown"})
		return
	}
	ov, err := repomap.Overview(ctx, d.o.Engine)
	if err != nil {
		d.add(Check{Name: "indexers", Status: Warn, Message: "not checked: " + err.Error()})
		return
	}
	files := map[string]int{}
	for _, l := range ov.Languages {
		files[l.Language] = l.Files
	}
	checked := false
	for _, ix := range semantic.Indexers {
		var found []string
		for _, l := range ix.Langs {
			if files[l] > 0 {
				found = append(found, fmt.Sprintf("%d %s files", files[l], l))
			}
		}
		if len(found) == 0 {
			continue
		}
		checked = true
		what := strings.Join(found, ", ")
		name := "indexer:" + ix.Name
		if p, err := d.o.LookPath(ix.Name); err == nil {
			msg := fmt.Sprintf("%s at %s (%s)", ix.Name, p, what)
			if !ix.Runnable {
				msg += "; Cairn does not run it: add its .scip output to semantic.scip_paths"
			}
			d.add(Check{Name: name, Status: Pass, Message: msg})
			continue
		}
		d.add(Check{Name: name, Status: Warn, Fix: ix.Install, Hint: ix.Hint,
			Message: fmt.Sprintf("%s is not on PATH: %s stay on the syntactic layer (no compiler-precise references)", ix.Name, what)})
	}
	if !checked {
		d.add(Check{Name: "indexers", Status: Pass, Message: "no indexed language has a semantic indexer to check"})
	}
}

// semanticIndexes reports imported SCIP indexes that no longer describe the
// repository (built at another commit, files changed since); their stale
// files already answer from syntax, a refresh brings them back.
func (d *run) semanticIndexes(ctx context.Context) {
	if d.o.Engine == nil || !d.built {
		return
	}
	fr, err := d.o.Engine.SemanticFreshness(ctx)
	if err != nil {
		d.add(Check{Name: "semantic-index", Status: Warn, Message: "cannot read the semantic indexes: " + err.Error()})
		return
	}
	if len(fr) == 0 {
		d.add(Check{Name: "semantic-index", Status: Pass, Message: "no semantic index imported (references come from syntax)",
			Hint: "cairn index --semantic runs the installed SCIP indexers"})
		return
	}
	for _, f := range fr {
		name := "semantic-index:" + f.Key
		if !f.Stale {
			d.add(Check{Name: name, Status: Pass, Message: fmt.Sprintf("%s %s: %d files, current", f.Tool, f.ToolVersion, f.Usable)})
			continue
		}
		d.add(Check{Name: name, Status: Warn, Message: f.Warning, Fix: d.cairn("index --semantic"),
			Hint: "files changed since the index answer from syntactic facts until it is refreshed"})
	}
}
