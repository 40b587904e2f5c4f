package precision

import (
	"fmt"
	"strings"
)

var layerNames = map[string]string{
	"syntactic": "syntactic layer",
	"semantic":  "semantic layer (SCIP imported)",
}

// callsMarkdown renders the call-edge subsection of the precision section.
func callsMarkdown(b *strings.Builder, rs []*Result) {
	var with []*Result
	for _, r := range rs {
		if r.Calls != nil {
			with = append(with, r)
		}
	}
	if len(with) == 0 {
		return
	}
	fmt.Fprintln(b)
	fmt.Fprintln(b, "### Call edges: callers against the SCIP index")
	fmt.Fprintln(b)
	fmt.Fprintln(b, "Per corpus, the functions and methods of the same deterministic draw (up to `CALLS_N`, default 500) are asked for their callers "+
		"(`graph_callers`: depth 1, no caps), once on the syntactic layer and once on the semantic layer after the SCIP import. "+
		"The unit is a caller→callee pair, the caller named by its definition's position (the graph merges a caller's call sites into one edge). "+
		"The truth is read from the SCIP index: a reference occurrence of the callee's SCIP symbol is a call when the source text after the "+
		"name is `(`, possibly after type arguments (`[...]`, `<...>`), `!` or `?.`; its caller is the innermost definition whose extent "+
		"(from Cairn's parse) holds it. An occurrence that is itself a definition's name (`m() {...}` in an object literal, which scip-typescript records "+
		"as a reference of the interface member it implements) is a declaration, not a call. Calls outside every definition have no caller and are left out; "+
		"so are Cairn callers in files the index does not cover. \"Sites without a call fact\" are call sites where Cairn's parser records no call.")
	fmt.Fprintln(b)
	fmt.Fprintln(b, "| corpus | functions and methods | called | call sites | top-level sites | declarations left out | sites without a call fact | answer | callee symbols exact | true callers | tier | located | precision | recall up to tier |")
	fmt.Fprintln(b, "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|")
	for _, r := range with {
		st := r.Calls.Stats
		for _, layer := range []string{"syntactic", "semantic"} {
			t := r.Calls.Tallies[layer+"@scip"]
			if t == nil {
				continue
			}
			first := true
			head := func() {
				if layer == "syntactic" {
					fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %d | %d ", r.Name, st.Symbols, st.WithCallers, st.Sites, st.TopLevel, st.Declarations, st.NotCallFact)
				} else {
					fmt.Fprint(b, "| | | | | | | ")
				}
				fmt.Fprintf(b, "| %s | %d | %d ", layerNames[layer], t.Exact, t.Truth)
			}
			for _, tier := range Tiers {
				tc := t.ByTier[tier]
				if tc == nil || tc.Located == 0 {
					continue
				}
				if first {
					head()
					first = false
				} else {
					fmt.Fprint(b, "| | | | | | | | | | ")
				}
				fmt.Fprintf(b, "| %s | %d | %s | %s |\n", tier, tc.Located, pct(t.Precision(tier)), pct(t.RecallUpTo(tier)))
			}
			if first {
				head()
				fmt.Fprintln(b, "| – | 0 | – | – |")
			}
		}
	}
	fmt.Fprintln(b)
	fmt.Fprintln(b, "| corpus | callers, syntactic | callers, semantic |")
	fmt.Fprintln(b, "|---|---:|---:|")
	for _, r := range with {
		fmt.Fprintf(b, "| %s | %.2f s | %.2f s |\n", r.Name, sec(r.Calls.TimingMS["cairn_callers_syntactic"]), sec(r.Calls.TimingMS["cairn_callers_semantic"]))
	}
	for _, r := range with {
		for _, layer := range []string{"syntactic", "semantic"} {
			t := r.Calls.Tallies[layer+"@scip"]
			if t == nil || (len(t.FP) == 0 && len(t.FN) == 0 && len(t.Weak) == 0) {
				continue
			}
			fmt.Fprintf(b, "\n**%s, callers on the %s** — not in the index: %s; missed: %d; found only as anchored: %d\n\n", r.Name, layerNames[layer],
				fpLine(t), t.FNTotal, t.WeakTotal)
			for i, e := range t.FP {
				if i >= 6 {
					break
				}
				fmt.Fprintf(b, "- extra (%s) caller of `%s`: %s `%s`\n", e.Tier, e.Symbol, e.Loc, clip(e.Line))
			}
			for _, e := range spread(t.FN, 8) {
				fmt.Fprintf(b, "- missed caller of `%s`: %s, call at %s: `%s`\n", e.Symbol, e.Loc, e.Site, clip(e.SiteLine))
			}
			for _, e := range spread(t.Weak, 4) {
				fmt.Fprintf(b, "- only anchored, caller of `%s`: %s, call at %s: `%s`\n", e.Symbol, e.Loc, e.Site, clip(e.SiteLine))
			}
		}
	}
}
