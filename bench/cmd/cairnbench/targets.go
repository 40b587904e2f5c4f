package main

import (
	"fmt"
	"sort"
	"strings"
)

// target is one speed target of the report: a figure of Cairn's, its anchor
// measured in the same run, and the profile that says where the time goes.
type target struct {
	name, corpus, figure, anchor, ratio string
	met                                 bool
	profile                             string // key into Corpus.Profiles, "" for none
}

// speedTargets lists every target the run measured, corpus by corpus.
func speedTargets(cs []Corpus) []target {
	var ts []target
	for _, c := range cs {
		if c.Index.Seconds <= 0 || c.Queries == nil && c.Lexical == nil && c.Edit == nil {
			continue // a language corpus: indexed only
		}
		ts = append(ts, target{name: "full index ≤ 3x ctags", corpus: c.Name,
			figure: fmt.Sprintf("%.2f s", c.Index.Seconds), anchor: fmt.Sprintf("ctags over the same files %.2f s", c.Ctags.Seconds),
			ratio: fmt.Sprintf("%.1fx", c.Index.Seconds/max(c.Ctags.Seconds, 0.001)), met: c.Ctags.Seconds > 0 && c.Index.Seconds <= 3*c.Ctags.Seconds,
			profile: "index"})
		ts = append(ts, target{name: "full index peak RSS ≤ 500 MB", corpus: c.Name,
			figure: fmt.Sprintf("%.0f MB", c.Index.RSSMB), anchor: fmt.Sprintf("ctags %.0f MB", c.Ctags.RSSMB), ratio: "–",
			met: c.Index.RSSMB > 0 && c.Index.RSSMB <= 500})
		if c.Rg != nil {
			cl, rl := p50(c.Rg["cairn_literal"]), p50(c.Rg["rg_same_count_literal"])
			cr, rr := p50(c.Rg["cairn_regex"]), p50(c.Rg["rg_same_count_regex"])
			ts = append(ts, target{name: "CLI query, no server, ≤ rg", corpus: c.Name,
				figure: fmt.Sprintf("literal %.1f ms, regex %.1f ms", cl, cr), anchor: fmt.Sprintf("rg, same files and count: %.1f ms, %.1f ms", rl, rr),
				ratio: ratio(rl, cl) + ", " + ratio(rr, cr), met: cl > 0 && cl <= rl && cr <= rr, profile: "cli_search"})
		}
		for _, f := range sortedKeys(c.Edit) {
			m, _ := c.Edit[f].(map[string]any)
			missed, _ := m["missed"].(float64)
			body := "–"
			if im, ok := c.Incr[f].(map[string]any); ok {
				body = fmt.Sprintf("in-process update %.1f ms", p50(im["body_edit"]))
			}
			ts = append(ts, target{name: "edit to answer ≤ 50 ms", corpus: c.Name + " " + f,
				figure: fmt.Sprintf("p50 %.1f ms (%.0f missed)", p50(m), missed), anchor: body, ratio: "–",
				met: missed == 0 && p50(m) > 0 && p50(m) <= 50, profile: "edit_to_answer"})
		}
		if refs, ok := c.Queries["refs"].(map[string]any); ok {
			p99, _ := refs["p99_ms"].(float64)
			n, _ := refs["n"].(float64)
			cpu, _ := c.Queries["refs_cpu"].(map[string]any)
			cpu99, _ := cpu["p99_ms"].(float64)
			left, _ := c.Queries["lookups_ambiguous_or_missing"].(float64)
			ts = append(ts, target{name: "references p50 ≤ 2 ms, p99 ≤ 20 ms", corpus: c.Name,
				figure: fmt.Sprintf("%.2f / %.2f ms (CPU %.2f / %.2f ms), %.0f names, %.0f left out", p50(refs), p99, p50(cpu), cpu99, n, left),
				anchor: "–", ratio: "–", met: p50(refs) <= 2 && p99 <= 20, profile: "refs"})
		}
		if c.Lexical != nil {
			cl, sl := p50(c.Lexical["literal"]), p50(c.Lexical["scan_literal"])
			mism, _ := c.Lexical["count_mismatches"].([]any)
			ts = append(ts, target{name: "lexical literal, first page, p50 ≤ 2 ms", corpus: c.Name,
				figure: fmt.Sprintf("%.2f ms (CPU %.2f ms), %d counts differ", cl, p50(c.Lexical["literal_cpu"]), len(mism)),
				anchor: fmt.Sprintf("scan of the same files %.1f ms", sl), ratio: ratio(sl, cl), met: cl > 0 && cl <= 2, profile: "lexical_literal"})
		}
		for _, f := range sortedKeys(c.ImpactAfterEdit) {
			m, _ := c.ImpactAfterEdit[f].(map[string]any)
			body := "–"
			if im, ok := c.Incr[f].(map[string]any); ok {
				body = fmt.Sprintf("in-process update %.1f ms", p50(im["body_edit"]))
			}
			ts = append(ts, target{name: "impact after a change ≤ 100 ms", corpus: c.Name + " " + f,
				figure: fmt.Sprintf("first call of the epoch p50 %.1f ms", p50(m)), anchor: body, ratio: "–",
				met: p50(m) > 0 && p50(m) <= 100, profile: "impact_after_edit"})
		}
	}
	return ts
}

// targetsMarkdown writes the speed targets and, below them, the profiles
// they point to.
func targetsMarkdown(w func(string, ...any), cs []Corpus) {
	ts := speedTargets(cs)
	if len(ts) == 0 {
		return
	}
	w("## Speed targets\n\nEach target with its anchor from this run (the sections below have the details). A target not met points to the profile of the same run that says where its time goes (CPU samples of that operation only; listed under the table).\n\n")
	w("| target | corpus | Cairn | anchor, same run | ratio | met | profile |\n|---|---|---|---|---|---|---|\n")
	byCorpus := map[string]Corpus{}
	for _, c := range cs {
		byCorpus[c.Name] = c
	}
	used := map[string]bool{}
	for _, t := range ts {
		met, prof := "yes", "–"
		if !t.met {
			met = "**no**"
		}
		corpus, _, _ := strings.Cut(t.corpus, " ")
		if s := byCorpus[corpus].Profiles[t.profile]; s != nil {
			prof = corpus + " / " + t.profile
			used[prof] = true
		}
		w("| %s | %s | %s | %s | %s | %s | %s |\n", t.name, t.corpus, t.figure, t.anchor, t.ratio, met, prof)
	}
	keys := make([]string, 0, len(used))
	for k := range used {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w("\n### Profiles of this run\n\nPer profile: the CPU sampled, the functions that spend it (flat) and the project's functions that lead to it (cumulative; entry points through which nearly everything passes left out). The files are under bench/out/profiles (`go tool pprof -top FILE`).\n\n")
	for _, k := range keys {
		corpus, key, _ := strings.Cut(k, " / ")
		s := byCorpus[corpus].Profiles[key]
		w("- **%s** — %s, %.0f ms sampled.\n  Flat: %s.\n  The project's, cumulative: %s.\n", k, s.What, s.Samples, entries(s.Flat), entries(s.Cum))
	}
	w("\n")
}

func entries(es []ProfileEntry) string {
	if len(es) == 0 {
		return "–"
	}
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = fmt.Sprintf("`%s` %.0f%%", e.Func, e.Pct)
	}
	return strings.Join(parts, ", ")
}
