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
		"so are Cairn callers in files the index does not cover. \"Sites without a call fact\" are call sites where Cairn's parser records no call. "+
		"This table scores the direct callers: the edges `graph_callers` marks as dispatch (`dispatch`: a call of a method the callee implements or overrides, "+
		"named in `through`) are scored apart, in the table after it, since the callee's own occurrences in the index do not list them.")
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
	dispatchMarkdown(b, with)
	fmt.Fprintln(b)
	fmt.Fprintln(b, "| corpus | callers, syntactic | callers, semantic |")
	fmt.Fprintln(b, "|---|---:|---:|")
	for _, r := range with {
		fmt.Fprintf(b, "| %s | %.2f s | %.2f s |\n", r.Name, sec(r.Calls.TimingMS["cairn_callers_syntactic"]), sec(r.Calls.TimingMS["cairn_callers_semantic"]))
	}
	for _, r := range with {
		for _, key := range []string{"syntactic", "semantic", "syntactic-dispatch", "semantic-dispatch"} {
			t := r.Calls.Tallies[key+"@scip"]
			if t == nil || (len(t.FP) == 0 && len(t.FN) == 0 && len(t.Weak) == 0) {
				continue
			}
			layer, dispatch := strings.CutSuffix(key, "-dispatch")
			what := "callers"
			if dispatch {
				what = "dispatch callers"
			}
			fmt.Fprintf(b, "\n**%s, %s on the %s** — not in the index: %s; missed: %d; found only as anchored: %d\n\n", r.Name, what, layerNames[layer],
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

// dispatchMarkdown renders the dispatch callers: the edges graph_callers
// marks as reaching the callee through a method it implements or
// overrides, against the callers of those methods in the index.
func dispatchMarkdown(b *strings.Builder, rs []*Result) {
	var with []*Result
	for _, r := range rs {
		if r.Calls.Tallies["syntactic-dispatch@scip"] != nil || r.Calls.Tallies["semantic-dispatch@scip"] != nil {
			with = append(with, r)
		}
	}
	if len(with) == 0 {
		return
	}
	fmt.Fprintln(b)
	fmt.Fprintln(b, "Dispatch callers: the edges into a sampled method that `graph_callers` marks `dispatch` (interface or override), "+
		"the caller calling a method the callee implements or overrides (`through`), as gopls and typescript-language-server count them. "+
		"Their truth is read from the same SCIP index: the methods the callee's implementation relationships name (followed transitively), "+
		"and the callers of those methods as above (call position, innermost enclosing definition). "+
		"\"First sites confirmed\" checks each edge's call line: the caller holds there a call the index resolves to one of those methods. "+
		"\"Unrelated\" edges go to methods the index relates to no other method, so nothing in it can confirm them.")
	fmt.Fprintln(b)
	fmt.Fprintln(b, "| corpus | methods related by the index | called through them | call sites | answer | callee symbols exact | true callers | tier | located | precision | recall up to tier | edges | first sites confirmed | unrelated |")
	fmt.Fprintln(b, "|---|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---:|")
	for _, r := range with {
		st := r.Calls.Stats.Dispatch
		for _, layer := range []string{"syntactic", "semantic"} {
			t := r.Calls.Tallies[layer+"-dispatch@scip"]
			if t == nil {
				continue
			}
			check := r.Calls.Dispatch[layer]
			if check == nil {
				check = &DispatchCheck{}
			}
			stats := "| | | | "
			if layer == "syntactic" {
				stats = fmt.Sprintf("| %s | %d | %d | %d ", r.Name, st.Implementing, st.WithCallers, st.Sites)
			}
			sites := fmt.Sprintf(" %d | %d | %d |", check.Edges, check.Confirmed, check.Unrelated)
			first := true
			for _, tier := range Tiers {
				tc := t.ByTier[tier]
				if tc == nil || tc.Located == 0 {
					continue
				}
				if first {
					fmt.Fprintf(b, "%s| %s | %d | %d | %s | %d | %s | %s |%s\n", stats, layerNames[layer], t.Exact, t.Truth, tier, tc.Located,
						pct(t.Precision(tier)), pct(t.RecallUpTo(tier)), sites)
					first = false
				} else {
					fmt.Fprintf(b, "| | | | | | | | %s | %d | %s | %s | | | |\n", tier, tc.Located, pct(t.Precision(tier)), pct(t.RecallUpTo(tier)))
				}
			}
			if first {
				fmt.Fprintf(b, "%s| %s | %d | %d | – | 0 | – | – |%s\n", stats, layerNames[layer], t.Exact, t.Truth, sites)
			}
		}
	}
}
