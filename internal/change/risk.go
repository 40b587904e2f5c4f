package change

import (
	"fmt"
	"math"
	"strings"

	"github.com/cairnhq/cairn/internal/lang"
	"github.com/cairnhq/cairn/internal/query"
)

// deriveVisibility follows CKB §8.1: the language's own marks (modifiers,
// Go's export rule), then whether other modules reference it, then naming.
func deriveVisibility(language, name string, v lang.Visibility, direct []ModuleImpact, home string) VisibilityInfo {
	if rule := lang.Of(language).VisibilityRule; v != lang.VisUnknown {
		switch rule {
		case lang.RuleExport:
			return VisibilityInfo{Visibility: v.String(), Confidence: 0.95, Source: rule}
		case lang.RuleModifiers:
			return VisibilityInfo{Visibility: v.String(), Confidence: 0.9, Source: rule}
		}
	}
	for _, m := range direct {
		if m.Module != home {
			return VisibilityInfo{Visibility: "public", Confidence: 0.9, Source: "ref-analysis"}
		}
	}
	if strings.HasPrefix(name, "_") && !strings.HasPrefix(name, "__") || strings.HasPrefix(name, "#") {
		return VisibilityInfo{Visibility: "private", Confidence: 0.6, Source: "naming-convention"}
	}
	return VisibilityInfo{Visibility: "unknown", Confidence: 0.3, Source: "naming-convention"}
}

// classify says how far the direct dependents reach.
func classify(g *depGraph, home int, direct map[int]int, vis VisibilityInfo) ImpactClass {
	c := ImpactClass{Level: "none", Reason: "nothing in the repository references it"}
	homeMod, homeDir := g.files[home].ModuleID, lang.DirOf(g.files[home].Path)
	level := 0
	names := []string{"none", "local", "package", "module", "cross-module"}
	for i := range direct {
		f := g.files[i]
		l := 1
		switch {
		case i == home:
		case f.ModuleID != homeMod:
			l = 4
		case lang.DirOf(f.Path) != homeDir:
			l = 3
		default:
			l = 2
		}
		level = max(level, l)
	}
	c.Level = names[level]
	switch level {
	case 1:
		c.Reason = "only its own file depends on it"
	case 2:
		c.Reason = "files of its own package depend on it"
	case 3:
		c.Reason = "other packages of its module depend on it"
	case 4:
		c.Reason = "other modules of the repository depend on it"
	}
	c.PublicAPI = vis.Visibility == "public" && vis.Confidence >= 0.9 && query.TestFileKind(g.files[home].Path, g.files[home].Lang) == "" &&
		!strings.Contains("/"+g.files[home].Path, "/internal/")
	if c.PublicAPI {
		c.Reason += "; it is public API, so code outside the repository may depend on it too"
	}
	return c
}

// riskScore weighs visibility, how much references it, how far that
// spreads, and whether tests would notice.
func riskScore(res *ImpactResult) RiskScore {
	visV := map[string]float64{"public": 1, "internal": 0.6, "unknown": 0.5, "private": 0.2}[res.Visibility.Visibility]
	refs := float64(res.Direct.References+res.Direct.Importers) + float64(res.Direct.ByTier["anchored"])/2
	refV := math.Min(1, math.Log10(1+refs)/3)
	spread := 0.0
	if res.Direct.ModulesTotal > 1 {
		spread = math.Min(1, float64(res.Direct.ModulesTotal-1)/4)
	}
	if res.Classification.PublicAPI {
		spread = math.Max(spread, 0.5)
	}
	transV := math.Min(1, math.Log10(1+float64(res.Transitive.Files))/4)
	testV := 1.0
	switch {
	case res.Tests.High > 0:
		testV = 0
	case res.Tests.Total > 0:
		testV = 0.5
	}
	factors := []RiskFactor{
		{Name: "visibility", Value: visV, Weight: 0.25, Input: res.Visibility.Visibility},
		{Name: "direct_references", Value: refV, Weight: 0.25, Input: fmt.Sprintf("%d references, %d anchored, %d importing files", res.Direct.References, res.Direct.ByTier["anchored"], res.Direct.Importers)},
		{Name: "module_spread", Value: spread, Weight: 0.15, Input: fmt.Sprintf("%d modules; public API: %v", res.Direct.ModulesTotal, res.Classification.PublicAPI)},
		{Name: "transitive_dependents", Value: transV, Weight: 0.15, Input: fmt.Sprintf("%d files within %d hops", res.Transitive.Files, res.Transitive.Depth)},
		{Name: "test_gap", Value: testV, Weight: 0.2, Input: fmt.Sprintf("%d tests (%d high confidence)", res.Tests.Total, res.Tests.High)},
	}
	score := 0.0
	for i := range factors {
		factors[i].Value = round6(factors[i].Value)
		score += factors[i].Value * factors[i].Weight
	}
	level := "low"
	switch {
	case score >= 0.66:
		level = "high"
	case score >= 0.33:
		level = "medium"
	}
	return RiskScore{Score: round6(score), Level: level, Factors: factors}
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }
