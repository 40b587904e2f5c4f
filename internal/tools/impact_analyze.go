package tools

import (
	"context"
	"encoding/json"

	"github.com/cairnhq/cairn/internal/change"
	"github.com/cairnhq/cairn/internal/errs"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/scan"
)

// ImpactIn are the arguments of impact_analyze.
type ImpactIn struct {
	Symbol string    `json:"symbol,omitempty" jsonschema:"symbol_id, qualified name, path#Qualified.Name, a SCIP symbol or a unique suffix (an indexed file's or directory's path analyses the file or package)"`
	Path   string    `json:"path,omitempty" jsonschema:"a file or a directory (its package) instead of a symbol"`
	At     *Position `json:"at,omitempty" jsonschema:"the identifier at a position instead of a name"`
	Depth  int       `json:"depth,omitempty" jsonschema:"import hops for transitive dependents (default 2, at most 4)"`
	// Recursive takes a directory for every file below it.
	Recursive bool `json:"recursive,omitempty" jsonschema:"a directory with every file below it, not only its own package"`
	View
	Common
}

func init() {
	Register(Tool{
		Name: "impact_analyze", Group: "read", Fresh: true,
		Summary: "What depends on a symbol, file or package (a directory), before changing it: direct dependents (references, importing files) and transitive ones (importers of importers) grouped by module and package, test-only ones marked, derived visibility with its source and confidence, an impact class, a risk score with its inputs, its direct callers from the call graph, and the affected tests. Compressed to the response budget.",
		Doc: "Visibility comes from the language's own marks (modifiers, Go's export rule), else from whether other modules reference it, else from naming. " +
			"Direct references are the proven and strong links of the index (refs_find lists every location, anchored candidates and the semantic layer too). For a type, references to its members count. " +
			"A directory is a package target (its own files; every file below it when it has none of its own, or with recursive); an exact path wins over a symbol name. Its dependents are the files outside it that import or reference it. " +
			"Transitive dependents follow the reverse import graph for depth hops; test_only marks the packages only tests depend on (through tests, for transitive ones). " +
			"A set of up to 100 files lists every package with every file (sample); a larger one lists the heaviest with a few files each and says sampled. The risk score weighs visibility, reference count, module spread, transitive reach and whether tests would notice; every input is in risk.factors. " +
			"Lists are cut to fit max_chars (modules, packages, samples, tests); provenance.truncations says what was left out and next_actions how to see it.",
		When:     []string{"before changing, renaming or removing a symbol or file", "estimating the risk of a change and which tests to run"},
		WhenNot:  []string{"every reference location: refs_find", "what changed between two revisions: semantic_diff"},
		Examples: []string{`{"symbol": "rest.Config"}`, `{"path": "pkg/api/types.go"}`, `{"path": "internal/store"}`, `{"symbol": "Server.Handle", "max_chars": 4000}`},
	}, impactAnalyze)
}

func impactAnalyze(ctx context.Context, c *Call, in ImpactIn) (*change.ImpactResult, error) {
	e := c.Engine()
	maxChars := c.maxChars()
	p := change.ImpactParams{Depth: c.Bound("depth", in.Depth, Budget{2, 4}), MaxModules: c.Bound("limit", in.Limit, Budget{10, 50}),
		Recursive: in.Recursive}
	var res *change.ImpactResult
	var err error
	var span protocol.Location // the symbol's definition, for its history
	if in.Path == "" && in.At == nil && isPathTarget(ctx, c, in.Symbol) {
		in.Path, in.Symbol = in.Symbol, "" // an exact path wins over a name
	}
	switch {
	case in.Path != "" && (in.Symbol != "" || in.At != nil):
		return nil, errs.E(errs.InvalidArgument, "give a symbol or a path, not both")
	case in.Path != "":
		rp, err := scan.Contain(ctx, c.Env.Index.Paths().Root, in.Path)
		if err != nil {
			return nil, err
		}
		res, err = change.ImpactOfPath(ctx, e, c.Env.Changes, string(rp), p)
		if err != nil {
			return nil, err
		}
	default:
		r, err := resolveArg(ctx, c, in.Symbol, in.At)
		if err != nil {
			return nil, err
		}
		if res, err = change.ImpactOfSymbol(ctx, e, c.Env.Changes, r, p); err != nil {
			return nil, err
		}
		span = r.Span()
	}
	if err != nil {
		return nil, err
	}
	c.Saved(res.BytesCovered)
	c.addChurnRisk(ctx, res, span)
	var cardsTotal int
	res.Cards, cardsTotal = c.impactCards(ctx, res.Target)
	name := res.Target.Path
	if res.Target.Symbol != nil {
		name = res.Target.Symbol.QName
	}
	fitImpact(c, res, c.payloadBudget(ctx, maxChars), cardsTotal)
	c.Answer("%s: risk %s (%.2f); %d direct dependents (%d references, %d anchored) in %d modules, %d transitive files; impact %s; %d tests",
		name, res.Risk.Level, res.Risk.Score, res.Direct.Files, res.Direct.References, res.Direct.ByTier["anchored"], res.Direct.ModulesTotal, res.Transitive.Files,
		res.Classification.Level, res.Tests.Total)
	if res.Transitive.Bounded {
		c.Complete(0.8, "transitive dependents bounded by depth")
		if p.Depth < 4 {
			c.Next("impact_analyze", withTarget(in, map[string]any{"depth": 4}), "follow importers further out")
		}
	}
	if res.Target.Symbol != nil {
		c.Next("refs_find", map[string]any{"symbol": res.Target.Symbol.ID, "anchored": true}, "every reference location, with anchored candidates and the semantic layer")
	}
	if res.Tests.Total > 0 && res.Target.Kind != change.TargetPackage && res.Target.Kind != change.TargetDirectory {
		c.Next("affected_tests", map[string]any{"files": []string{res.Target.Path}}, "every affected test with its path through the imports")
	}
	if res.Direct.Sampled || res.Transitive.Sampled {
		c.Next("importers", map[string]any{"target": res.Target.Path}, "every importing file and package")
	}
	return res, nil
}

