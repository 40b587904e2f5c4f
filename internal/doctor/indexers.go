package doctor

import (
	"context"
	"fmt"
	"strings"
)

// indexer is a SCIP indexer the semantic layer runs for some languages.
type indexer struct {
	name    string
	langs   []string // languages (Cairn's names) it indexes
	install string   // the command that installs it ("" when none fits all systems)
	hint    string
}

// indexers are the semantic indexers Cairn knows, with the versions checked to
// work (STACK.md). Only those whose languages the index holds are checked.
var indexers = []indexer{
	{name: "scip-go", langs: []string{"go"}, install: "go install github.com/scip-code/scip-go/cmd/scip-go@v0.2.9",
		hint: "go install puts it in $(go env GOPATH)/bin, which must be on PATH"},
	{name: "scip-typescript", langs: []string{"typescript", "tsx", "javascript"}, install: "npm i -g @sourcegraph/scip-typescript@0.4.0",
		hint: "needs Node.js 20 or later"},
	{name: "scip-python", langs: []string{"python"}, install: "npm i -g @sourcegraph/scip-python@0.6.6",
		hint: "needs Node.js 20 or later"},
	{name: "scip-java", langs: []string{"java", "kotlin", "scala"}, install: "cs install --contrib scip-java",
		hint: "cs is Coursier (https://get-coursier.io)"},
	{name: "scip-clang", langs: []string{"c", "cpp"},
		hint: "download a release binary from https://github.com/sourcegraph/scip-clang/releases and put it on PATH"},
	{name: "rust-analyzer", langs: []string{"rust"}, install: "rustup component add rust-analyzer"},
	{name: "scip-dotnet", langs: []string{"csharp"}, install: "dotnet tool install --global scip-dotnet"},
}

func (d *run) indexers(ctx context.Context) {
	if d.o.Engine != nil && !d.built {
		d.add(Check{Name: "indexers", Status: Pass, Message: "skipped: no built index to take the languages from"})
		return
	}
	if d.o.Engine == nil {
		d.add(Check{Name: "indexers", Status: Warn, Message: "not checked: the index cannot be opened, so its languages are unknown"})
		return
	}
	ov, err := d.o.Engine.Overview(ctx)
	if err != nil {
		d.add(Check{Name: "indexers", Status: Warn, Message: "not checked: " + err.Error()})
		return
	}
	files := map[string]int{}
	for _, l := range ov.Languages {
		files[l.Language] = l.Files
	}
	checked := false
	for _, ix := range indexers {
		var found []string
		for _, l := range ix.langs {
			if files[l] > 0 {
				found = append(found, fmt.Sprintf("%d %s files", files[l], l))
			}
		}
		if len(found) == 0 {
			continue
		}
		checked = true
		what := strings.Join(found, ", ")
		name := "indexer:" + ix.name
		if p, err := d.o.LookPath(ix.name); err == nil {
			d.add(Check{Name: name, Status: Pass, Message: fmt.Sprintf("%s at %s (%s)", ix.name, p, what)})
			continue
		}
		d.add(Check{Name: name, Status: Warn, Fix: ix.install, Hint: ix.hint,
			Message: fmt.Sprintf("%s is not on PATH: %s stay on the syntactic layer (no compiler-precise references)", ix.name, what)})
	}
	if !checked {
		d.add(Check{Name: "indexers", Status: Pass, Message: "no indexed language has a semantic indexer to check"})
	}
}
