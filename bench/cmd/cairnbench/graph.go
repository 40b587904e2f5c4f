package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/cairnhq/cairn/internal/graph"
	"github.com/cairnhq/cairn/internal/index"
	"github.com/cairnhq/cairn/internal/protocol"
	"github.com/cairnhq/cairn/internal/tools"
)

// graphBench times graph_callers, in-process through the tool registry (so
// the default limits, the response budget and its truncations are part of
// what is timed), on the n symbols with the most incoming call edges, at
// depth 3 (the default) and at depth 1. The first call of the run opens the
// per-epoch views and is reported on its own; the rest are warm, as in a
// server. With results set it writes its section of RESULTS.md.
func graphBench(ctx context.Context, name, repo, state string, n, rounds int, results string) error {
	ix, err := openCurrent(ctx, repo, state)
	if err != nil {
		return err
	}
	defer ix.Close()
	env := toolEnv(ix)

	// The most called symbols: incoming call edges (one per calling symbol
	// and file), call sites as the tie-break.
	db, release := ix.Acquire()
	defer release()
	edges, err := db.AllEdges(ctx, uint8(index.EdgeCall))
	if err != nil {
		return err
	}
	type in struct{ edges, sites int }
	counts := map[int64]*in{}
	for _, ed := range edges {
		c := counts[ed.Dst]
		if c == nil {
			c = &in{}
			counts[ed.Dst] = c
		}
		c.edges++
		c.sites += ed.Count
	}
	ids := make([]int64, 0, len(counts))
	for id := range counts {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := counts[ids[i]], counts[ids[j]]
		if a.edges != b.edges {
			return a.edges > b.edges
		}
		if a.sites != b.sites {
			return a.sites > b.sites
		}
		return ids[i] < ids[j]
	})
	if len(ids) > n {
		ids = ids[:n]
	}
	call := func(id int64, depth int) (*protocol.Envelope, time.Duration) {
		args, _ := json.Marshal(map[string]any{"symbol": protocol.NewSymbolID(id), "depth": depth})
		t := time.Now()
		env := tools.Invoke(ctx, env, "graph_callers", args)
		return env, time.Since(t)
	}
	type shape struct {
		P50         float64       `json:"p50_ms"`
		Chars       int           `json:"chars"`
		Nodes       int           `json:"nodes"`
		Found       int           `json:"found"`
		Truncations int           `json:"truncations"`
		Levels      []graph.Level `json:"levels"`
	}
	type row struct {
		QName  string `json:"qualified_name"`
		Edges  int    `json:"incoming_edges"`
		Sites  int    `json:"call_sites"`
		Deep   shape  `json:"depth3"`
		Direct shape  `json:"depth1"`
	}
	measure := func(id int64, depth int, all *[]time.Duration) (shape, *graph.Result, error) {
		envl, _ := call(id, depth)
		if envl.Error != nil {
			return shape{}, nil, fmt.Errorf("graph_callers %s: %s", protocol.NewSymbolID(id), envl.Error.Message)
		}
		b, _ := json.Marshal(envl.Data) // what max_chars bounds
		res := envl.Data.(*graph.Result)
		s := shape{Chars: len(b), Nodes: len(res.Nodes) - 1, Truncations: len(envl.Provenance.Truncations), Levels: res.Levels}
		for _, l := range res.Levels {
			s.Found += l.Found
		}
		var ds []time.Duration
		for r := 0; r < rounds; r++ {
			_, d := call(id, depth)
			ds = append(ds, d)
		}
		*all = append(*all, ds...)
		s.P50 = percentiles(ds).P50
		return s, res, nil
	}
	// The cold call: the first of the process, on the most called symbol.
	coldEnv, cold := call(ids[0], 3)
	if coldEnv.Error != nil {
		return fmt.Errorf("graph_callers %s: %s", protocol.NewSymbolID(ids[0]), coldEnv.Error.Message)
	}
	var deep, direct []time.Duration
	var rows []row
	for _, id := range ids {
		d3, res, err := measure(id, 3, &deep)
		if err != nil {
			return err
		}
		d1, _, err := measure(id, 1, &direct)
		if err != nil {
			return err
		}
		rows = append(rows, row{QName: res.Root.QName, Edges: counts[id].edges, Sites: counts[id].sites, Deep: d3, Direct: d1})
	}
	coldMS := float64(cold.Microseconds()) / 1000
	pd, p1 := percentiles(deep), percentiles(direct)
	out := map[string]any{"corpus": name, "first_call_ms": coldMS, "depth3": pd, "depth1": p1, "symbols": rows,
		"budget_chars": tools.CharsBudget.Default, "limit_per_level": tools.PerLevelBudget.Default}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		return err
	}
	if results == "" {
		return nil
	}
	worst, largest := 0.0, 0
	for _, r := range rows {
		worst, largest = max(worst, r.Deep.P50), max(largest, r.Deep.Chars, r.Direct.Chars)
	}
	var b strings.Builder
	b.WriteString("<!-- graph:begin -->\n## Call graph (in-process)\n\n")
	fmt.Fprintf(&b, "`graph_callers` through the tool registry with its default limits (%d new callers kept per level, response budget %d characters, cuts recorded as truncations) on the %d symbols of %s with the most incoming call edges, %d warm runs each at depth 3 and at depth 1. "+
		"The first call of the process (depth 3, on the most called symbol, the store's caches cold): %.0f ms. Slowest per-symbol p50 at depth 3: %.2f ms; largest response: %d characters.\n\n",
		tools.PerLevelBudget.Default, tools.CharsBudget.Default, len(rows), name, rounds, coldMS, worst, largest)
	b.WriteString("| depth | runs | p50 | p90 | p99 | max |\n|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| 3 | %d | %.2f ms | %.2f ms | %.2f ms | %.2f ms |\n", pd.N, pd.P50, pd.P90, pd.P99, pd.Max)
	fmt.Fprintf(&b, "| 1 | %d | %.2f ms | %.2f ms | %.2f ms | %.2f ms |\n\n", p1.N, p1.P50, p1.P90, p1.P99, p1.Max)
	b.WriteString("Per symbol (depth 3, then depth 1): response characters (the data the budget bounds), callers returned of callers found over all levels, and the envelope's truncations (each level cut by the limit or the budget is one).\n\n")
	b.WriteString("| symbol | incoming edges | call sites | p50 d3 | chars d3 | nodes/found d3 | truncations d3 | p50 d1 | nodes/found d1 | truncations d1 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %d | %d | %.2f ms | %d | %d/%d | %d | %.2f ms | %d/%d | %d |\n", r.QName, r.Edges, r.Sites,
			r.Deep.P50, r.Deep.Chars, r.Deep.Nodes, r.Deep.Found, r.Deep.Truncations, r.Direct.P50, r.Direct.Nodes, r.Direct.Found, r.Direct.Truncations)
	}
	b.WriteString("<!-- graph:end -->\n")
	old, _ := os.ReadFile(results)
	s := string(old)
	if i, j := strings.Index(s, "<!-- graph:begin -->"), strings.Index(s, "<!-- graph:end -->"); i >= 0 && j > i {
		s = s[:i] + b.String() + strings.TrimPrefix(s[j+len("<!-- graph:end -->"):], "\n")
	} else {
		s = strings.TrimRight(s, "\n") + "\n\n" + b.String()
	}
	return os.WriteFile(results, []byte(s), 0o644)
}