func withTarget(in ImpactIn, args map[string]any) map[string]any {
	switch {
	case in.Path != "":
		args["path"] = in.Path
		if in.Recursive {
			args["recursive"] = true
		}
	case in.Symbol != "":
		args["symbol"] = in.Symbol
	}
	return args
}

// fitImpact cuts the lists of an impact result until it fits the character budget,
// recording every cut.
func fitImpact(c *Call, res *change.ImpactResult, maxChars, cardsTotal int) {
	size := func() int {
		b, _ := json.Marshal(res)
		return len(b)
	}
	// Cheapest losses first: samples, then packages, then modules, then tests.
	for step := 0; size() > maxChars && step < 9; step++ {
		switch step {
		case 0, 1:
			for _, set := range []*change.DependentSet{&res.Direct, &res.Transitive} {
				for i := range set.Modules {
					for j := range set.Modules[i].Packages {
						s := &set.Modules[i].Packages[j].Sample
						if len(*s) > 1-step {
							*s = (*s)[:1-step]
						}
					}
				}
			}
		case 2, 3:
			keep := 3 - (step-2)*2 // 3, then 1
			for _, set := range []*change.DependentSet{&res.Transitive, &res.Direct} {
				for i := range set.Modules {
					if m := &set.Modules[i]; len(m.Packages) > keep {
						m.Packages = m.Packages[:keep]
					}
				}
			}
		case 4, 5:
			keep := 5 - (step-4)*3 // 5, then 2
			for _, set := range []*change.DependentSet{&res.Transitive, &res.Direct} {
				if len(set.Modules) > keep {
					set.Modules = set.Modules[:keep]
				}
			}
		case 6:
			if len(res.Tests.Tests) > 3 {
				res.Tests.Tests = res.Tests.Tests[:3]
			}
		case 7:
			if len(res.Callers.Items) > 3 {
				res.Callers.Items = res.Callers.Items[:3]
			}
		case 8:
			if len(res.Cards) > 3 {
				res.Cards = res.Cards[:3]
			}
		}
	}
	for _, ns := range []struct {
		name string
		set  *change.DependentSet
	}{{"direct", &res.Direct}, {"transitive", &res.Transitive}} { // in this order: the output is deterministic
		name, set := ns.name, ns.set
		c.Shortened(name+".modules", len(set.Modules), set.ModulesTotal, "budget")
		pk, pkTotal := 0, 0
		for _, m := range set.Modules {
			pk += len(m.Packages)
			pkTotal += m.PackagesTotal
		}
		c.Shortened(name+".modules.packages", pk, pkTotal, "budget")
	}
	c.Shortened("affected_tests.tests", len(res.Tests.Tests), res.Tests.Total, "budget")
	c.Shortened("callers.items", len(res.Callers.Items), res.Callers.Total, "budget")
	c.Shortened("cards", len(res.Cards), cardsTotal, "budget")
	if size() > maxChars {
		c.Warn("the payload stays at %d characters with every list cut", size())
	}

}
